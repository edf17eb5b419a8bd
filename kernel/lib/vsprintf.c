/*
 * The kernel's printf formatter.  One formatter for the console and for
 * buffers, so /proc files and log records format numbers exactly alike.  It
 * depends on nothing but the string functions, so the host build (fuzzing
 * the /proc formatters) uses this very file.
 */
#include <stdint.h>
#include <stdbool.h>

#include "kernel/lib/vsprintf.h"
#include "kernel/lib/string.h"

struct out {
	char *buf;
	size_t size;
	size_t len; /* would-be length, as snprintf */
};

static void emit(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void emit_padded(struct out *o, const char *s, size_t n, int width, bool left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;

	if (!left)
		while (fill-- > 0)
			emit(o, pad);
	for (size_t i = 0; i < n; i++)
		emit(o, s[i]);
	if (left)
		while (fill-- > 0)
			emit(o, ' ');
}

static size_t utoa(char *tmp, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0, i;

	do {
		rev[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

static void format_number(struct out *o, char conv, uint64_t uval, int64_t sval, int width,
			  bool left, char pad)
{
	char tmp[26];
	size_t n = 0;

	if (conv == 'd' || conv == 'i') {
		if (sval < 0) {
			tmp[n++] = '-';
			uval = (uint64_t)0 - (uint64_t)sval;
		} else {
			uval = (uint64_t)sval;
		}
		n += utoa(tmp + n, uval, 10, false);
	} else if (conv == 'p') {
		tmp[n++] = '0';
		tmp[n++] = 'x';
		n += utoa(tmp + n, uval, 16, false);
	} else {
		n = utoa(tmp, uval, conv == 'u' ? 10 : 16, conv == 'X');
	}
	/* Zero padding goes after the sign. */
	if (pad == '0' && tmp[0] == '-' && !left) {
		emit(o, '-');
		emit_padded(o, tmp + 1, n - 1, width - 1, false, '0');
		return;
	}
	emit_padded(o, tmp, n, width, left, pad);
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = {buf, size, 0};

	for (; *fmt; fmt++) {
		bool left = false;
		char pad = ' ';
		int width = 0, lng = 0;

		if (*fmt != '%') {
			emit(&o, *fmt);
			continue;
		}
		fmt++;
		for (; *fmt == '-' || *fmt == '0'; fmt++) {
			if (*fmt == '-')
				left = true;
			else
				pad = '0';
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			fmt++;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + (*fmt - '0');
		for (; *fmt == 'l' || *fmt == 'z'; fmt++)
			lng++;
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);

			format_number(&o, *fmt, 0, v, width, left, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned int);

			format_number(&o, *fmt, v, 0, width, left, pad);
			break;
		}
		case 'p':
			format_number(&o, 'p', (uint64_t)va_arg(ap, void *), 0, width, left, pad);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			emit_padded(&o, s, strlen(s), width, left, ' ');
			break;
		}
		case 'c':
			emit(&o, (char)va_arg(ap, int));
			break;
		case '%':
			emit(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			emit(&o, '%');
			emit(&o, *fmt);
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
