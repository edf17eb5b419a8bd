/* poll/select/waitid from real Linux programs (tests/linux/lx_poll.c as static musl and glibc). */
#include "kernel/task/process.h"
#include "kernel/test/ktest.h"

static long run(int argc, char **argv)
{
	int status = 0;
	long pid = do_spawn(argv[0], argc, argv), rc;

	if (pid < 0)
		return pid;
	rc = do_wait((int)pid, 0, &status, 0, 0);
	return rc < 0 ? rc : status;
}

static enum ktest_result linux_poll_musl(struct ktest_ctx *t)
{
	char *argv[] = {"lx_poll_musl"};
	long st = run(1, argv);

	return st == W_EXITCODE(0)
		       ? KTEST_PASS
		       : ktest_fail(t, "lx_poll_musl: status 0x%lx (FAIL lines above)", st);
}
KTEST(linux_poll_musl);

static enum ktest_result linux_poll_glibc(struct ktest_ctx *t)
{
	char *argv[] = {"lx_poll_glibc"};
	long st = run(1, argv);

	return st == W_EXITCODE(0)
		       ? KTEST_PASS
		       : ktest_fail(t, "lx_poll_glibc: status 0x%lx (FAIL lines above)", st);
}
KTEST(linux_poll_glibc);
