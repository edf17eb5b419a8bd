/*
 * Host unit test of the kernel's printf formatter (kernel/lib/vsprintf.c,
 * the very file the kernel links), against the C library's snprintf: every
 * flag, width, precision and length a format may hold, and the arguments
 * after each one still read right (a flag it did not know once made it read
 * a number as the next %s's pointer).
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/lib/vsprintf.h"
#include "tests/lib/tap_check.h"

#define CMP(...)                                                                                   \
	do {                                                                                       \
		char want_[256], got_[256];                                                        \
		int wn_ = snprintf(want_, sizeof(want_), __VA_ARGS__);                             \
		int gn_ = ksnprintf(got_, sizeof(got_), __VA_ARGS__);                              \
		ck_assert_str_eq(got_, want_);                                                     \
		ck_assert_int_eq(gn_, wn_);                                                        \
	} while (0)

START_TEST(test_integers)
{
	static const long long v[] = {
		0, 1, -1, 42, -42, 255, 65535, 2147483647, -2147483647 - 1, 0x7fffffffffffffffLL};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int x = (int)v[i];

		CMP("[%d|%5d|%-5d|%05d|%+d|% d|%.3d|%8.3d|%-8.3d|%.0d]", x, x, x, x, x, x, x, x, x,
		    x);
		CMP("[%u|%x|%X|%o|%#x|%#X|%#o|%08x|%#010x|%.4x|%#.0x]", (unsigned)x, (unsigned)x,
		    (unsigned)x, (unsigned)x, (unsigned)x, (unsigned)x, (unsigned)x, (unsigned)x,
		    (unsigned)x, (unsigned)x, (unsigned)x);
		CMP("[%lld|%lx|%llu|%zu|%zx|%jd|%td|%20lld|%-20llx|%+lld]", v[i],
		    (unsigned long)v[i], (unsigned long long)v[i], (size_t)v[i], (size_t)v[i],
		    (intmax_t)v[i], (ptrdiff_t)v[i], v[i], (unsigned long long)v[i], v[i]);
		CMP("[%hd|%hu|%hx|%hhd|%hhu|%hhx]", (short)x, (unsigned short)x, (unsigned short)x,
		    (signed char)x, (unsigned char)x, (unsigned char)x);
	}
}
END_TEST

START_TEST(test_strings_and_stars)
{
	CMP("[%s|%10s|%-10s|%.2s|%10.2s|%-*s|%*s|%.*s|%c|%3c|%-3c|%%]", "abc", "abc", "abc", "abc",
	    "abc", 6, "ab", -6, "ab", 1, "xyz", 'q', 'r', 's');
	CMP("[%*d|%-*d|%.*d|%*.*x]", 7, 12, 7, 12, 4, 12, 8, 5, 0xbeefu);
	CMP("%#x then %s then %d", 0x10u, "after", 99); /* the arguments stay in step */
	CMP("%+5d %s % 5d %s %#o %s", 3, "a", 4, "b", 8u, "c");
	CMP("%.3s%s", "truncated", "-next");
}
END_TEST

START_TEST(test_truncation)
{
	char b[8];
	int n = ksnprintf(b, sizeof(b), "%s-%d", "abcdef", 12345);

	ck_assert_int_eq(n, 12); /* the would-be length, as snprintf */
	ck_assert_str_eq(b, "abcdef-");
	ck_assert_int_eq(ksnprintf(NULL, 0, "%x", 0xabcu), 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vsprintf");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_strings_and_stars);
	tcase_add_test(tc, test_truncation);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
