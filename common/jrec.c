/* One-line JSON log records: see jrec.h for why this exists. */
#include "common/jrec.h"

size_t fmt_u64(char *dst, uint64_t v)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	return n;
}

size_t fmt_fixed(char *dst, int64_t v, unsigned decimals)
{
	uint64_t mag, scale = 1;
	size_t n = 0;
	unsigned i;

	if (decimals > 18)
		decimals = 18;
	for (i = 0; i < decimals; i++)
		scale *= 10;
	mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		dst[n++] = '-';
	n += fmt_u64(dst + n, mag / scale);
	if (decimals) {
		uint64_t frac = mag % scale;

		dst[n++] = '.';
		for (i = decimals; i > 0; i--) {
			uint64_t d = frac;
			unsigned j;

			for (j = 1; j < i; j++)
				d /= 10;
			dst[n++] = (char)('0' + d % 10);
		}
	}
	return n;
}

/* Room kept back so that jrec_end can always close the object. */
#define JREC_TAIL    ",\"truncated\":true}"
#define JREC_RESERVE (sizeof(JREC_TAIL))

/* Appends raw bytes; on overflow marks the record full and appends nothing. */
static bool put(struct jrec *r, const char *s, size_t n)
{
	if (r->full || r->len + n + JREC_RESERVE > r->size) {
		r->full = true;
		return false;
	}
	for (size_t i = 0; i < n; i++)
		r->buf[r->len++] = s[i];
	r->buf[r->len] = '\0';
	return true;
}

static size_t cstrlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* JSON string body: quotes, backslashes and control bytes escaped. */
static void put_escaped(struct jrec *r, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	put(r, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};
			put(r, e, 2);
		} else if (c < 0x20 || c == 0x7f) {
			char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			put(r, e, 6);
		} else {
			put(r, (const char *)&c, 1);
		}
	}
	put(r, "\"", 1);
}

/* Field prefix `,"key":`; rolls back to the last complete field on overflow. */
static size_t field(struct jrec *r, const char *key)
{
	size_t mark = r->len;

	put(r, ",", 1);
	put_escaped(r, key);
	put(r, ":", 1);
	return mark;
}

static void finish_field(struct jrec *r, size_t mark)
{
	if (r->full) {
		r->len = mark;
		r->buf[r->len] = '\0';
	}
}

void jrec_begin(struct jrec *r, char *buf, size_t size, const char *type)
{
	r->buf = buf;
	r->size = size;
	r->len = 0;
	r->full = false;
	if (size)
		buf[0] = '\0';
	put(r, "@@ {\"type\":", 11);
	put_escaped(r, type);
}

void jrec_str(struct jrec *r, const char *key, const char *val)
{
	size_t mark = field(r, key);

	put_escaped(r, val ? val : "");
	finish_field(r, mark);
}

void jrec_u64(struct jrec *r, const char *key, uint64_t val)
{
	char num[24];
	size_t mark = field(r, key);

	put(r, num, fmt_u64(num, val));
	finish_field(r, mark);
}

void jrec_i64(struct jrec *r, const char *key, int64_t val)
{
	jrec_fixed(r, key, val, 0);
}

void jrec_bool(struct jrec *r, const char *key, bool val)
{
	size_t mark = field(r, key);

	put(r, val ? "true" : "false", val ? 4 : 5);
	finish_field(r, mark);
}

void jrec_fixed(struct jrec *r, const char *key, int64_t val, unsigned decimals)
{
	char num[48];
	size_t mark = field(r, key);

	put(r, num, fmt_fixed(num, val, decimals));
	finish_field(r, mark);
}

void jrec_fixed_array(struct jrec *r, const char *key, const int64_t *vals, size_t n,
		      unsigned decimals)
{
	char num[48];
	size_t mark = field(r, key);

	put(r, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(r, ",", 1);
		put(r, num, fmt_fixed(num, vals[i], decimals));
	}
	put(r, "]", 1);
	finish_field(r, mark);
}

const char *jrec_end(struct jrec *r)
{
	const char *tail = r->full ? JREC_TAIL : "}";
	size_t n = cstrlen(tail);

	if (r->len + n < r->size) {
		for (size_t i = 0; i < n; i++)
			r->buf[r->len++] = tail[i];
		r->buf[r->len] = '\0';
	}
	return r->buf;
}
