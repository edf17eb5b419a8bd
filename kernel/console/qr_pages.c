/*
 * Records to QR code texts: compress, cut, frame each chunk.
 *
 * Why deflate and base45: the records repeat their keys on every line, so
 * the zlib stream is about a tenth of the text, and base45 keeps every
 * code in alphanumeric mode (2 bytes in 3 characters of 5.5 bits: 8.25 bits
 * a byte, against byte mode's 8), which every phone reader shows as plain
 * text and zbarimg hands back unchanged, where binary byte-mode data gets
 * a character set guessed for it.  The summary and the boot record are
 * the stream's first lines, and with the preset dictionary
 * (common/qr_dict.h) they fit in the first code: it alone inflates to them.
 */
#include "common/deflate.h"
#include "common/qr_dict.h"
#include "kernel/console/qr_pages.h"
#include "kernel/lib/records.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

/* The header's widest form: "AB1 999/999 XXXXXXXX XXXXXXXX ". */
#define HEADER_MAX 29

#define DICT_LEN (sizeof(qr_dict) - 1)

static char text[sizeof(qr_dict) + RECORDS_BUF + 2 * 4096 + 128];
/* 200 version-20 codes: more is no longer worth photographing (qr_screen says so). */
static uint8_t zbuf[128 * 1024];
static struct deflate_work work;

static const char b45[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

static unsigned count_lines(const char *s, size_t n)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

bool qr_pages_build(int max_version, struct qr_pages *p)
{
	size_t cap;

	memset(p, 0, sizeof(*p));
	if (max_version < 1 || max_version > QR_MAX_VERSION)
		return false;
	p->max_version = max_version;
	cap = qr_alnum_capacity(max_version, QR_PAGES_ECC);
	if (cap < HEADER_MAX + 3)
		return false;
	p->chunk = (cap - HEADER_MAX) / 3 * 2;
	/* The dictionary right before the records: the compressor's window sees both. */
	memcpy(text, qr_dict, DICT_LEN);
	p->text_len = records_text(text + DICT_LEN, sizeof(text) - DICT_LEN);
	if (!p->text_len)
		return false;
	p->records = count_lines(text + DICT_LEN, p->text_len);
	p->zlen = zlib_compress((const uint8_t *)text, DICT_LEN, DICT_LEN + p->text_len, zbuf,
				sizeof(zbuf), &work);
	if (!p->zlen)
		return false;
	p->run = deflate_crc32(zbuf, p->zlen);
	if ((p->zlen + p->chunk - 1) / p->chunk > QR_PAGES_MAX)
		return false;
	p->count = (unsigned)((p->zlen + p->chunk - 1) / p->chunk);
	return true;
}

/* RFC 9285: two bytes as three characters, a last odd byte as two. */
static size_t base45(const uint8_t *in, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i + 1 < n; i += 2) {
		unsigned v = (unsigned)in[i] << 8 | in[i + 1];

		out[o++] = b45[v % 45];
		out[o++] = b45[v / 45 % 45];
		out[o++] = b45[v / 2025];
	}
	if (n % 2) {
		out[o++] = b45[in[n - 1] % 45];
		out[o++] = b45[in[n - 1] / 45];
	}
	return o;
}

size_t qr_page_text(const struct qr_pages *p, unsigned k, char *out, size_t cap)
{
	size_t off, n, len;
	int h;

	if (!p || !out || k < 1 || k > p->count)
		return 0;
	off = (size_t)(k - 1) * p->chunk;
	n = p->zlen - off < p->chunk ? p->zlen - off : p->chunk;
	h = ksnprintf(out, cap, "AB1 %u/%u %08X %08X ", k, p->count, p->run,
		      deflate_crc32(zbuf + off, n));
	if (h <= 0 || (size_t)h + (n + 1) / 2 * 3 + 1 > cap)
		return 0;
	len = (size_t)h + base45(zbuf + off, n, out + h);
	out[len] = '\0';
	return len;
}
