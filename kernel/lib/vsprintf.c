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

/* What one conversion asked for: flags, width, precision (-1: none), length. */
struct spec {
	bool left, alt, plus, space;
	char pad;
	int width, prec;
};

static void format_number(struct out *o, char conv, uint64_t uval, int64_t sval,
			  const struct spec *sp)
{
	char tmp[72], digits[24];
	size_t n = 0, nd;
	int zeros;
	unsigned base = conv == 'o' ? 8 : (conv == 'd' || conv == 'i' || conv == 'u') ? 10 : 16;

	if (conv == 'd' || conv == 'i') {
		if (sval < 0)
			tmp[n++] = '-';
		else if (sp->plus || sp->space)
			tmp[n++] = sp->plus ? '+' : ' ';
		uval = sval < 0 ? (uint64_t)0 - (uint64_t)sval : (uint64_t)sval;
	} else if (conv == 'p' || (sp->alt && (conv == 'x' || conv == 'X') && uval)) {
		tmp[n++] = '0';
		tmp[n++] = conv == 'X' ? 'X' : 'x';
	}
	nd = sp->prec == 0 && uval == 0 ? 0 : utoa(digits, uval, base, conv == 'X');
	zeros = sp->prec > (int)nd ? sp->prec - (int)nd : 0;
	if (conv == 'o' && sp->alt && zeros == 0 && (nd == 0 || digits[0] != '0'))
		zeros = 1;
	if (zeros > 40)
		zeros = 40;
	/* the '0' flag pads after the sign or 0x, and not at all with a precision */
	if (sp->pad == '0' && !sp->left && sp->prec < 0) {
		int fill = sp->width - (int)(n + nd) - zeros;

		if (fill > 40)
			fill = 40;
		if (fill > zeros)
			zeros = fill;
	}
	while (zeros-- > 0)
		tmp[n++] = '0';
	memcpy(tmp + n, digits, nd);
	n += nd;
	emit_padded(o, tmp, n, sp->width, sp->left, ' ');
}

/*
 * Every flag, width, precision and length a printf format may hold is
 * parsed, even those the kernel does not use, so that no format the
 * compiler accepts can make the arguments that follow it go astray.
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = {buf, size, 0};

	for (; *fmt; fmt++) {
		struct spec sp = {.pad = ' ', .prec = -1};
		int lng = 0, shrt = 0;

		if (*fmt != '%') {
			emit(&o, *fmt);
			continue;
		}
		for (fmt++;; fmt++) {
			if (*fmt == '-')
				sp.left = true;
			else if (*fmt == '0')
				sp.pad = '0';
			else if (*fmt == '#')
				sp.alt = true;
			else if (*fmt == '+')
				sp.plus = true;
			else if (*fmt == ' ')
				sp.space = true;
			else
				break;
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
			}
			fmt++;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			sp.width = sp.width * 10 + (*fmt - '0');
		if (*fmt == '.') {
			sp.prec = 0;
			if (*++fmt == '*') {
				sp.prec = va_arg(ap, int);
				fmt++;
			}
			for (; *fmt >= '0' && *fmt <= '9'; fmt++)
				sp.prec = sp.prec * 10 + (*fmt - '0');
			if (sp.prec < 0)
				sp.prec = -1;
		}
		for (;; fmt++) {
			if (*fmt == 'l' || *fmt == 'z' || *fmt == 'j' || *fmt == 't')
				lng++;
			else if (*fmt == 'h')
				shrt++;
			else
				break;
		}
		if (sp.width > 4096)
			sp.width = 4096;
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = lng ? va_arg(ap, int64_t) : va_arg(ap, int);

			if (!lng && shrt)
				v = shrt > 1 ? (int64_t)(signed char)v : (int64_t)(short)v;
			format_number(&o, *fmt, 0, v, &sp);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uint64_t v = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned int);

			if (!lng && shrt)
				v = shrt > 1 ? (uint64_t)(unsigned char)v
					     : (uint64_t)(unsigned short)v;
			format_number(&o, *fmt, v, 0, &sp);
			break;
		}
		case 'p':
			sp.alt = false;
			format_number(&o, 'p', (uint64_t)va_arg(ap, void *), 0, &sp);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			emit_padded(&o, s, sp.prec >= 0 ? strnlen(s, (size_t)sp.prec) : strlen(s),
				    sp.width, sp.left, ' ');
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);

			emit_padded(&o, &c, 1, sp.width, sp.left, ' ');
			break;
		}
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
