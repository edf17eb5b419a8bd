/*
 * The framebuffer console's shared state, for its three files: fbcon.c (the
 * API, init, the screenshot hold), fbcon_draw.c (cells, pixels, the cursor
 * and scrolling) and fbcon_vt.c (the escape-sequence and UTF-8 parser).
 * Everything runs under console_write's irq_save, on one CPU.
 */
#ifndef KERNEL_CONSOLE_FBCON_INTERNAL_H
#define KERNEL_CONSOLE_FBCON_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/boot_info.h"
#include "kernel/console/psf.h"

#define MAX_COLS   256
#define MAX_ROWS   128
#define TAB_WIDTH  8
#define MAX_PARAMS 8

struct cell {
	uint16_t glyph;
	uint8_t fg, bg;
};

enum esc_state { ST_NORMAL, ST_ESC, ST_CSI, ST_OSC, ST_OSC_ESC };

struct fbcon_state {
	bool active;
	uint64_t fb_phys;
	uint32_t *fb;		       /* write-combining mapping (kernel/mm/ioremap.c) */
	uint32_t width, height, pitch; /* pixels */
	uint32_t scale, cell_w, cell_h;
	unsigned cols, rows;
	unsigned cx, cy; /* cx == cols: the next printable wraps first */
	uint8_t fg, bg;
	bool cursor_shown;
	uint32_t palette[16]; /* native pixel values */
	/* parser state */
	enum esc_state esc;
	unsigned params[MAX_PARAMS], nparams;
	uint32_t utf8_cp;
	unsigned utf8_need;
};

extern struct fbcon_state fbcon;
extern struct psf_font fbcon_font;
extern struct cell fbcon_cells[MAX_COLS * MAX_ROWS];

/* fbcon_draw.c */
void fbcon_fill_rect(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t px);
uint32_t fbcon_pixel(uint32_t rgb, const struct boot_framebuffer *f);
void fbcon_draw_cell(unsigned col, unsigned row, struct cell c, bool inverse);
struct cell *fbcon_cell_at(unsigned col, unsigned row);
struct cell fbcon_blank(void);
void fbcon_put_cell(unsigned col, unsigned row, struct cell c);
void fbcon_cursor(bool show);
void fbcon_scroll(void);
void fbcon_newline(void);
void fbcon_put_glyph(uint16_t g);
void fbcon_erase(unsigned c0, unsigned r0, unsigned c1, unsigned r1); /* [c0,r0] .. (c1,r1) */
void fbcon_move_to(unsigned col, unsigned row);

/* fbcon_vt.c */
void fbcon_byte(uint8_t ch);

#endif
