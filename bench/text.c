/* Console line builder; see text.h. */
#include "common/jrec.h"
#include "bench/text.h"

void tl_init(struct tline *l)
{
	l->len = 0;
	l->buf[0] = '\0';
}

static void put(struct tline *l, const char *s, size_t n)
{
	for (size_t i = 0; i < n && l->len + 1 < TLINE_MAX; i++)
		l->buf[l->len++] = s[i];
	l->buf[l->len] = '\0';
}

static void pad(struct tline *l, size_t n)
{
	while (n--)
		put(l, " ", 1);
}

static void field(struct tline *l, const char *s, size_t n, int width)
{
	size_t w = width < 0 ? (size_t)-width : (size_t)width;

	if (width < 0 && n < w)
		pad(l, w - n);
	put(l, s, n);
	if (width > 0 && n < w)
		pad(l, w - n);
}

void tl_str(struct tline *l, const char *s, int width)
{
	size_t n = 0;

	while (s[n])
		n++;
	field(l, s, n, width);
}

void tl_u64(struct tline *l, uint64_t v, int width)
{
	char num[24];

	field(l, num, fmt_u64(num, v), width);
}

void tl_milli(struct tline *l, int64_t milli, unsigned decimals, int width)
{
	char num[48];
	int64_t div = 1, v;

	if (decimals > 3)
		decimals = 3;
	for (unsigned i = decimals; i < 3; i++)
		div *= 10;
	v = milli < 0 ? -((-milli + div / 2) / div) : (milli + div / 2) / div;
	field(l, num, fmt_fixed(num, v, decimals), width);
}

const char *tl_end(struct tline *l)
{
	return l->buf;
}
