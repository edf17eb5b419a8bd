/*
 * Allocation-failure walks (/proc/self/fail-nth, as Linux 4.13+): for each
 * path, N = 1, 2, 3, ... until the call succeeds.  Every step runs in a
 * fresh child that arms fail-nth = N and makes the call; the parent (never
 * armed) checks how it ended and that the free-page count is back where it
 * was once the child is reaped.  A clean failure is ENOMEM or EAGAIN from
 * the call, or the child killed because a page fault of its own could not
 * get its page (as Linux's VM_FAULT_OOM kills); anything else fails.
 * There is no pipe(2) in this kernel, so no pipe walk.
 */
#include "kernel/user/lib/ulib.h"

#define MAX_N	     400
#define EXIT_CLEAN   100 /* + errno */
#define EXIT_UNCLEAN 1
#define __NR_test    __NR_aslrbench_test

static int failures;

static long free_pages(void)
{
	return syscall2(__NR_test, 4, 0);
}

static long wait_child(long pid)
{
	int status = 0;

	if (pid < 0)
		return pid;
	if (pid == 0)
		exit(0);
	wait4((int)pid, &status, 0, 0);
	return 0;
}

static long op_fork(void)
{
	return wait_child(fork());
}

static long op_spawn(void)
{
	return wait_child(spawn("t_nop", 0));
}

static long op_execve(void)
{
	char *argv[] = {"t_nop", 0};

	return syscall3(__NR_execve, "t_nop", argv, 0); /* on success t_nop exits 0 */
}

static long op_mmap(void)
{
	long m = mmap_anon(3 * 4096, 3);

	if (m < 0)
		return m;
	for (int i = 0; i < 3; i++)
		((volatile char *)m)[i * 4096] = 1;
	return munmap((void *)m, 3 * 4096);
}

static long op_brk(void)
{
	char *b = brk(0), *e = brk(b + 3 * 4096);

	if (e != b + 3 * 4096)
		return -ENOMEM; /* brk reports failure by not moving */
	for (int i = 0; i < 3; i++)
		((volatile char *)b)[i * 4096] = 1;
	brk(b);
	return 0;
}

static long op_open(const char *path)
{
	long fd = open(path, 0);

	if (fd < 0)
		return fd;
	return close((int)fd);
}

static long op_open_stat(void)
{
	return op_open("/proc/self/stat");
}

static long op_open_maps(void)
{
	return op_open("/proc/self/maps");
}

/* One step: a child arms fail-nth = n and makes the call. */
static int step(long (*op)(void), unsigned n, long *pages_lost)
{
	long before = free_pages(), pid, rc;
	int status = 0;

	pid = fork();
	if (pid == 0) {
		char num[16];
		long fd = open("/proc/self/fail-nth", 1);
		int len = snprintf(num, sizeof(num), "%u", n);

		if (fd < 0 || write((int)fd, num, (size_t)len) != len)
			exit(2);
		rc = op();
		if (rc == 0)
			exit(0);
		exit(rc == -ENOMEM || rc == -EAGAIN ? EXIT_CLEAN + (int)-rc : EXIT_UNCLEAN);
	}
	if (pid < 0)
		return -1;
	wait4((int)pid, &status, 0, 0);
	/*
	 * A child killed by an injected fault (a copy-on-write fault after its
	 * fork, say) leaves its own child behind: as subreaper we get it, and
	 * reap it before counting.
	 */
	while (wait4(-1, &(int){0}, 0, 0) > 0)
		;
	*pages_lost = before - free_pages();
	return status;
}

static void walk(const char *name, long (*op)(void))
{
	unsigned n, enomem = 0, eagain = 0, killed = 0;
	long lost = 0;

	for (n = 1; n <= MAX_N; n++) {
		int st = step(op, n, &lost);

		if (lost) {
			printf("t_failnth: FAIL: %s N=%u: %ld pages not given back\n", name, n,
			       lost);
			failures++;
			return;
		}
		if (st == 0)
			break;
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_CLEAN + ENOMEM)
			enomem++;
		else if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_CLEAN + EAGAIN)
			eagain++;
		else if (WIFSIGNALED(st))
			killed++;
		else {
			printf("t_failnth: FAIL: %s N=%u: status 0x%x (not a clean failure)\n",
			       name, n, st);
			failures++;
			return;
		}
	}
	if (n > MAX_N) {
		printf("t_failnth: FAIL: %s did not succeed within N=%d\n", name, MAX_N);
		failures++;
		return;
	}
	printf("t_failnth: %s: N=1..%u failed cleanly (%u ENOMEM, %u EAGAIN, %u killed in a "
	       "page fault), N=%u succeeded, 0 pages leaked\n",
	       name, n - 1, enomem, eagain, killed, n);
}

/* The file itself, as Linux: a write arms, a read shows what is left, 0 once injected. */
static void semantics(void)
{
	char buf[16];
	long fd = open("/proc/self/fail-nth", 2), rc;

	if (fd < 0 || write((int)fd, "1", 1) != 1) {
		printf("t_failnth: FAIL: cannot arm /proc/self/fail-nth (%ld)\n", fd);
		failures++;
		return;
	}
	rc = open("/proc/self/stat", 0);
	if (rc != -ENOMEM) {
		printf("t_failnth: FAIL: open with fail-nth=1 gave %ld, not -ENOMEM\n", rc);
		failures++;
	}
	if (read_file("/proc/self/fail-nth", buf, sizeof(buf)) < 0 || strcmp(buf, "0\n")) {
		printf("t_failnth: FAIL: fail-nth after the injection reads '%s', not 0\n", buf);
		failures++;
	}
	if (write((int)fd, "x", 1) != -EINVAL || write((int)fd, "4294967296", 10) != -34) {
		printf("t_failnth: FAIL: a bad number was accepted\n");
		failures++;
	}
	close((int)fd);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	syscall2(__NR_prctl, 36, 1); /* PR_SET_CHILD_SUBREAPER: orphans of a step come here */
	semantics();
	walk("fork", op_fork);
	walk("spawn", op_spawn);
	walk("execve", op_execve);
	walk("mmap+touch", op_mmap);
	walk("brk+touch", op_brk);
	walk("open /proc/self/stat", op_open_stat);
	walk("open /proc/self/maps", op_open_maps);
	return failures ? 1 : 0;
}
