/*
 * PSF1/PSF2 console fonts (Linux's and kbd's format): the header, the glyph
 * bitmaps and the unicode table, every size checked against the blob, so a
 * bad or unexpected file is refused here and costs the screen console only.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/console/psf.h"
#include "kernel/lib/string.h"

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Next code point of the unicode table entry at *p; -1 at the entry's end. */
static int32_t table_next(const struct psf_font *f, const uint8_t **p, bool *in_seq)
{
	const uint8_t *q = *p, *end = f->table_end;

	for (;;) {
		uint32_t cp;

		if (f->psf2) {
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

/* Walks the unicode table: fills f->map, or finds one code point. */
static uint16_t table_scan(struct psf_font *f, uint32_t want, bool fill_map)
{
	const uint8_t *p = f->table;

	for (uint32_t g = 0; g < f->count && p < f->table_end; g++) {
		bool in_seq = false;
		int32_t cp;

		while ((cp = table_next(f, &p, &in_seq)) >= 0) {
			if (fill_map && cp < 256 && f->map[cp] == PSF_NO_GLYPH)
				f->map[cp] = (uint16_t)g;
			if (!fill_map && (uint32_t)cp == want)
				return (uint16_t)g;
		}
	}
	return PSF_NO_GLYPH;
}

bool psf_parse(struct psf_font *f, const uint8_t *p, size_t size)
{
	size_t glyph_bytes;

	memset(f, 0, sizeof(*f));
	if (size >= 4 && p[0] == 0x36 && p[1] == 0x04) { /* PSF1 */
		f->count = (p[2] & 1) ? 512 : 256;
		f->width = 8;
		f->height = p[3];
		f->charsize = p[3];
		f->glyphs = p + 4;
		glyph_bytes = 4 + (size_t)f->count * f->charsize;
		if (p[2] & 2)
			f->table = p + glyph_bytes;
	} else if (size >= 32 && le32(p) == 0x864ab572) { /* PSF2 */
		uint32_t hsize = le32(p + 8), flags = le32(p + 12);

		f->psf2 = true;
		f->count = le32(p + 16);
		f->charsize = le32(p + 20);
		f->height = le32(p + 24);
		f->width = le32(p + 28);
		if (le32(p + 4) != 0 || hsize < 32 || hsize > size)
			return false;
		f->glyphs = p + hsize;
		glyph_bytes = hsize + (size_t)f->count * f->charsize;
		if (flags & 1)
			f->table = p + glyph_bytes;
	} else {
		return false;
	}
	f->bytes_per_row = (f->width + 7) / 8;
	if (f->width < 4 || f->width > 32 || f->height < 6 || f->height > 64 || f->count < 128 ||
	    f->count > 4096 || f->charsize != f->bytes_per_row * f->height || glyph_bytes > size)
		return false;
	f->table_end = f->table ? p + size : 0;

	for (unsigned i = 0; i < 256; i++)
		f->map[i] = PSF_NO_GLYPH;
	if (f->table)
		table_scan(f, 0, true);
	else
		for (unsigned i = 0; i < 256 && i < f->count; i++)
			f->map[i] = (uint16_t)i;
	if (f->map['?'] == PSF_NO_GLYPH || f->map['A'] == PSF_NO_GLYPH ||
	    f->map[' '] == PSF_NO_GLYPH)
		return false; /* not a font for ASCII text */
	f->fallback = f->map['?'];
	return true;
}

uint16_t psf_glyph(struct psf_font *f, uint32_t cp)
{
	uint16_t g = PSF_NO_GLYPH;

	if (cp < 256)
		g = f->map[cp];
	else if (f->table)
		g = table_scan(f, cp, false);
	return g == PSF_NO_GLYPH ? f->fallback : g;
}
