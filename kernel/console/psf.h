/* A parsed PSF console font (kernel/console/psf.c). */
#ifndef KERNEL_CONSOLE_PSF_H
#define KERNEL_CONSOLE_PSF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PSF_NO_GLYPH 0xffff

struct psf_font {
	const uint8_t *glyphs;
	uint32_t count, width, height, bytes_per_row, charsize;
	const uint8_t *table, *table_end; /* unicode table, NULL when absent */
	bool psf2;
	uint16_t map[256]; /* code points 0-255 -> glyph */
	uint16_t fallback; /* '?' */
};

/* false when p is not a PSF font usable for ASCII text; f is then unusable. */
bool psf_parse(struct psf_font *f, const uint8_t *p, size_t size);
/* The glyph for a code point; the font's '?' when it has none. */
uint16_t psf_glyph(struct psf_font *f, uint32_t cp);

#endif
