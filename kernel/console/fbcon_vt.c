/*
 * The framebuffer console's input side: the bytes printk writes, parsed as a
 * small VT100/ECMA-48 subset (SGR colours, cursor moves, erase, tabs,
 * backspace) and UTF-8; every other sequence is swallowed, malformed UTF-8
 * shows as '?'.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kernel/console/fbcon.h"
#include "kernel/console/fbcon_internal.h"

static void sgr(void)
{
	if (fbcon.nparams == 0)
		fbcon.params[fbcon.nparams++] = 0;
	for (unsigned i = 0; i < fbcon.nparams; i++) {
		unsigned p = fbcon.params[i];

		if (p == 0) {
			fbcon.fg = FBCON_LIGHT_GREY;
			fbcon.bg = FBCON_BLACK;
		} else if (p == 1) {
			fbcon.fg |= 8;
		} else if (p == 22) {
			fbcon.fg &= 7;
		} else if (p >= 30 && p <= 37) {
			fbcon.fg = (fbcon.fg & 8) | (p - 30);
		} else if (p == 39) {
			fbcon.fg = FBCON_LIGHT_GREY;
		} else if (p >= 40 && p <= 47) {
			fbcon.bg = (p - 40);
		} else if (p == 49) {
			fbcon.bg = FBCON_BLACK;
		} else if (p >= 90 && p <= 97) {
			fbcon.fg = 8 | (p - 90);
		} else if (p >= 100 && p <= 107) {
			fbcon.bg = 8 | (p - 100);
		} else if (p == 38 || p == 48) {
			break; /* 256-colour and RGB forms: ignored with their arguments */
		}
	}
}

static void csi(char final)
{
	unsigned p0 = fbcon.nparams ? fbcon.params[0] : 0;
	unsigned n = p0 ? p0 : 1;

	switch (final) {
	case 'm':
		sgr();
		break;
	case 'A':
		fbcon.cy = fbcon.cy > n ? fbcon.cy - n : 0;
		break;
	case 'B':
		fbcon.cy = fbcon.cy + n < fbcon.rows ? fbcon.cy + n : fbcon.rows - 1;
		break;
	case 'C':
		fbcon.cx = fbcon.cx + n < fbcon.cols ? fbcon.cx + n : fbcon.cols - 1;
		break;
	case 'D':
		fbcon.cx = fbcon.cx > n ? fbcon.cx - n : 0;
		break;
	case 'H':
	case 'f':
		fbcon_move_to(fbcon.nparams > 1 && fbcon.params[1] ? fbcon.params[1] - 1 : 0,
			      p0 ? p0 - 1 : 0);
		break;
	case 'J':
		if (p0 == 0)
			fbcon_erase(fbcon.cx < fbcon.cols ? fbcon.cx : fbcon.cols, fbcon.cy,
				    fbcon.cols, fbcon.rows - 1);
		else if (p0 == 2 || p0 == 3)
			fbcon_erase(0, 0, fbcon.cols, fbcon.rows - 1);
		break;
	case 'K':
		if (fbcon.cx < fbcon.cols)
			fbcon_erase(fbcon.cx, fbcon.cy, fbcon.cols, fbcon.cy);
		break;
	}
}

static void control(uint8_t ch)
{
	switch (ch) {
	case '\n':
		fbcon_newline();
		break;
	case '\r':
		fbcon.cx = 0;
		break;
	case '\t':
		do
			fbcon_put_glyph(fbcon_font.map[' ']);
		while (fbcon.cx % TAB_WIDTH && fbcon.cx < fbcon.cols);
		break;
	case '\b':
		if (fbcon.cx >= fbcon.cols)
			fbcon.cx = fbcon.cols - 1;
		if (fbcon.cx)
			fbcon.cx--;
		break;
	case 0x1b:
		fbcon.esc = ST_ESC;
		break;
	}
	/* BEL, NUL and the other C0 bytes: nothing to show. */
}

/* Bytes 0x80-0xff: UTF-8 sequences; anything malformed shows as '?'. */
static void utf8(uint8_t ch)
{
	if (fbcon.utf8_need) { /* a continuation byte: fbcon_byte() checked */
		fbcon.utf8_cp = fbcon.utf8_cp << 6 | (ch & 0x3f);
		if (--fbcon.utf8_need == 0)
			fbcon_put_glyph(psf_glyph(&fbcon_font, fbcon.utf8_cp));
	} else if (ch >= 0xc2 && ch <= 0xdf) {
		fbcon.utf8_need = 1;
		fbcon.utf8_cp = ch & 0x1f;
	} else if (ch >= 0xe0 && ch <= 0xef) {
		fbcon.utf8_need = 2;
		fbcon.utf8_cp = ch & 0x0f;
	} else if (ch >= 0xf0 && ch <= 0xf4) {
		fbcon.utf8_need = 3;
		fbcon.utf8_cp = ch & 0x07;
	} else {
		fbcon_put_glyph(fbcon_font.fallback); /* not UTF-8 */
	}
}

void fbcon_byte(uint8_t ch)
{
	switch (fbcon.esc) {
	case ST_ESC:
		if (ch == '[') {
			fbcon.esc = ST_CSI;
			fbcon.nparams = 0;
			fbcon.params[0] = 0;
		} else if (ch == ']') {
			fbcon.esc = ST_OSC;
		} else if (ch < 0x20 || ch > 0x2f) {
			fbcon.esc = ST_NORMAL; /* two-byte sequence; 0x20-0x2f are intermediates */
		}
		return;
	case ST_CSI:
		if (ch >= '0' && ch <= '9') {
			if (fbcon.nparams == 0)
				fbcon.nparams = 1;
			if (fbcon.params[fbcon.nparams - 1] < 10000)
				fbcon.params[fbcon.nparams - 1] =
					fbcon.params[fbcon.nparams - 1] * 10 + (ch - '0');
		} else if (ch == ';') {
			if (fbcon.nparams == 0)
				fbcon.nparams = 1;
			if (fbcon.nparams < MAX_PARAMS)
				fbcon.params[fbcon.nparams++] = 0;
		} else if (ch >= 0x40 && ch <= 0x7e) {
			fbcon.esc = ST_NORMAL;
			csi((char)ch);
		} else if (ch == 0x18 || ch == 0x1a) {
			fbcon.esc = ST_NORMAL; /* CAN, SUB: abort */
		}
		return; /* '?', intermediates, other bytes: swallowed */
	case ST_OSC:
		if (ch == 0x07)
			fbcon.esc = ST_NORMAL;
		else if (ch == 0x1b)
			fbcon.esc = ST_OSC_ESC;
		return;
	case ST_OSC_ESC: /* ESC \ ends the string; anything else too */
		fbcon.esc = ST_NORMAL;
		return;
	case ST_NORMAL:
		break;
	}
	if (fbcon.utf8_need && (ch & 0xc0) != 0x80) { /* a truncated sequence */
		fbcon.utf8_need = 0;
		fbcon_put_glyph(fbcon_font.fallback);
	}
	if (ch < 0x20 || ch == 0x7f)
		control(ch);
	else if (ch < 0x80)
		fbcon_put_glyph(fbcon_font.map[ch] != PSF_NO_GLYPH ? fbcon_font.map[ch]
								   : fbcon_font.fallback);
	else
		utf8(ch);
}
