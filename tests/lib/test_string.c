/*
 * Host unit test of the kernel's kernel/lib/string.c and clear_page/copy_page
 * (kernel/arch/clear_page.c), the very files the kernel links: compiled with
 * the kernel's freestanding flags and the string functions renamed k_*
 * (tests/tests.mk), so libc's stay out of the way.  Every size 0..300 at
 * every alignment of source and destination, guard bytes on both sides;
 * memmove over every overlap in both directions; the direction flag clear
 * after a backward memmove.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define memcpy	k_memcpy
#define memmove k_memmove
#define memset	k_memset
#define memcmp	k_memcmp
#define strlen	k_strlen
#define strnlen k_strnlen
#define strcmp	k_strcmp
#define strncmp k_strncmp
#define strlcpy k_strlcpy
#define strstr	k_strstr
#include "kernel/lib/string.h"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strlcpy
#undef strstr
#include "kernel/arch/page.h"
#include "tests/lib/tap_check.h"

#define MAX_N  300
#define ALIGNS 16
#define GUARD  64
#define BUF    (GUARD + ALIGNS + MAX_N + GUARD)

/* A pattern no byte loop or string instruction produces by accident. */
static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 131 + i * 7 + (i >> 8) * 13 + 1);
}

static _Alignas(64) unsigned char src[BUF], dst[BUF], want[BUF];

START_TEST(memcpy_sizes_alignments)
{
	for (size_t n = 0; n <= MAX_N; n++)
		for (int sa = 0; sa < ALIGNS; sa++)
			for (int da = 0; da < ALIGNS; da++) {
				unsigned char *s = src + GUARD + sa, *d = dst + GUARD + da;

				fill(src, BUF, (unsigned)(n + sa));
				fill(dst, BUF, (unsigned)(n * 3 + da + 5));
				memcpy(want, dst, BUF);
				memcpy(want + GUARD + da, s, n);
				ck_assert_ptr_eq(k_memcpy(d, s, n), d);
				if (memcmp(dst, want, BUF))
					ck_abort_msg("memcpy n=%zu src+%d dst+%d", n, sa, da);
			}
}
END_TEST

START_TEST(memset_sizes_alignments)
{
	static const int values[] = {0, 0xff, 0x5a, 0x1a5, -1};

	for (size_t n = 0; n <= MAX_N; n++)
		for (int da = 0; da < ALIGNS; da++)
			for (unsigned v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
				unsigned char *d = dst + GUARD + da;

				fill(dst, BUF, (unsigned)(n + da + v));
				memcpy(want, dst, BUF);
				memset(want + GUARD + da, values[v], n);
				ck_assert_ptr_eq(k_memset(d, values[v], n), d);
				if (memcmp(dst, want, BUF))
					ck_abort_msg("memset n=%zu dst+%d c=%d", n, da, values[v]);
			}
}
END_TEST

static unsigned long rflags(void)
{
	unsigned long f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

/*
 * Source and destination inside one buffer, every distance from -(n+2) to
 * n+2 (both directions of overlap, touching, and apart): the reference is a
 * copy through a separate buffer, which is what memmove promises.
 */
START_TEST(memmove_overlap_both_directions)
{
	static unsigned char buf[3 * MAX_N + 2 * GUARD], ref[sizeof(buf)], tmp[MAX_N];

	for (size_t n = 0; n <= MAX_N; n++)
		for (long delta = -(long)n - 2; delta <= (long)n + 2; delta++)
			for (int a = 0; a < 4; a++) {
				size_t so = GUARD + MAX_N + (size_t)a,
				       doff = (size_t)((long)so + delta);
				void *r;

				fill(buf, sizeof(buf), (unsigned)(n + (size_t)a + (size_t)delta));
				memcpy(ref, buf, sizeof(buf));
				memcpy(tmp, ref + so, n);
				memcpy(ref + doff, tmp, n);
				r = k_memmove(buf + doff, buf + so, n);
				ck_assert_ptr_eq(r, buf + doff);
				if (memcmp(buf, ref, sizeof(buf)))
					ck_abort_msg("memmove n=%zu delta=%ld align=%d", n, delta,
						     a);
				if (rflags() & 0x400)
					ck_abort_msg("direction flag left set: n=%zu delta=%ld", n,
						     delta);
			}
}
END_TEST

START_TEST(memmove_disjoint_sizes_alignments)
{
	for (size_t n = 0; n <= MAX_N; n++)
		for (int sa = 0; sa < ALIGNS; sa++)
			for (int da = 0; da < ALIGNS; da += 3) {
				unsigned char *s = src + GUARD + sa, *d = dst + GUARD + da;

				fill(src, BUF, (unsigned)(n + sa + 11));
				fill(dst, BUF, (unsigned)(n + da + 17));
				memcpy(want, dst, BUF);
				memcpy(want + GUARD + da, s, n);
				ck_assert_ptr_eq(k_memmove(d, s, n), d);
				if (memcmp(dst, want, BUF))
					ck_abort_msg("memmove n=%zu src+%d dst+%d", n, sa, da);
			}
}
END_TEST

/* Three pages: the middle one is the target, its neighbours the guards. */
START_TEST(clear_and_copy_page)
{
	unsigned char *a = aligned_alloc(4096, 3 * 4096), *b = aligned_alloc(4096, 3 * 4096);
	unsigned char *ra = malloc(3 * 4096);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(ra);
	fill(a, 3 * 4096, 3);
	memcpy(ra, a, 3 * 4096);
	memset(ra + 4096, 0, 4096);
	clear_page(a + 4096);
	ck_assert_int_eq(memcmp(a, ra, 3 * 4096), 0);
	fill(a, 3 * 4096, 9);
	fill(b, 3 * 4096, 21);
	memcpy(ra, b, 3 * 4096);
	memcpy(ra + 4096, a + 4096, 4096);
	copy_page(b + 4096, a + 4096);
	ck_assert_int_eq(memcmp(b, ra, 3 * 4096), 0);
	free(a);
	free(b);
	free(ra);
}
END_TEST

START_TEST(strings)
{
	char out[8];

	ck_assert_uint_eq(k_strlen(""), 0);
	ck_assert_uint_eq(k_strlen("abc"), 3);
	ck_assert_uint_eq(k_strnlen("abcdef", 4), 4);
	ck_assert_int_lt(k_strcmp("abc", "abd"), 0);
	ck_assert_int_gt(k_strcmp("\xff", "a"), 0);
	ck_assert_int_eq(k_strncmp("abcx", "abcy", 3), 0);
	ck_assert_int_lt(k_memcmp("ab\x01", "ab\xff", 3), 0);
	ck_assert_uint_eq(k_strlcpy(out, "abcdefghij", sizeof(out)), 10);
	ck_assert_str_eq(out, "abcdefg");
	ck_assert_str_eq(k_strstr("hello world", "o w"), "o world");
	ck_assert_ptr_null(k_strstr("hello", "xyz"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("string");
	TCase *tc = tcase_create("string");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, memcpy_sizes_alignments);
	tcase_add_test(tc, memset_sizes_alignments);
	tcase_add_test(tc, memmove_overlap_both_directions);
	tcase_add_test(tc, memmove_disjoint_sizes_alignments);
	tcase_add_test(tc, clear_and_copy_page);
	tcase_add_test(tc, strings);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
