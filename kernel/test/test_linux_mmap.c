/*
 * File-backed mmap from ring 3: tests/linux/lx_mmap.c, built as static musl
 * and static glibc, must exit 0 (every check passed; its FAIL lines, if
 * any, are on the console).  tests/sh/linux-abi.sh proves each check on the
 * host Linux.
 */
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/test/ktest.h"

static enum ktest_result run_lx_mmap(struct ktest_ctx *t, char *name)
{
	char *argv[] = {name};
	int status = 0;
	long pid = spawn_prog(name, 1, argv), rc;

	if (pid < 0)
		return ktest_fail(t, "spawn %s: %ld", name, pid);
	rc = do_wait((int)pid, 0, &status, 0, 0);
	if (rc < 0 || status != W_EXITCODE(0))
		return ktest_fail(t, "%s: wait %ld, status 0x%x, want 0 (see its FAIL lines above)",
				  name, rc, status);
	return KTEST_PASS;
}

static enum ktest_result linux_mmap_musl(struct ktest_ctx *t)
{
	return run_lx_mmap(t, "lx_mmap_musl");
}
KTEST(linux_mmap_musl);

static enum ktest_result linux_mmap_glibc(struct ktest_ctx *t)
{
	return run_lx_mmap(t, "lx_mmap_glibc");
}
KTEST(linux_mmap_glibc);
