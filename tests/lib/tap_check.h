/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap_check.h - run a Check suite and report TAP on stdout
 * ("ok N - file:tcase:test: Passed" / "not ok N - ...", then "1..N"),
 * which is what the lead's test driver counts.  Exit status 1 on failure.
 */
#ifndef TESTS_LIB_TAP_CHECK_H
#define TESTS_LIB_TAP_CHECK_H

#include <check.h>
#include <stdlib.h>

static inline int tap_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	setenv("CK_TAP_LOG_FILE_NAME", "-", 1);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
