/*
 * fork tests, run by the in-kernel tests (kernel/test/test_process.c):
 *   t_fork cow         the child's writes (data, bss, heap, mmap, stack) stay its own
 *   t_fork exitcode    exit codes and wait4's ECHILD / WNOHANG come back as Linux's
 *   t_fork hold N      N children that sleep, so the kernel can inspect them
 *   t_fork bomb        fork until the table is full: -EAGAIN, nothing else
 *   t_fork oom         fork under a page floor until -ENOMEM
 *   t_fork leak N      N fork/exit/wait cycles
 * Exit status 0 means every check passed; a failure prints why.
 */
#include "userland/lib/aslrbench_user.h"

static int data_var = 7;
static int bss_var;

static int fail(const char *what, long got)
{
	printf("t_fork: FAIL: %s (got %ld)\n", what, got);
	return 1;
}

static int test_cow(void)
{
	volatile int stack_var = 11;
	int *heap = (void *)sys(__NR_brk, 0), status = 0;
	char *map = (char *)sys(__NR_mmap, 0, 8192, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long pid;

	if ((long)map < 0)
		return fail("mmap", (long)map);
	if ((void *)sys(__NR_brk, (char *)heap + 4096) != (char *)heap + 4096)
		return fail("brk", 0);
	*heap = 5;
	map[0] = 'p';
	bss_var = 3;
	pid = sys(__NR_fork);
	if (pid < 0)
		return fail("fork", pid);
	if (pid == 0) {
		if (data_var != 7 || bss_var != 3 || *heap != 5 || map[0] != 'p' || stack_var != 11)
			exit(10);
		data_var = 70;
		bss_var = 30;
		*heap = 50;
		map[0] = 'c';
		map[4096] = 'c';
		stack_var = 110;
		if (data_var != 70 || *heap != 50 || map[0] != 'c' || stack_var != 110)
			exit(11);
		exit(0);
	}
	if (sys(__NR_wait4, (int)pid, &status, 0, 0) != pid)
		return fail("wait4", pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return fail("child saw the wrong values", status);
	if (data_var != 7 || bss_var != 3 || *heap != 5 || map[0] != 'p' || map[4096] != 0 ||
	    stack_var != 11)
		return fail("the child's writes leaked into the parent", data_var);
	return 0;
}

static int test_exitcode(void)
{
	static const int codes[] = {0, 1, 42, 255};
	int status;

	for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		long pid = sys(__NR_fork);

		if (pid == 0)
			exit(codes[i]);
		if (pid < 0)
			return fail("fork", pid);
		if (sys(__NR_wait4, (int)pid, &status, 0, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != codes[i])
			return fail("exit code not returned", status);
	}
	if (sys(__NR_wait4, -1, &status, 0, 0) != -ECHILD)
		return fail("wait4 without children is not ECHILD", 0);
	long pid = sys(__NR_fork);

	if (pid == 0) {
		sleep_ms(100);
		exit(3);
	}
	if (sys(__NR_wait4, (int)pid, &status, WNOHANG, 0) != 0)
		return fail("WNOHANG on a running child did not return 0", 0);
	if (sys(__NR_wait4, (int)pid + 1000, &status, 0, 0) != -ECHILD)
		return fail("wait4 for a non-child is not ECHILD", 0);
	if (sys(__NR_wait4, (int)pid, &status, 0, 0) != pid || WEXITSTATUS(status) != 3)
		return fail("blocking wait4", status);
	if (sys(__NR_getppid) <= 0)
		return fail("getppid", sys(__NR_getppid));
	return 0;
}

/* Children that sleep, then the parent reaps them all. */
static int hold(int n, unsigned ms)
{
	int status;

	for (int i = 0; i < n; i++) {
		long pid = sys(__NR_fork);

		if (pid == 0) {
			sleep_ms(ms);
			exit(0);
		}
		if (pid < 0)
			return fail("fork", pid);
	}
	while (sys(__NR_wait4, -1, &status, 0, 0) > 0)
		;
	return 0;
}

/* Forks until fork fails; returns that error.  Children sleep, then exit. */
static long fork_until_failure(unsigned ms, int *made)
{
	int status;
	long err = 0;

	*made = 0;
	for (;;) {
		long pid = sys(__NR_fork);

		if (pid == 0) {
			sleep_ms(ms);
			exit(0);
		}
		if (pid < 0) {
			err = pid;
			break;
		}
		(*made)++;
	}
	while (sys(__NR_wait4, -1, &status, 0, 0) > 0)
		;
	return err;
}

static int test_bomb(void)
{
	int made;
	long err = fork_until_failure(300, &made);

	printf("t_fork: bomb: %d children, then %ld\n", made, err);
	return err == -EAGAIN ? 0 : fail("fork bomb did not end in -EAGAIN", err);
}

static int test_oom(void)
{
	int made;
	long err = fork_until_failure(300, &made);

	printf("t_fork: oom: %d children, then %ld\n", made, err);
	return err == -ENOMEM ? 0 : fail("fork under memory pressure did not end in -ENOMEM", err);
}

static int test_leak(long n)
{
	for (long i = 0; i < n; i++) {
		int status;
		long pid = sys(__NR_fork);

		if (pid == 0)
			exit((int)(i & 0x7f));
		if (pid < 0)
			return fail("fork", pid);
		if (sys(__NR_wait4, (int)pid, &status, 0, 0) != pid ||
		    WEXITSTATUS(status) != (i & 0x7f))
			return fail("wait4", status);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "cow"))
		return test_cow();
	if (argc >= 2 && !strcmp(argv[1], "exitcode"))
		return test_exitcode();
	if (argc >= 3 && !strcmp(argv[1], "hold"))
		return hold((int)atol(argv[2]), 300);
	if (argc >= 2 && !strcmp(argv[1], "bomb"))
		return test_bomb();
	if (argc >= 2 && !strcmp(argv[1], "oom"))
		return test_oom();
	if (argc >= 3 && !strcmp(argv[1], "leak"))
		return test_leak(atol(argv[2]));
	printf("usage: t_fork cow|exitcode|hold N|bomb|oom|leak N\n");
	return 2;
}
