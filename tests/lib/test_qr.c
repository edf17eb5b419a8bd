/*
 * Host unit test of the QR encoder (common/qr.c) and the zlib compressor
 * (common/deflate.c), the files the kernel links.
 *
 * The encoder is checked against the standard's facts (every version's
 * blocks add up to its codewords, the capacities of its tables, the BCH
 * format and version words, the Reed-Solomon check bytes of a published
 * example) and then end to end: symbols of every version 1-20, both
 * levels, both modes, drawn as PGM images and read back by zbarimg
 * (zbar-tools), which must give the text back.  The compressor's streams
 * must inflate with zlib to the input.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "common/deflate.h"
#include "common/huffman.h"
#include "common/qr.h"
#include "common/qr_dict.h"
#include "tests/lib/tap_check.h"

static struct qr_code qr;

/* ---- the tables ---- */

START_TEST(blocks_fill_every_version)
{
	for (int v = 1; v <= QR_MAX_VERSION; v++)
		for (int e = QR_ECC_L; e <= QR_ECC_M; e++) {
			int ecc, ns, sl, nl;

			ck_assert(qr_blocks(v, e, &ecc, &ns, &sl, &nl));
			ck_assert_int_eq(ns * (sl + ecc) + nl * (sl + 1 + ecc),
					 qr_total_codewords(v));
		}
	ck_assert_int_eq(qr_total_codewords(1), 26);
	ck_assert_int_eq(qr_total_codewords(7), 196);
	ck_assert_int_eq(qr_total_codewords(20), 1085);
}
END_TEST

/* ISO/IEC 18004 table 7: alphanumeric capacities. */
START_TEST(alnum_capacities)
{
	ck_assert_uint_eq(qr_alnum_capacity(1, QR_ECC_M), 20);
	ck_assert_uint_eq(qr_alnum_capacity(1, QR_ECC_L), 25);
	ck_assert_uint_eq(qr_alnum_capacity(10, QR_ECC_M), 311);
	ck_assert_uint_eq(qr_alnum_capacity(20, QR_ECC_M), 970);
	ck_assert_uint_eq(qr_alnum_capacity(20, QR_ECC_L), 1249);
	ck_assert_uint_eq(qr_alnum_capacity(21, QR_ECC_M), 0);
}
END_TEST

START_TEST(format_and_version_words)
{
	ck_assert_uint_eq(qr_format_bits(QR_ECC_L, 4), 0x662f); /* 110011000101111 */
	ck_assert_uint_eq(qr_format_bits(QR_ECC_M, 0), 0x5412); /* data 0: the mask alone */
	ck_assert_uint_eq(qr_version_bits(7), 0x07c94);
	ck_assert_uint_eq(qr_version_bits(20), 0x149a6);
}
END_TEST

/* "HELLO WORLD" at 1-M: the data codewords and their ten check bytes. */
START_TEST(reed_solomon_vector)
{
	static const uint8_t data[16] = {32, 91, 11,  120, 209, 114, 220, 77,
					 67, 64, 236, 17,  236, 17,  236, 17};
	static const uint8_t want[10] = {196, 35, 39, 119, 235, 215, 231, 226, 93, 23};
	uint8_t ecc[10];

	qr_rs_ecc(data, 16, 10, ecc);
	ck_assert_mem_eq(ecc, want, 10);
}
END_TEST

START_TEST(refusals)
{
	static char big[4200];

	memset(big, 'A', sizeof(big));
	ck_assert(!qr_encode(big, 971, QR_ECC_M, 20, &qr));
	ck_assert(qr_encode(big, 970, QR_ECC_M, 20, &qr));
	ck_assert_int_eq(qr.version, 20);
	ck_assert(!qr_encode(big, sizeof(big), QR_ECC_L, 20, &qr));
	ck_assert(!qr_encode("A", 1, QR_ECC_M, 0, &qr));
	ck_assert(!qr_encode("A", 1, QR_ECC_M, 21, &qr));
	ck_assert(!qr_encode("A", 1, (enum qr_ecc)7, 5, &qr));
	ck_assert(!qr_encode(NULL, 3, QR_ECC_M, 5, &qr));
	ck_assert(qr_encode("", 0, QR_ECC_M, 1, &qr));
	ck_assert(qr_is_alnum("AB1 2/3 $%*+-./:", 16));
	ck_assert(!qr_is_alnum("ab", 2));
}
END_TEST

/* ---- read back by zbarimg ---- */

/* The symbol as a PGM, 4 pixels a module, a 4-module quiet zone; zbarimg's text. */
static char *zbar_read(const struct qr_code *q, char *out, size_t cap)
{
	char path[] = "/tmp/test_qr_XXXXXX", cmd[256];
	int fd = mkstemp(path), px = 4, side = (q->size + 8) * px;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	size_t n;

	ck_assert_ptr_nonnull(f);
	fprintf(f, "P5\n%d %d\n255\n", side, side);
	for (int y = 0; y < side; y++)
		for (int x = 0; x < side; x++)
			fputc(qr_module(q, x / px - 4, y / px - 4) ? 0 : 255, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "zbarimg --raw -q -Sdisable -Sqrcode.enable %s 2>/dev/null",
		 path);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(out, 1, cap - 1, f);
	pclose(f);
	unlink(path);
	out[n] = '\0';
	if (n && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return out;
}

static void round_trip(const char *text, enum qr_ecc ecc, int want_version)
{
	static char got[8192];

	ck_assert_msg(qr_encode(text, strlen(text), ecc, 20, &qr), "encode %zu chars",
		      strlen(text));
	ck_assert_int_eq(qr.version, want_version);
	ck_assert_str_eq(zbar_read(&qr, got, sizeof(got)), text);
}

/* Alphanumeric text that just fills each version: version v, level ecc. */
START_TEST(zbar_reads_every_version_alnum)
{
	static char text[1300];
	static const char set[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

	for (int v = 1; v <= QR_MAX_VERSION; v++)
		for (int e = QR_ECC_L; e <= QR_ECC_M; e++) {
			size_t n = qr_alnum_capacity(v, e);

			for (size_t i = 0; i < n; i++)
				text[i] = set[(i * 7 + (size_t)v) % 45];
			text[0] =
				'A'; /* no leading space: zbar keeps it, the shell would not care */
			text[n] = '\0';
			round_trip(text, e, v);
		}
}
END_TEST

/* Byte mode (lower case, braces, quotes): a record line, growing. */
START_TEST(zbar_reads_byte_mode)
{
	static char text[700];
	static const char rec[] = "{\"type\":\"boot\",\"platform\":\"aslrbench\",\"hz\":1000} ";
	int last = 0;

	for (size_t n = 1; n < 640; n += 37) {
		for (size_t i = 0; i < n; i++)
			text[i] = rec[i % (sizeof(rec) - 1)];
		text[n] = '\0';
		ck_assert(qr_encode(text, n, QR_ECC_M, 20, &qr));
		ck_assert_int_ge(qr.version, last);
		last = qr.version;
		round_trip(text, QR_ECC_M, qr.version);
	}
	ck_assert_int_ge(last, 17);
}
END_TEST

/* ---- the compressor ---- */

static void inflate_check(const uint8_t *in, size_t n)
{
	static uint8_t z[300000], back[300000];
	static struct deflate_work w;
	size_t zn = zlib_compress(in, 0, n, z, sizeof(z), &w);
	uLongf bn = sizeof(back);

	ck_assert_uint_gt(zn, 0);
	ck_assert_int_eq(uncompress(back, &bn, z, zn), Z_OK);
	ck_assert_uint_eq(bn, n);
	ck_assert(n == 0 || !memcmp(back, in, n));
	ck_assert_uint_eq(deflate_crc32(in, n), crc32(0, in, (uInt)n));
}

START_TEST(deflate_inflates_back)
{
	static uint8_t buf[200000];
	uint32_t x = 12345;
	size_t n = 0;

	inflate_check(buf, 0);
	inflate_check((const uint8_t *)"a", 1);
	/* records-like text: repeated keys, changing numbers, longer than the window */
	while (n + 200 < sizeof(buf))
		n += (size_t)sprintf((char *)buf + n,
				     "@@ {\"type\":\"bench\",\"suite\":\"rng\",\"median\":%u,"
				     "\"p99\":%u}\n",
				     (unsigned)(n * 7 % 1000), (unsigned)(n % 77));
	inflate_check(buf, n);
	/* random bytes (no matches), and one byte repeated (the longest matches) */
	for (size_t i = 0; i < 70000; i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (uint8_t)(x >> 16);
	}
	inflate_check(buf, 70000);
	memset(buf, 'z', 70000);
	inflate_check(buf, 70000);
}
END_TEST

START_TEST(deflate_short_buffer)
{
	static uint8_t out[128];
	static struct deflate_work w;
	static const char text[] = "a text of some length that cannot fit in eight bytes at all";

	ck_assert_uint_eq(zlib_compress((const uint8_t *)text, 0, sizeof(text), out, 8, &w), 0);
	ck_assert_uint_eq(zlib_compress(NULL, 0, 5, out, sizeof(out), &w), 0);
	ck_assert_uint_gt(
		zlib_compress((const uint8_t *)text, 0, sizeof(text), out, sizeof(out), &w), 0);
}
END_TEST

/* Records compress about five to one: the QR screen's premise. */
START_TEST(deflate_ratio_on_records)
{
	static uint8_t buf[40000], z[40000];
	static struct deflate_work w;
	size_t n = 0;

	for (int i = 0; n + 300 < sizeof(buf); i++)
		n += (size_t)sprintf(
			(char *)buf + n,
			"@@ {\"type\":\"bench\",\"suite\":\"rng\",\"rng\":\"md4-2.6.30\","
			"\"samples\":200,\"median\":%d.%d,\"mean\":%d.0,\"min\":%d}\n",
			900 + i % 70, i % 10, 910 + i % 50, 500 + i % 30);
	ck_assert_uint_lt(zlib_compress(buf, 0, n, z, sizeof(z), &w) * 4, n);
}
END_TEST

/* With the QR screen's dictionary: zlib inflates it given the same bytes, and it pays. */
START_TEST(deflate_preset_dictionary)
{
	static uint8_t buf[4096], z[4096], back[4096];
	static struct deflate_work w;
	static const char rec[] =
		"@@ {\"type\":\"summary\",\"passed\":3,\"failed\":0,\"skipped\":0,\"status\":0}\n"
		"@@ {\"type\":\"boot\",\"platform\":\"aslrbench\",\"version\":\"v1.2\","
		"\"kernel_sha256\":\"81c675499d0bdeaf\",\"cpu_vendor\":\"AuthenticAMD\"}\n";
	size_t d = sizeof(qr_dict) - 1, n = d + sizeof(rec) - 1, zd, z0;
	z_stream s = {0};

	memcpy(buf, qr_dict, d);
	memcpy(buf + d, rec, sizeof(rec) - 1);
	zd = zlib_compress(buf, d, n, z, sizeof(z), &w);
	ck_assert_uint_gt(zd, 0);
	z0 = zlib_compress(buf + d, 0, n - d, back, sizeof(back), &w);
	ck_assert_uint_lt(zd, z0);
	ck_assert_int_eq(inflateInit(&s), Z_OK);
	s.next_in = z;
	s.avail_in = (uInt)zd;
	s.next_out = back;
	s.avail_out = sizeof(back);
	ck_assert_int_eq(inflate(&s, Z_FINISH), Z_NEED_DICT);
	ck_assert_int_eq(inflateSetDictionary(&s, (const Bytef *)qr_dict, (uInt)d), Z_OK);
	ck_assert_int_eq(inflate(&s, Z_FINISH), Z_STREAM_END);
	ck_assert_uint_eq(s.total_out, n - d);
	ck_assert_mem_eq(back, rec, n - d);
	inflateEnd(&s);
	/* a dictionary longer than the text, or than the window: refused */
	ck_assert_uint_eq(zlib_compress(buf, n + 1, n, z, sizeof(z), &w), 0);
}
END_TEST

/* Fibonacci counts make the deepest trees: the limit must hold and the code stay complete. */
START_TEST(huffman_limit_and_kraft)
{
	uint32_t f[HUFF_MAX_SYMS];
	uint8_t len[HUFF_MAX_SYMS];
	uint16_t code[HUFF_MAX_SYMS];

	for (int limit = 7; limit <= 15; limit += 8) {
		int n = limit == 7 ? 19 : 286;
		uint64_t kraft = 0;

		f[0] = f[1] = 1;
		for (int i = 2; i < n; i++)
			f[i] = i < 40 ? f[i - 1] + f[i - 2] : 3;
		ck_assert(huff_lengths(f, n, limit, len));
		for (int i = 0; i < n; i++) {
			ck_assert_int_ge(len[i], 1);
			ck_assert_int_le(len[i], limit);
			kraft += 1ull << (limit - len[i]);
		}
		ck_assert_uint_eq(kraft, 1ull << limit);
		huff_codes(len, n, code);
		for (int i = 0; i < n; i++) /* prefix-free */
			for (int j = 0; j < n; j++)
				if (i != j && len[i] <= len[j])
					ck_assert_uint_ne(code[j] >> (len[j] - len[i]), code[i]);
	}
	/* one symbol used: two get a length, so the code is complete */
	memset(f, 0, sizeof(f));
	f[5] = 9;
	ck_assert(huff_lengths(f, 30, 15, len));
	ck_assert_int_eq(len[5], 1);
	ck_assert_int_eq(len[0], 1);
	ck_assert(!huff_lengths(f, 1, 15, len));
	ck_assert(!huff_lengths(f, 30, 16, len));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("qr");
	TCase *t = tcase_create("qr");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, blocks_fill_every_version);
	tcase_add_test(t, alnum_capacities);
	tcase_add_test(t, format_and_version_words);
	tcase_add_test(t, reed_solomon_vector);
	tcase_add_test(t, refusals);
	tcase_add_test(t, zbar_reads_every_version_alnum);
	tcase_add_test(t, zbar_reads_byte_mode);
	tcase_add_test(t, deflate_inflates_back);
	tcase_add_test(t, deflate_short_buffer);
	tcase_add_test(t, deflate_ratio_on_records);
	tcase_add_test(t, deflate_preset_dictionary);
	tcase_add_test(t, huffman_limit_and_kraft);
	suite_add_tcase(s, t);
	return tap_run_suite(s);
}
