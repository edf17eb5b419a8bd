/*
 * Every pointer-taking system call, given a kernel address, an unmapped
 * user address, a non-canonical address and a read-only page where it
 * writes, must return -EFAULT (and the kernel must survive).
 */
#include "kernel/user/lib/ulib.h"

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

		expect("write", write(1, p, 16));
		expect("read", read(0, (void *)p, 16));
		expect("open", open(p, 0));
		expect("getrandom", getrandom((void *)p, 16, 0));
		expect("nanosleep", nanosleep(p, 0));
		expect("spawn name", spawn(p, 0));
		expect("spawn argv", spawn("/bin/t_efault", (char *const *)p));
		expect("clock_gettime", syscall2(__NR_clock_gettime, 1, p));
		expect("getresuid", syscall3(__NR_getresuid, p, p, p));
		expect("prctl(PR_GET_NAME)", syscall2(__NR_prctl, 16, p));
		expect("getdents_pids", syscall2(__NR_getdents_pids, p, 4));
		/* A child to reap, so the rusage pointer is really used. */
		if (fork() == 0)
			exit(0);
		sleep_ms(5);
		expect("wait4 rusage", wait4(-1, &status, 0, (void *)p));
		while (wait4(-1, &status, WNOHANG, 0) > 0)
			;
	}
	expect("spawn argv string", spawn("/bin/t_efault", argv_bad));
	expect("getrandom into rodata", getrandom((void *)ro, 16, 0));
	expect("write spanning into unmapped", write(1, (const char *)0x1000 - 8, 16));
	/* The status pointer is checked after the child is reaped, as in Linux. */
	if (fork() == 0)
		exit(0);
	sleep_ms(20);
	expect("wait4 status", wait4(-1, (int *)ro, 0, 0));
	if (nanosleep(&ts, 0) != 0) {
		printf("t_efault: FAIL: a valid nanosleep failed\n");
		failures++;
	}
	return failures ? 1 : 0;
}
