/*
 * The framebuffer console's screen: a grid of cells (glyph + colours) kept in
 * RAM, drawn into the framebuffer, which is only ever written, never read.
 * On real PCs the framebuffer is uncached or write-combining memory where
 * reads cost a bus round trip each, so a memmove of pixel rows would be the
 * slowest possible scroll.  Scrolling moves the cells and redraws only the
 * cells whose content changed; short log lines leave most of the screen
 * blank, so a scroll touches a fraction of the pixels.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kernel/console/fbcon.h"
#include "kernel/console/fbcon_internal.h"
#include "kernel/lib/string.h"

struct cell fbcon_cells[MAX_COLS * MAX_ROWS];

static uint32_t *fb(void)
{
	return fbcon.fb;
}

const void *fbcon_mapping(uint64_t *phys)
{
	if (!fbcon.active)
		return 0;
	*phys = fbcon.fb_phys;
	return fbcon.fb;
}

/* An 8-bit colour channel placed into a GOP bit mask. */
static uint32_t channel(uint32_t v8, uint32_t mask)
{
	unsigned shift = 0, bits = 0;

	if (!mask)
		return 0;
	while (!(mask >> shift & 1))
		shift++;
	while (shift + bits < 32 && (mask >> (shift + bits) & 1))
		bits++;
	v8 = bits >= 8 ? v8 << (bits - 8) : v8 >> (8 - bits);
	return (v8 << shift) & mask;
}

uint32_t fbcon_pixel(uint32_t rgb, const struct boot_framebuffer *f)
{
	uint32_t r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;

	switch (f->format) {
	case BOOT_FB_RGBX:
		return r | g << 8 | b << 16;
	case BOOT_FB_BGRX:
		return b | g << 8 | r << 16;
	default:
		return channel(r, f->red_mask) | channel(g, f->green_mask) |
		       channel(b, f->blue_mask);
	}
}

void fbcon_fill_rect(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t px)
{
	uint32_t *row = fb() + (uint64_t)y * fbcon.pitch + x;

	for (uint32_t j = 0; j < h; j++, row += fbcon.pitch)
		for (uint32_t i = 0; i < w; i++)
			row[i] = px;
}

void fbcon_draw_cell(unsigned col, unsigned row, struct cell c, bool inverse)
{
	uint32_t fg = fbcon.palette[c.fg & 15], bg = fbcon.palette[c.bg & 15];
	const uint8_t *bits = fbcon_font.glyphs + (size_t)c.glyph * fbcon_font.charsize;
	uint32_t *line =
		fb() + (uint64_t)row * fbcon.cell_h * fbcon.pitch + (uint64_t)col * fbcon.cell_w;
	uint32_t s = fbcon.scale;

	if (inverse) {
		uint32_t t = fg;

		fg = bg;
		bg = t;
	}
	/* Each pixel row written straight from the glyph: the framebuffer is never read. */
	for (uint32_t y = 0; y < fbcon_font.height; y++, bits += fbcon_font.bytes_per_row) {
		for (uint32_t k = 0; k < s; k++, line += fbcon.pitch) {
			uint32_t *dst = line;

			for (uint32_t x = 0; x < fbcon_font.width; x++) {
				uint32_t px = (bits[x >> 3] >> (7 - (x & 7)) & 1) ? fg : bg;

				for (uint32_t j = 0; j < s; j++)
					*dst++ = px;
			}
		}
	}
}

struct cell *fbcon_cell_at(unsigned col, unsigned row)
{
	return &fbcon_cells[row * fbcon.cols + col];
}

struct cell fbcon_blank(void)
{
	return (struct cell){fbcon_font.map[' '], fbcon.fg, fbcon.bg};
}

static bool same(struct cell a, struct cell b)
{
	return a.glyph == b.glyph && a.fg == b.fg && a.bg == b.bg;
}

void fbcon_put_cell(unsigned col, unsigned row, struct cell c)
{
	struct cell *old = fbcon_cell_at(col, row);

	if (same(*old, c))
		return;
	*old = c;
	fbcon_draw_cell(col, row, c, false);
}

/* ---- the terminal ---- */

void fbcon_cursor(bool show)
{
	unsigned x = fbcon.cx < fbcon.cols ? fbcon.cx : fbcon.cols - 1;

	if (fbcon.cursor_shown == show)
		return;
	fbcon.cursor_shown = show;
	fbcon_draw_cell(x, fbcon.cy, *fbcon_cell_at(x, fbcon.cy), show);
}

/* Up one line: fbcon_cells move, only the fbcon_cells that differ are redrawn. */
void fbcon_scroll(void)
{
	struct cell b = fbcon_blank();

	for (unsigned r = 0; r + 1 < fbcon.rows; r++)
		for (unsigned c = 0; c < fbcon.cols; c++)
			fbcon_put_cell(c, r, *fbcon_cell_at(c, r + 1));
	for (unsigned c = 0; c < fbcon.cols; c++)
		fbcon_put_cell(c, fbcon.rows - 1, b);
}

void fbcon_newline(void)
{
	fbcon.cx = 0;
	if (fbcon.cy + 1 < fbcon.rows)
		fbcon.cy++;
	else
		fbcon_scroll();
}

void fbcon_put_glyph(uint16_t g)
{
	if (fbcon.cx >= fbcon.cols)
		fbcon_newline();
	fbcon_put_cell(fbcon.cx, fbcon.cy, (struct cell){g, fbcon.fg, fbcon.bg});
	fbcon.cx++;
}

void fbcon_erase(unsigned c0, unsigned r0, unsigned c1, unsigned r1) /* [c0,r0] .. (c1,r1) */
{
	struct cell b = fbcon_blank();

	for (unsigned i = r0 * fbcon.cols + c0; i < r1 * fbcon.cols + c1; i++)
		fbcon_put_cell(i % fbcon.cols, i / fbcon.cols, b);
}

void fbcon_move_to(unsigned col, unsigned row)
{
	fbcon.cx = col < fbcon.cols ? col : fbcon.cols - 1;
	fbcon.cy = row < fbcon.rows ? row : fbcon.rows - 1;
}
