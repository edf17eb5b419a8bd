/*
 * lx_nice: a plain Linux C program (static musl and static glibc) that
 * checks nice levels from ring 3: getpriority and setpriority for a thread,
 * a process group and a user (the raw call's 20 - nice, clamping, EINVAL,
 * ESRCH), /proc/PID/stat's priority and nice fields, inheritance at fork,
 * the permission rules (EPERM for another user's task, EACCES for a lower
 * nice beyond RLIMIT_NICE) and the CPU shares the weights give: two
 * CPU-bound processes on one CPU, at nice 0 and nice 5, get CPU time in
 * about the ratio of their weights, 1024 to 335.  tests/sh/linux-abi.sh
 * runs the same binaries on the host Linux, which proves every expectation;
 * the kernel's linux suite runs them.
 *
 * The unprivileged checks run as uid 54321, a uid no one else has, so that
 * PRIO_USER reaches only this program's own processes; they need root to
 * get there, and say so when it is not.
 *
 * Usage: lx_nice; one "ok"/"FAIL" line per check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define OTHER_UID 54321

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The nice of a thread, process group or user as glibc and musl give it; errno is set on error. */
static int nice_of(int which, int who)
{
	errno = 0;
	return getpriority(which, who);
}

/*
 * Reads /proc/PID/stat into buf and returns what follows "pid (comm) ",
 * from field 3 (state) on; NULL if it cannot.
 */
static const char *stat_fields(int pid, char *buf, int len)
{
	char path[64], *p = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, len, f))
		p = strrchr(buf, ')');
	fclose(f);
	return p ? p + 2 : 0;
}

/* Fields 18 (priority) and 19 (nice) of /proc/PID/stat, or -1000 each. */
static void stat_prio(int pid, long *prio, long *nice)
{
	char buf[1024];
	const char *f = stat_fields(pid, buf, sizeof(buf));

	*prio = *nice = -1000;
	if (f)
		sscanf(f, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %ld %ld",
		       prio, nice);
}

/* utime + stime of PID in clock ticks, from /proc/PID/stat (fields 14, 15). */
static long cpu_ticks(int pid)
{
	char buf[1024];
	const char *f = stat_fields(pid, buf, sizeof(buf));
	long ut = -1, st = -1;

	if (f)
		sscanf(f, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st);
	return ut < 0 || st < 0 ? -1 : ut + st;
}

/* A child that exits with its nice + 20 (0 .. 39), as it finds it. */
static int child_nice_status(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(nice_of(PRIO_PROCESS, 0) + 20);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st) - 20;
}

static void check_own(void)
{
	long prio, nice;
	int n;

	check(setpriority(PRIO_PROCESS, 0, 3) == 0, "setpriority(PRIO_PROCESS, 0, 3)");
	n = nice_of(PRIO_PROCESS, 0);
	check(n == 3 && errno == 0, "getpriority(PRIO_PROCESS, 0) gives 3");
	check(nice_of(PRIO_PROCESS, getpid()) == 3, "getpriority by its own pid gives 3");
	check(syscall(SYS_getpriority, PRIO_PROCESS, 0) == 17,
	      "the raw call returns 20 - nice (17)");
	stat_prio(getpid(), &prio, &nice);
	check(prio == 23 && nice == 3, "/proc/self/stat: priority 23, nice 3 (fields 18, 19)");
	check(child_nice_status() == 3, "a forked child has its parent's nice");
	check(setpriority(PRIO_PROCESS, 0, 100) == 0 && nice_of(PRIO_PROCESS, 0) == 19,
	      "a nice above 19 is clamped to 19");
	check(syscall(SYS_getpriority, PRIO_PROCESS, 0) == 1, "the raw call returns 1 at nice 19");
	errno = 0;
	check(setpriority(3, 0, 0) == -1 && errno == EINVAL, "setpriority(which 3): EINVAL");
	check(nice_of(-1, 0) == -1 && errno == EINVAL, "getpriority(which -1): EINVAL");
	errno = 0;
	check(setpriority(PRIO_PROCESS, 0x7ffffff0, 0) == -1 && errno == ESRCH,
	      "setpriority of no such pid: ESRCH");
	check(nice_of(PRIO_PROCESS, 0x7ffffff0) == -1 && errno == ESRCH,
	      "getpriority of no such pid: ESRCH");
}

/* In a new process group: one setpriority renices both of its processes. */
static void check_pgrp(void)
{
	int go[2], st = -1;
	pid_t a = fork();

	if (a == 0) {
		pid_t b;
		char c;

		setpgid(0, 0);
		if (pipe(go) < 0)
			_exit(90);
		b = fork();
		if (b == 0) { /* waits until its group was reniced, then reports its nice */
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(91);
			_exit(nice_of(PRIO_PROCESS, 0) + 20);
		}
		close(go[0]);
		if (setpriority(PRIO_PGRP, 0, 7) < 0)
			_exit(92);
		if (nice_of(PRIO_PGRP, 0) != 7 || nice_of(PRIO_PGRP, getpgrp()) != 7)
			_exit(93);
		if (write(go[1], "g", 1) != 1 || waitpid(b, &st, 0) != b)
			_exit(94);
		_exit(WIFEXITED(st) && WEXITSTATUS(st) == 27 ? 0 : 95);
	}
	check(a > 0 && waitpid(a, &st, 0) == a && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "PRIO_PGRP renices every process of the group, getpriority(PRIO_PGRP) reads it");
	if (WIFEXITED(st) && WEXITSTATUS(st))
		printf("  (the group's leader exited with %d)\n", WEXITSTATUS(st));
}

/*
 * As OTHER_UID, in a child: EPERM, EACCES, RLIMIT_NICE, PRIO_USER.  Raising
 * RLIMIT_NICE's hard limit takes CAP_SYS_RESOURCE, which root in a container
 * may lack: then the limit stays 0 (Linux's default) and no lower nice is
 * allowed at all.
 */
static int unprivileged(void)
{
	struct rlimit r = {10, 10};
	int bad = 0, floor = setrlimit(RLIMIT_NICE, &r) == 0 ? 10 : 17; /* 20 - 10 */

	printf("  (RLIMIT_NICE %s)\n", floor == 10 ? "10: down to nice 10" : "0: no lower nice");
	fflush(stdout);
	if (setpriority(PRIO_PROCESS, 0, 15) < 0)
		return 1;
	if (setresgid(OTHER_UID, OTHER_UID, OTHER_UID) < 0 ||
	    setresuid(OTHER_UID, OTHER_UID, OTHER_UID) < 0)
		return 2;
	errno = 0;
	bad |= !(setpriority(PRIO_PROCESS, 1, 19) == -1 && errno == EPERM) << 2;
	bad |= !(setpriority(PRIO_PROCESS, 0, 17) == 0) << 3; /* up: always */
	bad |= !(setpriority(PRIO_PROCESS, 0, floor) == 0) << 4;
	errno = 0;
	bad |= !(setpriority(PRIO_PROCESS, 0, floor - 1) == -1 && errno == EACCES) << 5;
	bad |= !(nice_of(PRIO_PROCESS, 0) == floor) << 6;
	r.rlim_cur = r.rlim_max = 20;
	errno = 0;
	bad |= !(setrlimit(RLIMIT_NICE, &r) == -1 && errno == EPERM) << 7; /* hard limit up: no */
	bad |= !(setpriority(PRIO_USER, 0, 18) == 0 && nice_of(PRIO_USER, 0) == 18) << 8;
	bad |= !(nice_of(PRIO_USER, OTHER_UID) == 18 && nice_of(PRIO_PROCESS, 0) == 18) << 9;
	return bad;
}

static void check_unprivileged(void)
{
	pid_t pid;
	int st;

	if (geteuid() != 0) {
		printf("  (not root: the unprivileged checks need to become uid %d)\n", OTHER_UID);
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(unprivileged());
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "as another user: EPERM for init, up always, down to RLIMIT_NICE's floor and not "
	      "past (EACCES), PRIO_USER");
	if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st))
		printf("  (its failed checks, a bit each: 0x%x)\n", WEXITSTATUS(st));
}

/* A child pinned to CPU 0 at nice n, spinning until killed. */
static pid_t spinner(int n, int ready_fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		cpu_set_t one;
		volatile unsigned long x = 0;

		CPU_ZERO(&one);
		CPU_SET(0, &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0 ||
		    setpriority(PRIO_PROCESS, 0, n) < 0)
			_exit(1);
		if (write(ready_fd, "r", 1) != 1)
			_exit(2);
		for (;;)
			x++;
	}
	return pid;
}

/*
 * nice 0 against nice 5 on one CPU: CFS's weights 1024 and 335, 3.06 to 1.
 * Measured until the two have run 60 clock ticks between them (half a
 * second on an idle CPU, longer where the host's CPU 0 has other work), so
 * that the 10 ms ticks' resolution stays small beside the ratio's bounds.
 */
static void check_shares(void)
{
	int ready[2];
	char c;
	pid_t a, b;
	long ta0, tb0, ta = 0, tb = 0, waited = 0;

	if (setpriority(PRIO_PROCESS, 0, 0) < 0 && geteuid() != 0) {
		printf("  (not root and not at nice 0: the shares are not measured)\n");
		return;
	}
	if (pipe(ready) < 0)
		return;
	a = spinner(0, ready[1]);
	b = spinner(5, ready[1]);
	if (a < 0 || b < 0 || read(ready[0], &c, 1) != 1 || read(ready[0], &c, 1) != 1) {
		check(0, "two spinners started");
		return;
	}
	ta0 = cpu_ticks(a);
	tb0 = cpu_ticks(b);
	while (ta + tb < 60 && waited < 20000) {
		nap_ms(100);
		waited += 100;
		ta = cpu_ticks(a) - ta0;
		tb = cpu_ticks(b) - tb0;
	}
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, 0, 0);
	waitpid(b, 0, 0);
	close(ready[0]);
	close(ready[1]);
	printf("  (in %ld ms on one CPU: nice 0 ran %ld ticks, nice 5 %ld)\n", waited, ta, tb);
	check(tb > 0 && ta >= 2 * tb && ta <= 5 * tb,
	      "nice 0 and nice 5 on one CPU: CPU time 2 to 5 times as much for nice 0 (3.06)");
}

int main(void)
{
	int start = nice_of(PRIO_PROCESS, 0);

	printf("  (started at nice %d)\n", start);
	check_pgrp();
	check_own();
	check_unprivileged();
	check_shares();
	return summary("lx_nice");
}
