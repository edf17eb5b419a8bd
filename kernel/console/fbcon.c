/*
 * Framebuffer console.
 *
 * Why a text shadow: the screen is a grid of cells (glyph + colours) kept
 * in RAM, and the framebuffer is only ever written, never read.  On real
 * PCs the framebuffer is uncached or write-combining memory where reads
 * cost a bus round trip each, so a memmove of pixel rows would be the
 * slowest possible scroll.  Scrolling moves the cells and redraws only the
 * cells whose content changed; short log lines leave most of the screen
 * blank, so a scroll touches a fraction of the pixels.
 *
 * Why PSF: the font is a Debian console font (Terminus Bold 8x16, see
 * kernel/console/font.mk), linked in as a blob and parsed here, so a bad or
 * unexpected file costs the screen console only: serial keeps working.
 * Large screens get an integer scale (2x from about 1600x800 up) so the text
 * stays readable in a photo of the screen.
 *
 * Everything runs under console_write's irq_save, on one CPU.
 */
#include <stdint.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/tsc.h"
#include "kernel/console/fbcon.h"
#include "kernel/mm/ioremap.h"
#include "kernel/lib/printk.h"
#include "kernel/console/serial.h"
#include "kernel/lib/string.h"
#include "kernel/mm/vmm.h"

/* The font blob (kernel/console/font.mk). */
extern const uint8_t fbcon_font_psf_start[], fbcon_font_psf_end[];

#define MAX_COLS   256
#define MAX_ROWS   128
#define TAB_WIDTH  8
#define NO_GLYPH   0xffff
#define MAX_PARAMS 8

struct cell {
	uint16_t glyph;
	uint8_t fg, bg;
};

struct font {
	const uint8_t *glyphs;
	uint32_t count, width, height, bytes_per_row, charsize;
	const uint8_t *table, *table_end; /* unicode table, NULL when absent */
	bool psf2;
	uint16_t map[256]; /* code points 0-255 -> glyph */
	uint16_t fallback; /* '?' */
};

enum esc_state { ST_NORMAL, ST_ESC, ST_CSI, ST_OSC, ST_OSC_ESC };

static struct {
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
} con;

static struct font font;
static struct cell cells[MAX_COLS * MAX_ROWS];

/* enum fbcon_color order (ANSI's), VGA's values, 0xRRGGBB. */
static const uint32_t vga_rgb[16] = {
	0x000000, 0xaa0000, 0x00aa00, 0xaa5500, 0x0000aa, 0xaa00aa, 0x00aaaa, 0xaaaaaa,
	0x555555, 0xff5555, 0x55ff55, 0xffff55, 0x5555ff, 0xff55ff, 0x55ffff, 0xffffff,
};

/* ---- the font ---- */

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Next code point of the unicode table entry at *p; -1 at the entry's end. */
static int32_t table_next(const uint8_t **p, bool *in_seq)
{
	const uint8_t *q = *p, *end = font.table_end;

	for (;;) {
		uint32_t cp;

		if (font.psf2) {
			if (q >= end || *q == 0xff) {
				*p = q < end ? q + 1 : q;
				return -1;
			}
			if (*q == 0xfe) {
				*in_seq = true;
				q++;
				continue;
			}
			if (*q < 0x80) {
				cp = *q++;
			} else {
				unsigned n = *q >= 0xf0 ? 3 : *q >= 0xe0 ? 2 : 1;

				cp = *q++ & (0x3f >> n);
				while (n-- && q < end)
					cp = cp << 6 | (*q++ & 0x3f);
			}
		} else {
			if (q + 2 > end) {
				*p = end;
				return -1;
			}
			cp = q[0] | (uint32_t)q[1] << 8;
			q += 2;
			if (cp == 0xffff) {
				*p = q;
				return -1;
			}
			if (cp == 0xfffe) {
				*in_seq = true;
				continue;
			}
		}
		*p = q;
		if (*in_seq)
			continue; /* combining sequences: not used for single characters */
		return (int32_t)cp;
	}
}

/* Walks the unicode table: fills font.map, or finds one code point. */
static uint16_t table_scan(uint32_t want, bool fill_map)
{
	const uint8_t *p = font.table;

	for (uint32_t g = 0; g < font.count && p < font.table_end; g++) {
		bool in_seq = false;
		int32_t cp;

		while ((cp = table_next(&p, &in_seq)) >= 0) {
			if (fill_map && cp < 256 && font.map[cp] == NO_GLYPH)
				font.map[cp] = (uint16_t)g;
			if (!fill_map && (uint32_t)cp == want)
				return (uint16_t)g;
		}
	}
	return NO_GLYPH;
}

static bool font_parse(const uint8_t *p, size_t size)
{
	size_t glyph_bytes;

	memset(&font, 0, sizeof(font));
	if (size >= 4 && p[0] == 0x36 && p[1] == 0x04) { /* PSF1 */
		font.count = (p[2] & 1) ? 512 : 256;
		font.width = 8;
		font.height = p[3];
		font.charsize = p[3];
		font.glyphs = p + 4;
		glyph_bytes = 4 + (size_t)font.count * font.charsize;
		if (p[2] & 2)
			font.table = p + glyph_bytes;
	} else if (size >= 32 && le32(p) == 0x864ab572) { /* PSF2 */
		uint32_t hsize = le32(p + 8), flags = le32(p + 12);

		font.psf2 = true;
		font.count = le32(p + 16);
		font.charsize = le32(p + 20);
		font.height = le32(p + 24);
		font.width = le32(p + 28);
		if (le32(p + 4) != 0 || hsize < 32 || hsize > size)
			return false;
		font.glyphs = p + hsize;
		glyph_bytes = hsize + (size_t)font.count * font.charsize;
		if (flags & 1)
			font.table = p + glyph_bytes;
	} else {
		return false;
	}
	font.bytes_per_row = (font.width + 7) / 8;
	if (font.width < 4 || font.width > 32 || font.height < 6 || font.height > 64 ||
	    font.count < 128 || font.count > 4096 ||
	    font.charsize != font.bytes_per_row * font.height || glyph_bytes > size)
		return false;
	font.table_end = font.table ? p + size : 0;

	for (unsigned i = 0; i < 256; i++)
		font.map[i] = NO_GLYPH;
	if (font.table)
		table_scan(0, true);
	else
		for (unsigned i = 0; i < 256 && i < font.count; i++)
			font.map[i] = (uint16_t)i;
	if (font.map['?'] == NO_GLYPH || font.map['A'] == NO_GLYPH || font.map[' '] == NO_GLYPH)
		return false; /* not a font for ASCII text */
	font.fallback = font.map['?'];
	return true;
}

static uint16_t glyph_for(uint32_t cp)
{
	uint16_t g = NO_GLYPH;

	if (cp < 256)
		g = font.map[cp];
	else if (font.table)
		g = table_scan(cp, false);
	return g == NO_GLYPH ? font.fallback : g;
}

/* ---- pixels ---- */

static uint32_t *fb(void)
{
	return con.fb;
}

const void *fbcon_mapping(uint64_t *phys)
{
	if (!con.active)
		return 0;
	*phys = con.fb_phys;
	return con.fb;
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

static uint32_t pixel(uint32_t rgb, const struct boot_framebuffer *f)
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

static void fill_rect(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t px)
{
	uint32_t *row = fb() + (uint64_t)y * con.pitch + x;

	for (uint32_t j = 0; j < h; j++, row += con.pitch)
		for (uint32_t i = 0; i < w; i++)
			row[i] = px;
}

static void draw_cell(unsigned col, unsigned row, struct cell c, bool inverse)
{
	uint32_t fg = con.palette[c.fg & 15], bg = con.palette[c.bg & 15];
	const uint8_t *bits = font.glyphs + (size_t)c.glyph * font.charsize;
	uint32_t *line = fb() + (uint64_t)row * con.cell_h * con.pitch + (uint64_t)col * con.cell_w;
	uint32_t s = con.scale;

	if (inverse) {
		uint32_t t = fg;

		fg = bg;
		bg = t;
	}
	/* Each pixel row written straight from the glyph: the framebuffer is never read. */
	for (uint32_t y = 0; y < font.height; y++, bits += font.bytes_per_row) {
		for (uint32_t k = 0; k < s; k++, line += con.pitch) {
			uint32_t *dst = line;

			for (uint32_t x = 0; x < font.width; x++) {
				uint32_t px = (bits[x >> 3] >> (7 - (x & 7)) & 1) ? fg : bg;

				for (uint32_t j = 0; j < s; j++)
					*dst++ = px;
			}
		}
	}
}

static struct cell *cell_at(unsigned col, unsigned row)
{
	return &cells[row * con.cols + col];
}

static struct cell blank(void)
{
	return (struct cell){font.map[' '], con.fg, con.bg};
}

static bool same(struct cell a, struct cell b)
{
	return a.glyph == b.glyph && a.fg == b.fg && a.bg == b.bg;
}

static void put_cell(unsigned col, unsigned row, struct cell c)
{
	struct cell *old = cell_at(col, row);

	if (same(*old, c))
		return;
	*old = c;
	draw_cell(col, row, c, false);
}

/* ---- the terminal ---- */

static void cursor(bool show)
{
	unsigned x = con.cx < con.cols ? con.cx : con.cols - 1;

	if (con.cursor_shown == show)
		return;
	con.cursor_shown = show;
	draw_cell(x, con.cy, *cell_at(x, con.cy), show);
}

/* Up one line: cells move, only the cells that differ are redrawn. */
static void scroll(void)
{
	struct cell b = blank();

	for (unsigned r = 0; r + 1 < con.rows; r++)
		for (unsigned c = 0; c < con.cols; c++)
			put_cell(c, r, *cell_at(c, r + 1));
	for (unsigned c = 0; c < con.cols; c++)
		put_cell(c, con.rows - 1, b);
}

static void newline(void)
{
	con.cx = 0;
	if (con.cy + 1 < con.rows)
		con.cy++;
	else
		scroll();
}

static void put_glyph(uint16_t g)
{
	if (con.cx >= con.cols)
		newline();
	put_cell(con.cx, con.cy, (struct cell){g, con.fg, con.bg});
	con.cx++;
}

static void erase(unsigned c0, unsigned r0, unsigned c1, unsigned r1) /* [c0,r0] .. (c1,r1) */
{
	struct cell b = blank();

	for (unsigned i = r0 * con.cols + c0; i < r1 * con.cols + c1; i++)
		put_cell(i % con.cols, i / con.cols, b);
}

static void move_to(unsigned col, unsigned row)
{
	con.cx = col < con.cols ? col : con.cols - 1;
	con.cy = row < con.rows ? row : con.rows - 1;
}

static void sgr(void)
{
	if (con.nparams == 0)
		con.params[con.nparams++] = 0;
	for (unsigned i = 0; i < con.nparams; i++) {
		unsigned p = con.params[i];

		if (p == 0) {
			con.fg = FBCON_LIGHT_GREY;
			con.bg = FBCON_BLACK;
		} else if (p == 1) {
			con.fg |= 8;
		} else if (p == 22) {
			con.fg &= 7;
		} else if (p >= 30 && p <= 37) {
			con.fg = (con.fg & 8) | (p - 30);
		} else if (p == 39) {
			con.fg = FBCON_LIGHT_GREY;
		} else if (p >= 40 && p <= 47) {
			con.bg = (p - 40);
		} else if (p == 49) {
			con.bg = FBCON_BLACK;
		} else if (p >= 90 && p <= 97) {
			con.fg = 8 | (p - 90);
		} else if (p >= 100 && p <= 107) {
			con.bg = 8 | (p - 100);
		} else if (p == 38 || p == 48) {
			break; /* 256-colour and RGB forms: ignored with their arguments */
		}
	}
}

static void csi(char final)
{
	unsigned p0 = con.nparams ? con.params[0] : 0;
	unsigned n = p0 ? p0 : 1;

	switch (final) {
	case 'm':
		sgr();
		break;
	case 'A':
		con.cy = con.cy > n ? con.cy - n : 0;
		break;
	case 'B':
		con.cy = con.cy + n < con.rows ? con.cy + n : con.rows - 1;
		break;
	case 'C':
		con.cx = con.cx + n < con.cols ? con.cx + n : con.cols - 1;
		break;
	case 'D':
		con.cx = con.cx > n ? con.cx - n : 0;
		break;
	case 'H':
	case 'f':
		move_to(con.nparams > 1 && con.params[1] ? con.params[1] - 1 : 0, p0 ? p0 - 1 : 0);
		break;
	case 'J':
		if (p0 == 0)
			erase(con.cx < con.cols ? con.cx : con.cols, con.cy, con.cols,
			      con.rows - 1);
		else if (p0 == 2 || p0 == 3)
			erase(0, 0, con.cols, con.rows - 1);
		break;
	case 'K':
		if (con.cx < con.cols)
			erase(con.cx, con.cy, con.cols, con.cy);
		break;
	}
}

static void control(uint8_t ch)
{
	switch (ch) {
	case '\n':
		newline();
		break;
	case '\r':
		con.cx = 0;
		break;
	case '\t':
		do
			put_glyph(font.map[' ']);
		while (con.cx % TAB_WIDTH && con.cx < con.cols);
		break;
	case '\b':
		if (con.cx >= con.cols)
			con.cx = con.cols - 1;
		if (con.cx)
			con.cx--;
		break;
	case 0x1b:
		con.esc = ST_ESC;
		break;
	}
	/* BEL, NUL and the other C0 bytes: nothing to show. */
}

/* Bytes 0x80-0xff: UTF-8 sequences; anything malformed shows as '?'. */
static void utf8(uint8_t ch)
{
	if (con.utf8_need) { /* a continuation byte: byte() checked */
		con.utf8_cp = con.utf8_cp << 6 | (ch & 0x3f);
		if (--con.utf8_need == 0)
			put_glyph(glyph_for(con.utf8_cp));
	} else if (ch >= 0xc2 && ch <= 0xdf) {
		con.utf8_need = 1;
		con.utf8_cp = ch & 0x1f;
	} else if (ch >= 0xe0 && ch <= 0xef) {
		con.utf8_need = 2;
		con.utf8_cp = ch & 0x0f;
	} else if (ch >= 0xf0 && ch <= 0xf4) {
		con.utf8_need = 3;
		con.utf8_cp = ch & 0x07;
	} else {
		put_glyph(font.fallback); /* not UTF-8 */
	}
}

static void byte(uint8_t ch)
{
	switch (con.esc) {
	case ST_ESC:
		if (ch == '[') {
			con.esc = ST_CSI;
			con.nparams = 0;
			con.params[0] = 0;
		} else if (ch == ']') {
			con.esc = ST_OSC;
		} else if (ch < 0x20 || ch > 0x2f) {
			con.esc = ST_NORMAL; /* two-byte sequence; 0x20-0x2f are intermediates */
		}
		return;
	case ST_CSI:
		if (ch >= '0' && ch <= '9') {
			if (con.nparams == 0)
				con.nparams = 1;
			if (con.params[con.nparams - 1] < 10000)
				con.params[con.nparams - 1] =
					con.params[con.nparams - 1] * 10 + (ch - '0');
		} else if (ch == ';') {
			if (con.nparams == 0)
				con.nparams = 1;
			if (con.nparams < MAX_PARAMS)
				con.params[con.nparams++] = 0;
		} else if (ch >= 0x40 && ch <= 0x7e) {
			con.esc = ST_NORMAL;
			csi((char)ch);
		} else if (ch == 0x18 || ch == 0x1a) {
			con.esc = ST_NORMAL; /* CAN, SUB: abort */
		}
		return; /* '?', intermediates, other bytes: swallowed */
	case ST_OSC:
		if (ch == 0x07)
			con.esc = ST_NORMAL;
		else if (ch == 0x1b)
			con.esc = ST_OSC_ESC;
		return;
	case ST_OSC_ESC: /* ESC \ ends the string; anything else too */
		con.esc = ST_NORMAL;
		return;
	case ST_NORMAL:
		break;
	}
	if (con.utf8_need && (ch & 0xc0) != 0x80) { /* a truncated sequence */
		con.utf8_need = 0;
		put_glyph(font.fallback);
	}
	if (ch < 0x20 || ch == 0x7f)
		control(ch);
	else if (ch < 0x80)
		put_glyph(font.map[ch] != NO_GLYPH ? font.map[ch] : font.fallback);
	else
		utf8(ch);
}

/* ---- the API ---- */

void fbcon_write(const char *s, size_t n)
{
	static unsigned depth;

	if (!con.active)
		return;
	/*
	 * Nested once: a fault or NMI report while we were drawing; draw it.
	 * Nested twice: drawing itself faults; leave the report to serial.
	 */
	if (depth >= 2) {
		con.active = false;
		return;
	}
	depth++;
	cursor(false);
	for (size_t i = 0; i < n; i++)
		byte((uint8_t)s[i]);
	cursor(true);
	depth--;
}

bool fbcon_active(void)
{
	return con.active;
}

unsigned fbcon_cols(void)
{
	return con.active ? con.cols : 0;
}

unsigned fbcon_rows(void)
{
	return con.active ? con.rows : 0;
}

void fbcon_set_color(enum fbcon_color fg, enum fbcon_color bg)
{
	con.fg = fg & 15;
	con.bg = bg & 15;
}

void fbcon_goto(unsigned col, unsigned row)
{
	if (!con.active)
		return;
	cursor(false);
	move_to(col, row);
	cursor(true);
}

void fbcon_clear(void)
{
	struct cell b;

	if (!con.active)
		return;
	b = blank();
	for (unsigned i = 0; i < con.cols * con.rows; i++)
		cells[i] = b;
	fill_rect(0, 0, con.width, con.height, con.palette[con.bg]);
	con.cursor_shown = false;
	con.cx = con.cy = 0;
	cursor(true);
}

void fbcon_puts_at(unsigned col, unsigned row, const char *s)
{
	if (!con.active || row >= con.rows)
		return;
	cursor(false);
	for (; *s && col < con.cols; s++, col++) {
		uint8_t ch = (uint8_t)*s;
		uint16_t g = ch >= 0x20 && ch < 0x7f ? font.map[ch] : NO_GLYPH;

		put_cell(col, row,
			 (struct cell){g != NO_GLYPH ? g : font.fallback, con.fg, con.bg});
	}
	cursor(true);
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
	if (!font_parse(fbcon_font_psf_start,
			(size_t)(fbcon_font_psf_end - fbcon_font_psf_start))) {
		kprintf("fbcon: the built-in font is not a usable PSF font; no screen console\n");
		return false;
	}

	memset(&con, 0, sizeof(con));
	con.fb_phys = f->base;
	con.fb = ioremap_wc(f->base, f->size > need ? f->size : need);
	if (!con.fb) {
		kprintf("fbcon: framebuffer at 0x%lx cannot be mapped; no screen console\n",
			f->base);
		return false;
	}
	con.width = f->width;
	con.height = f->height;
	con.pitch = f->pitch;
	/* Readable in a photo: about 100+ columns and 30+ rows whatever the size. */
	con.scale = f->width / 800 < f->height / 400 ? f->width / 800 : f->height / 400;
	if (con.scale < 1)
		con.scale = 1;
	if (con.scale > 8)
		con.scale = 8;
	con.cell_w = font.width * con.scale;
	con.cell_h = font.height * con.scale;
	con.cols = f->width / con.cell_w;
	con.rows = f->height / con.cell_h;
	if (con.cols < 2 || con.rows < 2)
		return false;
	if (con.cols > MAX_COLS)
		con.cols = MAX_COLS;
	if (con.rows > MAX_ROWS)
		con.rows = MAX_ROWS;
	for (unsigned i = 0; i < 16; i++)
		con.palette[i] = pixel(vga_rgb[i], f);
	con.fg = FBCON_LIGHT_GREY;
	con.bg = FBCON_BLACK;
	con.active = true;
	fbcon_clear();
	console_screen_write = fbcon_write;
	kprintf("fbcon: %ux%u %s pitch %u at 0x%lx, font %ux%u x%u: %ux%u text%s\n", f->width,
		f->height, format_name(f->format), f->pitch, f->base, font.width, font.height,
		con.scale, con.cols, con.rows,
		serial_present() ? "" : "; no serial port, this screen is the console");
	return true;
}

/* ---- holding the last screen for a screendump (QEMU only) ---- */

#define FW_CFG_SEL	 0x510
#define FW_CFG_DATA	 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR	 0x0019
#define HOLD_FILE	 "opt/aslrbench/screen-hold-ms"
#define DEBUGCON_PORT	 0xe9

static void fw_cfg_select(uint16_t key)
{
	__asm__ volatile("outw %0, %1" : : "a"(key), "Nd"((uint16_t)FW_CFG_SEL));
}

static void fw_cfg_read(void *buf, size_t n)
{
	uint8_t *b = buf;

	while (n--)
		*b++ = inb(FW_CFG_DATA);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The hold the host asked for in ms, 0 without QEMU's fw_cfg or the file. */
static unsigned hold_ms_requested(void)
{
	uint32_t r[4];
	uint8_t b[4], ent[64];
	uint32_t count;

	/* Only under a hypervisor: never poke ports 0x510/0x511 on a real PC. */
	cpuid_count(1, 0, r);
	if (!(r[2] & (1u << 31)))
		return 0;
	fw_cfg_select(FW_CFG_SIGNATURE);
	fw_cfg_read(b, 4);
	if (memcmp(b, "QEMU", 4))
		return 0;
	fw_cfg_select(FW_CFG_FILE_DIR);
	fw_cfg_read(b, 4);
	count = be32(b);
	for (uint32_t i = 0; i < count && i < 4096; i++) {
		char val[12];
		uint32_t size;
		unsigned ms = 0;

		fw_cfg_read(ent, sizeof(ent)); /* be32 size, be16 select, u16, name[56] */
		ent[63] = 0;
		if (strcmp((const char *)ent + 8, HOLD_FILE))
			continue;
		size = be32(ent);
		if (size > sizeof(val) - 1)
			size = sizeof(val) - 1;
		fw_cfg_select((uint16_t)(ent[4] << 8 | ent[5]));
		fw_cfg_read(val, size);
		for (uint32_t k = 0; k < size && val[k] >= '0' && val[k] <= '9'; k++)
			ms = ms * 10 + (unsigned)(val[k] - '0');
		return ms < 10000 ? ms : 10000;
	}
	return 0;
}

void fbcon_exit_hold(void)
{
	static const char ready[] = "aslrbench: screen ready\n";
	unsigned ms;
	uint64_t hz, t0;

	if (!con.active)
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
