/*
 * Every pointer-taking system call, given a kernel address, an unmapped
 * user address, a non-canonical address and a read-only page where it
 * writes, must return -EFAULT (and the kernel must survive).
 */
#include "userland/lib/aslrbench_user.h"

static int failures;

static void expect(const char *what, long got)
{
	if (got != -EFAULT) {
		printf("t_efault: FAIL: %s returned %ld, not -EFAULT\n", what, got);
		failures++;
	}
}

int main(int argc, char **argv)
{
	static const char ro[64] = "read-only";
	const void *bad[] = {(void *)0xffffffff80001000ULL, (void *)0x1000,
			     (void *)0x0000800000000000ULL, (void *)0xfffffffffffff000ULL};
	char *argv_bad[] = {"t_efault", (char *)0x1000, 0};
	struct timespec ts = {0, 1000};
	int status;

	(void)argc;
	(void)argv;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const void *p = bad[i];

		expect("write", sys(__NR_write, 1, p, 16));
		expect("read", sys(__NR_read, 0, (void *)p, 16));
		expect("open", sys(__NR_open, p, 0));
		expect("getrandom", sys(__NR_getrandom, (void *)p, 16, 0));
		expect("nanosleep", sys(__NR_nanosleep, p, 0));
		expect("spawn name", spawn(p, 0));
		expect("spawn argv", spawn("/bin/t_efault", (char *const *)p));
		expect("clock_gettime", sys(__NR_clock_gettime, 1, p));
		expect("getresuid", sys(__NR_getresuid, p, p, p));
		expect("prctl(PR_GET_NAME)", sys(__NR_prctl, 16, p));
		expect("getdents_pids", sys(__NR_getdents_pids, p, 4));
		/* A child to reap, so the rusage pointer is really used. */
		if (sys(__NR_fork) == 0)
			exit(0);
		sleep_ms(5);
		expect("wait4 rusage", sys(__NR_wait4, -1, &status, 0, (void *)p));
		while (sys(__NR_wait4, -1, &status, WNOHANG, 0) > 0)
			;
	}
	expect("spawn argv string", spawn("/bin/t_efault", argv_bad));
	expect("getrandom into rodata", sys(__NR_getrandom, (void *)ro, 16, 0));
	expect("write spanning into unmapped", sys(__NR_write, 1, (const char *)0x1000 - 8, 16));
	/* The status pointer is checked after the child is reaped, as in Linux. */
	if (sys(__NR_fork) == 0)
		exit(0);
	sleep_ms(20);
	expect("wait4 status", sys(__NR_wait4, -1, (int *)ro, 0, 0));
	if (sys(__NR_nanosleep, &ts, 0) != 0) {
		printf("t_efault: FAIL: a valid nanosleep failed\n");
		failures++;
	}
	return failures ? 1 : 0;
}
