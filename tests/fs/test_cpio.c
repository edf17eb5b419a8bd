/*
 * Host test of the initramfs parser (kernel/fs/cpio.c, linked unchanged):
 * good archives give every entry; bad ones (truncated at every byte, each
 * header byte corrupted, '..' paths, huge sizes, names without NUL, data
 * after TRAILER!!!) give exactly one error line naming the entry, and the
 * entries before the fault are the ones handed out.  Built with ASan and
 * UBSan by tests/tests.mk, so a read past the buffer fails the test.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fs/cpio.h"
#include "tests/lib/tap_check.h"

static char arch[8192];
static int seen;
static char names[16][64];

static int collect(void *ctx, const struct cpio_entry *e)
{
	(void)ctx;
	if (seen < 16)
		snprintf(names[seen], sizeof(names[0]), "%s", e->name);
	seen++;
	/* touch every byte the parser hands out: ASan catches an overrun */
	volatile uint8_t sink = 0;
	for (uint32_t i = 0; i < e->size; i++)
		sink ^= e->data[i];
	(void)sink;
	return 0;
}

static size_t put(size_t off, const char *name, uint32_t mode, const char *data, uint32_t size)
{
	size_t nlen = strlen(name) + 1;
	char hdr[111];

	snprintf(hdr, sizeof(hdr), "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x", 7,
		 mode, 0, 0, 1, 0, size, 0, 0, 0, 0, (unsigned)nlen, 0);
	memcpy(arch + off, hdr, 110);
	off += 110;
	memcpy(arch + off, name, nlen);
	off = (off + nlen + 3) & ~(size_t)3;
	if (data)
		memcpy(arch + off, data, size);
	return (off + size + 3) & ~(size_t)3;
}

static size_t good(void)
{
	size_t n;

	memset(arch, 0, sizeof(arch));
	n = put(0, "bin", 040755, 0, 0);
	n = put(n, "bin/hello", 0100755, "hello world", 11);
	n = put(n, "bin/ln", 0120777, "hello", 5);
	return put(n, "TRAILER!!!", 0, 0, 0);
}

static long parse(size_t len, char *err)
{
	uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees any overrun */
	long rc;

	memcpy(copy, arch, len);
	seen = 0;
	rc = cpio_parse(copy, len, collect, 0, err, 200);
	free(copy);
	return rc;
}

START_TEST(good_archive)
{
	char err[200];
	size_t n = good();

	ck_assert_int_eq(parse(n, err), 3);
	ck_assert_str_eq(names[1], "bin/hello");
	ck_assert_str_eq(err, "");
	/* zero padding to a block after the trailer is fine */
	ck_assert_int_eq(parse(n + 512, err), 3);
	ck_assert_int_eq(parse(0, err), 0);
}
END_TEST

START_TEST(truncated_everywhere)
{
	char err[200];
	size_t n = good();

	for (size_t cut = 1; cut < n - 4; cut++) {
		long rc = parse(cut, err);

		ck_assert_msg(rc == -1, "cut at %zu: rc %ld", cut, rc);
		ck_assert_msg(!strncmp(err, "initramfs: entry ", 17), "cut at %zu: '%s'", cut, err);
		ck_assert_msg(!strchr(err, '\n'), "one line");
	}
}
END_TEST

START_TEST(corrupt_every_header_byte)
{
	char err[200];
	size_t n = good();

	for (size_t i = 0; i < 110; i++) {
		for (int v = 0; v < 256; v += 17) {
			good();
			arch[110 + 4 + i] ^= (char)v; /* the second entry's header */
			(void)parse(n, err);
			/* any outcome but a crash is allowed; an error names an entry */
			ck_assert(!err[0] || !strncmp(err, "initramfs: entry ", 17));
		}
	}
}
END_TEST

START_TEST(bad_inputs)
{
	char err[200];
	size_t n;

	n = put(0, "a/../b", 0100644, "x", 1);
	n = put(n, "TRAILER!!!", 0, 0, 0);
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "'a/../b'"));
	ck_assert_ptr_nonnull(strstr(err, ".."));
	ck_assert_int_eq(seen, 0);

	n = put(0, "ok", 0100644, "x", 1);
	n = put(n, "big", 0100644, 0, 0);
	memcpy(arch + 116 + 54, "ffffffff", 8); /* second header's filesize */
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "'big'"));
	ck_assert_int_eq(seen, 1);

	n = put(0, "nonul", 0100644, 0, 0);
	memcpy(arch + 94, "00000005", 8);
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "NUL"));

	n = put(0, "x", 0100644, 0, 0);
	memcpy(arch + 94, "00010000", 8); /* name size above PATH_MAX */
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "PATH_MAX"));

	n = put(0, "TRAILER!!!", 0, 0, 0);
	n = put(n, "late", 0100644, "x", 1);
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "TRAILER"));
	ck_assert_int_eq(seen, 0);

	n = put(0, "notrailer", 0100644, "x", 1);
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_int_eq(seen, 1);

	memcpy(arch, "07070Z", 6);
	ck_assert_int_eq(parse(n, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "magic"));
}
END_TEST

/* The callback's error stops the parse and is named too. */
static int refuse(void *ctx, const struct cpio_entry *e)
{
	(void)ctx;
	return strcmp(e->name, "no") ? 0 : -28; /* -ENOSPC */
}

START_TEST(callback_error)
{
	char err[200];
	size_t n = put(0, "yes", 0100644, 0, 0);

	n = put(n, "no", 0100644, 0, 0);
	n = put(n, "TRAILER!!!", 0, 0, 0);
	ck_assert_int_eq(cpio_parse((uint8_t *)arch, n, refuse, 0, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "'no'"));
	ck_assert_ptr_nonnull(strstr(err, "ENOSPC"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpio");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, good_archive);
	tcase_add_test(tc, truncated_everywhere);
	tcase_add_test(tc, corrupt_every_header_byte);
	tcase_add_test(tc, bad_inputs);
	tcase_add_test(tc, callback_error);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
