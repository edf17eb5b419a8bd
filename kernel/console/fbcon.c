/*
 * Framebuffer console: the API, start-up and the screenshot hold.
 *
 * The screen is a text shadow in RAM, drawn by fbcon_draw.c; fbcon_vt.c
 * parses what printk writes.  Why PSF: the font is a Debian console font
 * (Terminus Bold 8x16, see kernel/console/font.mk), linked in as a blob and
 * parsed by psf.c, so a bad or unexpected file costs the screen console
 * only: serial keeps working.  Large screens get an integer scale (2x from
 * about 1600x800 up) so the text stays readable in a photo of the screen.
 *
 * Everything runs under console_write's irq_save, on one CPU.
 */
#include <stdint.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/fw_cfg.h"
#include "kernel/arch/tsc.h"
#include "kernel/console/fbcon.h"
#include "kernel/console/fbcon_internal.h"
#include "kernel/mm/ioremap.h"
#include "kernel/lib/printk.h"
#include "kernel/console/serial.h"
#include "kernel/lib/string.h"

/* The font blob (kernel/console/font.mk). */
extern const uint8_t fbcon_font_psf_start[], fbcon_font_psf_end[];

struct fbcon_state fbcon;
struct psf_font fbcon_font;

/* enum fbcon_color order (ANSI's), VGA's values, 0xRRGGBB. */
static const uint32_t vga_rgb[16] = {
	0x000000, 0xaa0000, 0x00aa00, 0xaa5500, 0x0000aa, 0xaa00aa, 0x00aaaa, 0xaaaaaa,
	0x555555, 0xff5555, 0x55ff55, 0xffff55, 0x5555ff, 0xff55ff, 0x55ffff, 0xffffff,
};

/* ---- the API ---- */

void fbcon_write(const char *s, size_t n)
{
	static unsigned depth;

	if (!fbcon.active)
		return;
	/*
	 * Nested once: a fault or NMI report while we were drawing; draw it.
	 * Nested twice: drawing itself faults; leave the report to serial.
	 */
	if (depth >= 2) {
		fbcon.active = false;
		return;
	}
	depth++;
	fbcon_cursor(false);
	for (size_t i = 0; i < n; i++)
		fbcon_byte((uint8_t)s[i]);
	fbcon_cursor(true);
	depth--;
}

bool fbcon_active(void)
{
	return fbcon.active;
}

unsigned fbcon_cols(void)
{
	return fbcon.active ? fbcon.cols : 0;
}

unsigned fbcon_rows(void)
{
	return fbcon.active ? fbcon.rows : 0;
}

bool fbcon_geometry(uint32_t *width, uint32_t *height, uint32_t *cell_h)
{
	if (!fbcon.active)
		return false;
	*width = fbcon.width;
	*height = fbcon.height;
	*cell_h = fbcon.cell_h;
	return true;
}

void fbcon_fill(uint32_t x, uint32_t y, uint32_t w, uint32_t h, enum fbcon_color c)
{
	if (!fbcon.active || x >= fbcon.width || y >= fbcon.height)
		return;
	if (w > fbcon.width - x)
		w = fbcon.width - x;
	if (h > fbcon.height - y)
		h = fbcon.height - y;
	fbcon_fill_rect(x, y, w, h, fbcon.palette[c & 15]);
}

void fbcon_set_color(enum fbcon_color fg, enum fbcon_color bg)
{
	fbcon.fg = fg & 15;
	fbcon.bg = bg & 15;
}

void fbcon_goto(unsigned col, unsigned row)
{
	if (!fbcon.active)
		return;
	fbcon_cursor(false);
	fbcon_move_to(col, row);
	fbcon_cursor(true);
}

void fbcon_clear(void)
{
	struct cell b;

	if (!fbcon.active)
		return;
	b = fbcon_blank();
	for (unsigned i = 0; i < fbcon.cols * fbcon.rows; i++)
		fbcon_cells[i] = b;
	fbcon_fill_rect(0, 0, fbcon.width, fbcon.height, fbcon.palette[fbcon.bg]);
	fbcon.cursor_shown = false;
	fbcon.cx = fbcon.cy = 0;
	fbcon_cursor(true);
}

void fbcon_puts_at(unsigned col, unsigned row, const char *s)
{
	if (!fbcon.active || row >= fbcon.rows)
		return;
	fbcon_cursor(false);
	for (; *s && col < fbcon.cols; s++, col++) {
		uint8_t ch = (uint8_t)*s;
		uint16_t g = ch >= 0x20 && ch < 0x7f ? fbcon_font.map[ch] : PSF_NO_GLYPH;

		fbcon_put_cell(col, row,
			       (struct cell){g != PSF_NO_GLYPH ? g : fbcon_font.fallback, fbcon.fg,
					     fbcon.bg});
	}
	fbcon_cursor(true);
}

static const char *format_name(uint32_t f)
{
	return f == BOOT_FB_RGBX ? "RGBX" : f == BOOT_FB_BGRX ? "BGRX" : "bitmask";
}

bool fbcon_init(const struct boot_framebuffer *f)
{
	uint64_t need;

	if (!f->base || f->format == BOOT_FB_NONE || f->format > BOOT_FB_BITMASK || !f->width ||
	    !f->height || f->pitch < f->width)
		return false;
	if (f->format == BOOT_FB_BITMASK &&
	    (!f->red_mask || !f->green_mask || !f->blue_mask || (f->red_mask & f->green_mask) ||
	     ((f->red_mask | f->green_mask) & f->blue_mask)))
		return false;
	need = ((uint64_t)f->pitch * (f->height - 1) + f->width) * 4;
	if (f->size && f->size < need) {
		kprintf("fbcon: framebuffer of %lu bytes is too small for %ux%u (pitch %u); "
			"no screen console\n",
			f->size, f->width, f->height, f->pitch);
		return false;
	}
	if (!psf_parse(&fbcon_font, fbcon_font_psf_start,
		       (size_t)(fbcon_font_psf_end - fbcon_font_psf_start))) {
		kprintf("fbcon: the built-in font is not a usable PSF font; no screen console\n");
		return false;
	}

	memset(&fbcon, 0, sizeof(fbcon));
	fbcon.fb_phys = f->base;
	fbcon.fb = ioremap_wc(f->base, f->size > need ? f->size : need);
	if (!fbcon.fb) {
		kprintf("fbcon: framebuffer at 0x%lx cannot be mapped; no screen console\n",
			f->base);
		return false;
	}
	fbcon.width = f->width;
	fbcon.height = f->height;
	fbcon.pitch = f->pitch;
	/* Readable in a photo: about 100+ columns and 30+ rows whatever the size. */
	fbcon.scale = f->width / 800 < f->height / 400 ? f->width / 800 : f->height / 400;
	if (fbcon.scale < 1)
		fbcon.scale = 1;
	if (fbcon.scale > 8)
		fbcon.scale = 8;
	fbcon.cell_w = fbcon_font.width * fbcon.scale;
	fbcon.cell_h = fbcon_font.height * fbcon.scale;
	fbcon.cols = f->width / fbcon.cell_w;
	fbcon.rows = f->height / fbcon.cell_h;
	if (fbcon.cols < 2 || fbcon.rows < 2)
		return false;
	if (fbcon.cols > MAX_COLS)
		fbcon.cols = MAX_COLS;
	if (fbcon.rows > MAX_ROWS)
		fbcon.rows = MAX_ROWS;
	for (unsigned i = 0; i < 16; i++)
		fbcon.palette[i] = fbcon_pixel(vga_rgb[i], f);
	fbcon.fg = FBCON_LIGHT_GREY;
	fbcon.bg = FBCON_BLACK;
	fbcon.active = true;
	fbcon_clear();
	console_screen_write = fbcon_write;
	kprintf("fbcon: %ux%u %s pitch %u at 0x%lx, font %ux%u x%u: %ux%u text%s\n", f->width,
		f->height, format_name(f->format), f->pitch, f->base, fbcon_font.width,
		fbcon_font.height, fbcon.scale, fbcon.cols, fbcon.rows,
		serial_present() ? "" : "; no serial port, this screen is the console");
	return true;
}

/* ---- holding the last screen for a screendump (QEMU only) ---- */

#define HOLD_FILE     "opt/aslrbench/screen-hold-ms"
#define DEBUGCON_PORT 0xe9

/* The hold the host asked for in ms, 0 without QEMU's fw_cfg or the file. */
static unsigned hold_ms_requested(void)
{
	char val[12];
	long size = fw_cfg_read_file(HOLD_FILE, val, sizeof(val) - 1);
	unsigned ms = 0;

	for (long k = 0; k < size && val[k] >= '0' && val[k] <= '9'; k++)
		ms = ms * 10 + (unsigned)(val[k] - '0');
	return ms < 10000 ? ms : 10000;
}

void fbcon_exit_hold(void)
{
	static const char ready[] = "aslrbench: screen ready\n";
	unsigned ms;
	uint64_t hz, t0;

	if (!fbcon.active)
		return;
	ms = hold_ms_requested();
	if (!ms)
		return;
	/* QEMU's debug console, there because the host asked: it takes the dump now. */
	for (const char *p = ready; *p; p++)
		outb(DEBUGCON_PORT, (uint8_t)*p);
	hz = tsc_hz() ? tsc_hz() : 3000000000ULL; /* before calibration: a guess is enough */
	t0 = rdtsc();
	while (rdtsc() - t0 < hz / 1000 * ms)
		cpu_relax();
}
