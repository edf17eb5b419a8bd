/*
 * One hex digit's value, as Linux's hex_to_bin() (lib/hexdump.c): 0-15, or
 * -1 for a character that is not a hex digit.  Header-only so that the
 * kernel, the host tools and the ring-3 programs share it without a library.
 */
#ifndef COMMON_HEX_H
#define COMMON_HEX_H

static inline int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20; /* 'A'-'F' to 'a'-'f' */
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

#endif
