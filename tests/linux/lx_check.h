/*
 * lx_check.h: the lines every tests/linux/ test program prints, one
 * "ok WHAT" or "FAIL WHAT" per check and the summary "NAME: P passed, F
 * failed" (the kernel's linux suite, the boots' expectations in
 * tests/qemu/boots.conf and tests/sh/linux-abi.sh read them).  Each program
 * is one file, so the counters are that file's own.
 */
#ifndef TESTS_LINUX_LX_CHECK_H
#define TESTS_LINUX_LX_CHECK_H

#include <stdio.h>

static int failed, passed;

/* Flushed, so that a child forked after it does not print the line again. */
static inline void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok" : "FAIL", what);
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/* Prints NAME's summary line; the exit status: 0 when every check passed. */
static inline int summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, passed, failed);
	return failed ? 1 : 0;
}

#endif
