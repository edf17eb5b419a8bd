/*
 * Host unit test of pid allocation (kernel/task/pidmap.c, the file the
 * kernel links): pids in increasing order from 1, the ones in use skipped,
 * the search past PID_MAX starting again at RESERVED_PIDS (Linux 2.6.29's
 * alloc_pidmap), a freed pid handed out again only when the search comes
 * round to it, and -1 when every pid the rules allow is in use.
 */
#include <check.h>
#include <string.h>

#include "kernel/task/pidmap.h"
#include "tests/lib/tap_check.h"

static uint64_t map[PID_MAX / 64];

START_TEST(test_increasing_and_skipping)
{
	memset(map, 0, sizeof(map));
	ck_assert_int_eq(pidmap_alloc(map, 0, PID_MAX), 1);
	ck_assert_int_eq(pidmap_alloc(map, 1, PID_MAX), 2);
	ck_assert_int_eq(pidmap_alloc(map, 0, PID_MAX), 3); /* 1 and 2 in use */
	for (int pid = 64; pid < 200; pid++)
		ck_assert_int_eq(pidmap_alloc(map, pid - 1, PID_MAX), pid);
	ck_assert_int_eq(pidmap_alloc(map, 60, PID_MAX), 61);
	ck_assert_int_eq(pidmap_alloc(map, 62, PID_MAX), 63);
	ck_assert_int_eq(pidmap_alloc(map, 63, PID_MAX), 200); /* 64..199 in use, across words */
	pidmap_free(map, 2);
	ck_assert_int_eq(pidmap_alloc(map, 200, PID_MAX), 201); /* no going back before the wrap */
	ck_assert_int_eq(pidmap_alloc(map, 1, PID_MAX), 2);
	pidmap_free(map, 0);
	pidmap_free(map, -5);
	pidmap_free(map, PID_MAX); /* out of range: nothing */
}
END_TEST

START_TEST(test_wrap_to_reserved)
{
	memset(map, 0, sizeof(map));
	ck_assert_int_eq(pidmap_alloc(map, PID_MAX - 2, PID_MAX), PID_MAX - 1);
	ck_assert_int_eq(pidmap_alloc(map, PID_MAX - 1, PID_MAX), RESERVED_PIDS);
	ck_assert_int_eq(pidmap_alloc(map, PID_MAX - 1, PID_MAX), RESERVED_PIDS + 1);
	/* a search that passes PID_MAX goes on from RESERVED_PIDS, not from 1 */
	ck_assert_int_eq(pidmap_alloc(map, PID_MAX - 1, PID_MAX), RESERVED_PIDS + 2);
	ck_assert_int_eq(pidmap_alloc(map, 5000, PID_MAX), 5001);
}
END_TEST

START_TEST(test_full)
{
	int n = 0;

	memset(map, 0, sizeof(map));
	for (int last = 0, pid; (pid = pidmap_alloc(map, last, PID_MAX)) > 0; last = pid)
		n++;
	ck_assert_int_eq(n, PID_MAX - 1); /* 1 .. PID_MAX - 1 */
	ck_assert_int_eq(pidmap_alloc(map, 10, PID_MAX), -1);
	pidmap_free(map, 100); /* below RESERVED_PIDS: not handed out after a wrap */
	ck_assert_int_eq(pidmap_alloc(map, PID_MAX - 1, PID_MAX), -1);
	ck_assert_int_eq(pidmap_alloc(map, 99, PID_MAX), 100); /* before the wrap it is */
	pidmap_free(map, 7000);
	ck_assert_int_eq(pidmap_alloc(map, 9000, PID_MAX), 7000); /* found after coming round */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pidmap");
	TCase *tc = tcase_create("pidmap");

	tcase_add_test(tc, test_increasing_and_skipping);
	tcase_add_test(tc, test_wrap_to_reserved);
	tcase_add_test(tc, test_full);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
