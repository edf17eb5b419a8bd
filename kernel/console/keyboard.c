/*
 * The PS/2 keyboard, polled: many PCs have no serial port, and the shell
 * should still be usable at the machine.  The i8042 translates to scan code
 * set 1 by default (firmware leaves it so for its own PS/2 driver), which is
 * all that is decoded here: US layout, shift and caps lock, enter and
 * backspace, and control with a letter (Ctrl-C, Ctrl-Z: the byte a
 * terminal sends, 1 to 26, which the tty turns into a signal).  Reads are bounded, and a missing
 * controller (status 0xff) is never touched again.
 */
#include "kernel/arch/cpu.h"
#include "kernel/console/keyboard.h"

#define KBD_DATA   0x60
#define KBD_STATUS 0x64
#define ST_OUTPUT  0x01 /* a byte is waiting */
#define ST_AUX	   0x20 /* ... from the mouse, not the keyboard */

static bool present, shift, caps, ctrl;

static const char plain[0x3a] = {
	0,    27,  '1', '2', '3', '4', '5', '6', '7', '8', '9',	 '0', '-', '=',	 '\b',
	'\t', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p',	 '[', ']', '\n', 0,
	'a',  's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`', 0,   '\\', 'z',
	'x',  'c', 'v', 'b', 'n', 'm', ',', '.', '/', 0,   '*',	 0,   ' ',
};

static const char shifted[0x3a] = {
	0,    27,  '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+',	'\b',
	'\t', 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\n', 0,
	'A',  'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~', 0,	  '|',	'Z',
	'X',  'C', 'V', 'B', 'N', 'M', '<', '>', '?', 0,   '*', 0,   ' ',
};

bool kbd_init(void)
{
	present = inb(KBD_STATUS) != 0xff;
	/* Drop whatever the firmware left queued. */
	for (int i = 0; present && i < 32 && (inb(KBD_STATUS) & ST_OUTPUT); i++)
		(void)inb(KBD_DATA);
	return present;
}

int kbd_translate(uint8_t sc)
{
	bool release = sc & 0x80;
	uint8_t code = sc & 0x7f;
	char c;

	if (code == 0x2a || code == 0x36) { /* left/right shift */
		shift = !release;
		return 0;
	}
	if (code == 0x1d) { /* left control; right control is e0 1d, its prefix skipped */
		ctrl = !release;
		return 0;
	}
	if (release || code >= sizeof(plain))
		return 0;
	if (code == 0x3a) { /* caps lock */
		caps = !caps;
		return 0;
	}
	c = shift ? shifted[code] : plain[code];
	if (ctrl && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		return c & 0x1f;
	if (caps && c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	else if (caps && c >= 'A' && c <= 'Z')
		c = (char)(c - 'A' + 'a');
	return (unsigned char)c;
}

int kbd_getc(void)
{
	for (int i = 0; present && i < 16; i++) {
		uint8_t st = inb(KBD_STATUS), sc;
		int c;

		if (!(st & ST_OUTPUT))
			return -1;
		sc = inb(KBD_DATA);
		if (st & ST_AUX || sc == 0xe0)
			continue; /* mouse bytes and extended-key prefixes */
		c = kbd_translate(sc);
		if (c)
			return c;
	}
	return -1;
}
