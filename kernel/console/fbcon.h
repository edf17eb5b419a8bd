/*
 * The framebuffer console: the screen as a text terminal, for the PCs that
 * have no serial port.  It draws into the GOP framebuffer the loader found,
 * with a PSF console font linked into the kernel at build time
 * (kernel/console/font.mk), and receives every byte printk sends to serial.
 */
#ifndef KERNEL_CONSOLE_FBCON_H
#define KERNEL_CONSOLE_FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/boot_info.h"

/* The 16 colours in ANSI order (SGR 30-37, 90-97), with VGA text-mode values. */
enum fbcon_color {
	FBCON_BLACK,
	FBCON_RED,
	FBCON_GREEN,
	FBCON_BROWN,
	FBCON_BLUE,
	FBCON_MAGENTA,
	FBCON_CYAN,
	FBCON_LIGHT_GREY,
	FBCON_DARK_GREY,
	FBCON_LIGHT_RED,
	FBCON_LIGHT_GREEN,
	FBCON_YELLOW,
	FBCON_LIGHT_BLUE,
	FBCON_LIGHT_MAGENTA,
	FBCON_LIGHT_CYAN,
	FBCON_WHITE,
};

/*
 * Takes over the screen (cleared, light grey on black) and hooks itself
 * into console_write.  Needs the physmap (call after vmm_init).  Returns
 * false, and leaves the console to serial, when there is no usable linear
 * framebuffer or the built-in font does not parse.
 */
bool fbcon_init(const struct boot_framebuffer *fb);
bool fbcon_active(void);
/* The framebuffer's kernel mapping and its physical address; NULL while inactive. */
const void *fbcon_mapping(uint64_t *phys);

/* Terminal output: \n \r \t \b, UTF-8, ANSI CSI (SGR colours, H, J, K, A-D). */
void fbcon_write(const char *s, size_t n);

/* For full-screen pages (the summary screen).  No-ops while inactive. */
void fbcon_clear(void); /* whole screen in the current background, cursor home */
void fbcon_set_color(enum fbcon_color fg, enum fbcon_color bg);
void fbcon_goto(unsigned col, unsigned row);
void fbcon_puts_at(unsigned col, unsigned row, const char *s); /* clipped; cursor stays */
unsigned fbcon_cols(void);				       /* 0 while inactive */
unsigned fbcon_rows(void);

/*
 * For pictures (the QR screen): the screen and a text cell in pixels, and
 * a filled rectangle, clipped to the screen.  The text shadow is not
 * updated: fbcon_clear() afterwards puts the console back.  No-ops (and
 * false) while inactive.
 */
bool fbcon_geometry(uint32_t *width, uint32_t *height, uint32_t *cell_h);
void fbcon_fill(uint32_t x, uint32_t y, uint32_t w, uint32_t h, enum fbcon_color c);

/*
 * Installed as machine_exit_hold_hook; runs just before the status leaves.  When the QEMU host
 * asked for it (fw_cfg file "opt/aslrbench/screen-hold-ms", set by
 * scripts/run-qemu.sh --screenshot together with a debug console on port
 * 0xe9), says "aslrbench: screen ready" there and keeps the final screen up
 * that long, so the monitor can take a screendump.  Returns at once on a real
 * PC (no hypervisor bit: fw_cfg is never probed) and in ordinary QEMU runs.
 */
void fbcon_exit_hold(void);

#endif
