/*
 * The freestanding C string functions.
 *
 * memcpy, memmove and memset hand 32 bytes and more to the string
 * instructions (REP MOVSB, REP STOSB), as Linux 6.12's memmove does on a CPU
 * with ERMS (arch/x86/lib/memmove_64.S: "cmp $0x20, %rdx; jb 1f", then
 * "rep movsb") and its memcpy and memset on one with FSRM/FSRS
 * (memcpy_64.S, memset_64.S).  The instructions are correct on every
 * x86_64 CPU; ERMS only makes them fast.  Below 32 bytes a byte loop, where
 * a string instruction's start-up costs more than it saves.  The rest of
 * the file is byte-at-a-time: short strings, no hot path.
 *
 * Whole pages have their own primitives, clear_page and copy_page
 * (kernel/arch/page.h), as in Linux.
 */
#include "kernel/lib/string.h"

#define STRING_REP_MIN 32

static inline void rep_movsb(void *dst, const void *src, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= STRING_REP_MIN) {
		rep_movsb(d, s, n);
		return dst;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

/*
 * Forwards unless the destination starts inside the source (then a forward
 * copy would overwrite bytes before reading them), as memmove_64.S decides.
 * A forward REP MOVSB is correct for any overlap with dst below src: it is
 * defined byte by byte, lowest address first.  Backwards it runs with the
 * direction flag set (memmove_64.S: "std; rep movsq; cld"); an interrupt
 * meanwhile is safe, the entry code clears DF and IRET restores it.
 */
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	if (n >= STRING_REP_MIN) {
		unsigned char *dl = d + n - 1;
		const unsigned char *sl = s + n - 1;

		__asm__ volatile("std\n\trep movsb\n\tcld"
				 : "+D"(dl), "+S"(sl), "+c"(n)
				 :
				 : "memory", "cc");
		return dst;
	}
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (n >= STRING_REP_MIN) {
		__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
		return dst;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? 0 : (char *)hay;
}
