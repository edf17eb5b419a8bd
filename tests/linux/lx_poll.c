/*
 * lx_poll: a plain Linux C program, built unchanged as static musl and
 * static glibc, that checks poll, ppoll, select, pselect6 and waitid from
 * ring 3.  The calls go through syscall() so both libcs hit the same
 * system call (glibc's ppoll, for one, hides the time-left update).
 * tests/sh/linux-abi.sh runs the same binaries on the host Linux, which
 * proves every expectation; the kernel embeds them and runs them in its
 * linux suite.
 *
 * Usage: lx_poll; prints one "ok"/"FAIL" line per check and exits 0 when
 * every check passed.  `lx_poll console` waits (10 s at most) for a line
 * on stdin through poll and select, reads it and says what it read: the
 * kernel's linux-console boot pipes one in through the serial console.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long sys_poll(struct pollfd *p, unsigned long n, int ms)
{
	return syscall(SYS_poll, p, n, (long)ms);
}

/* One fd, one event set: the revents, or -errno. */
static int poll1(int fd, short events, int ms)
{
	struct pollfd p = {fd, events, 0};
	long rc = sys_poll(&p, 1, ms);

	return rc < 0 ? -errno : p.revents;
}

static void check_poll_pipe(void)
{
	int fd[2];
	char c;
	long t0, rc;
	struct pollfd p[2];

	if (pipe(fd)) {
		check(0, "pipe");
		return;
	}
	t0 = ms_now();
	check(poll1(fd[0], POLLIN, 100) == 0, "poll: empty pipe, 100 ms: times out (0)");
	rc = ms_now() - t0;
	check(rc >= 90 && rc < 2000, "poll: the 100 ms timeout is honoured roughly");
	check(poll1(fd[0], POLLIN, 0) == 0, "poll: empty pipe, timeout 0: returns at once");
	check(poll1(fd[1], POLLOUT, 0) == POLLOUT, "poll: write end with room: POLLOUT");
	check(write(fd[1], "x", 1) == 1, "write a byte");
	check(poll1(fd[0], POLLIN, -1) == POLLIN, "poll: after a write: POLLIN");
	check(poll1(fd[0], POLLOUT, 0) == 0, "poll: POLLOUT not reported on the read end");
	p[0] = (struct pollfd){fd[0], POLLIN, 0};
	p[1] = (struct pollfd){fd[1], POLLOUT, 0};
	check(sys_poll(p, 2, 0) == 2 && p[0].revents == POLLIN && p[1].revents == POLLOUT,
	      "poll: two fds ready: returns 2");
	close(fd[1]);
	check(poll1(fd[0], POLLIN, 0) == (POLLIN | POLLHUP),
	      "poll: writer closed, data left: POLLIN|POLLHUP");
	check(read(fd[0], &c, 1) == 1, "read the byte");
	check(poll1(fd[0], POLLIN, 0) == POLLHUP, "poll: writer closed, empty: POLLHUP");
	check(poll1(fd[0], 0, 0) == POLLHUP, "poll: POLLHUP reported without being asked");
	close(fd[0]);
	if (pipe(fd)) {
		check(0, "pipe");
		return;
	}
	close(fd[0]);
	check(poll1(fd[1], POLLOUT, 0) == (POLLOUT | POLLERR),
	      "poll: reader closed: POLLERR on the writer");
	check(poll1(fd[1], 0, 0) == POLLERR, "poll: POLLERR reported without being asked");
	close(fd[1]);
}

static void check_poll_fill(void)
{
	int fd[2], n = 0;
	static char buf[65536];

	if (pipe2(fd, O_NONBLOCK)) {
		check(0, "pipe2 O_NONBLOCK");
		return;
	}
	while (write(fd[1], buf, sizeof(buf)) > 0 && n < 1000)
		n++;
	check(poll1(fd[1], POLLOUT, 0) == 0, "poll: full pipe: no POLLOUT");
	check(read(fd[0], buf, sizeof(buf)) > 0, "read some of it");
	check(poll1(fd[1], POLLOUT, 0) == POLLOUT, "poll: room again: POLLOUT");
	close(fd[0]);
	close(fd[1]);
}

/* Blocking poll woken by a forked writer, then by the writer's close. */
static void check_poll_wakeup(void)
{
	int fd[2], st;
	long t0, dt;
	pid_t pid;
	char c;

	if (pipe(fd)) {
		check(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct timespec ts = {0, 150000000};

		close(fd[0]);
		nanosleep(&ts, 0);
		if (write(fd[1], "w", 1) != 1)
			_exit(1);
		nanosleep(&ts, 0);
		_exit(0); /* closes the write end */
	}
	close(fd[1]);
	t0 = ms_now();
	check(poll1(fd[0], POLLIN, -1) == POLLIN, "poll -1: woken by a forked writer: POLLIN");
	dt = ms_now() - t0;
	check(dt >= 100 && dt < 5000, "poll -1: slept until the write (about 150 ms)");
	check(read(fd[0], &c, 1) == 1 && c == 'w', "read the writer's byte");
	check(poll1(fd[0], POLLIN, 10000) == POLLHUP, "poll: woken by the writer's exit: POLLHUP");
	check(waitpid(pid, &st, 0) == pid && st == 0, "the writer exited 0");
	close(fd[0]);
}

/* Two tasks sleeping in poll at once, each on its own fds: neither sees the other's. */
static void check_two_pollers(void)
{
	int c[2], p[2], st = -1;
	struct pollfd mine[2];
	struct timespec ts = {0, 50000000};
	pid_t pid;

	if (pipe(c) || pipe(p)) {
		check(0, "two pipes");
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct pollfd one = {c[0], POLLIN, 0};

		_exit(sys_poll(&one, 1, 3000) == 1 && one.revents == POLLIN ? 0 : 1);
	}
	nanosleep(&ts, 0); /* the child is asleep in poll now */
	mine[0] = (struct pollfd){p[0], POLLIN, 0};
	mine[1] = (struct pollfd){p[0], POLLIN, 0};
	check(sys_poll(mine, 2, 100) == 0 && !mine[0].revents && !mine[1].revents,
	      "poll while another task polls: times out on its own fds");
	check(write(c[1], "c", 1) == 1, "write to the child's pipe");
	check(waitpid(pid, &st, 0) == pid && st == 0,
	      "the other poller is woken with POLLIN on its own fd");
	close(c[0]);
	close(c[1]);
	close(p[0]);
	close(p[1]);
}

static void check_poll_files(void)
{
	int null = open("/dev/null", O_RDWR), zero = open("/dev/zero", O_RDONLY);
	int proc = open("/proc/self/stat", O_RDONLY);

	check(poll1(null, POLLIN | POLLOUT, -1) == (POLLIN | POLLOUT),
	      "poll /dev/null: POLLIN|POLLOUT at once");
	check(poll1(zero, POLLIN, -1) == POLLIN, "poll /dev/zero: POLLIN");
	check(poll1(proc, POLLIN, -1) == POLLIN, "poll /proc/self/stat: POLLIN");
	check(poll1(1, POLLOUT, -1) == POLLOUT, "poll stdout: POLLOUT");
	close(null);
	close(zero);
	close(proc);
}

static void check_poll_errors(void)
{
	struct pollfd p[2] = {{-1, POLLIN, 77}, {1, POLLOUT, 0}};
	struct rlimit r;
	int fd = dup(1);

	close(fd);
	check(poll1(fd, POLLIN, 0) == POLLNVAL, "poll: a closed fd: POLLNVAL");
	check(sys_poll(p, 2, 0) == 1 && p[0].revents == 0 && p[1].revents == POLLOUT,
	      "poll: a negative fd is skipped (revents 0)");
	check(getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur >= 3, "getrlimit RLIMIT_NOFILE");
	errno = 0;
	check(sys_poll(p, r.rlim_cur + 1, 0) == -1 && errno == EINVAL,
	      "poll: nfds > RLIMIT_NOFILE: EINVAL");
	errno = 0;
	check(sys_poll((struct pollfd *)8, 1, 0) == -1 && errno == EFAULT,
	      "poll: a bad pointer: EFAULT");
	check(sys_poll(0, 0, 20) == 0, "poll: no fds, 20 ms: a sleep, 0");
}

/* Every argument a full 64-bit value: syscall() is variadic, a bare 0 would be an int. */
static long sys_ppoll(struct pollfd *p, unsigned long n, struct timespec *ts, uint64_t *mask,
		      unsigned long size)
{
	return syscall(SYS_ppoll, p, n, ts, mask, size);
}

static long sys_pselect6(int n, fd_set *r, struct timespec *ts, void *pack)
{
	return syscall(SYS_pselect6, (long)n, r, (void *)0, (void *)0, ts, pack);
}

static void check_ppoll(void)
{
	struct timespec ts = {0, 0};
	uint64_t mask = 0;
	struct pollfd p = {1, POLLOUT, 0};
	int fd[2];
	long t0, dt;

	check(sys_ppoll(&p, 1, &ts, 0, 8) == 1 && p.revents == POLLOUT,
	      "ppoll: ready fd, zero timespec: 1");
	check(pipe(fd) == 0, "pipe");
	p = (struct pollfd){fd[0], POLLIN, 0};
	ts = (struct timespec){0, 100000000};
	t0 = ms_now();
	check(sys_ppoll(&p, 1, &ts, &mask, 8) == 0, "ppoll: empty pipe, 100 ms, a mask: 0");
	dt = ms_now() - t0;
	check(dt >= 90 && dt < 2000, "ppoll: the 100 ms timeout is honoured roughly");
	check(ts.tv_sec == 0 && ts.tv_nsec == 0, "ppoll: timed out: the time left is 0");
	check(write(fd[1], "y", 1) == 1, "write a byte");
	ts = (struct timespec){5, 0};
	check(sys_ppoll(&p, 1, &ts, 0, 0) == 1 && p.revents == POLLIN,
	      "ppoll: after a write: POLLIN");
	check((ts.tv_sec == 4 && ts.tv_nsec > 0) || (ts.tv_sec == 5 && ts.tv_nsec == 0),
	      "ppoll: the time left is written back (just under 5 s)");
	errno = 0;
	check(sys_ppoll(&p, 1, 0, &mask, 4) == -1 && errno == EINVAL,
	      "ppoll: sigsetsize 4: EINVAL");
	ts = (struct timespec){0, 1000000000};
	errno = 0;
	check(sys_ppoll(&p, 1, &ts, 0, 8) == -1 && errno == EINVAL, "ppoll: tv_nsec 1e9: EINVAL");
	errno = 0;
	check(sys_ppoll(&p, 1, (void *)8, 0, 8) == -1 && errno == EFAULT,
	      "ppoll: a bad timespec pointer: EFAULT");
	close(fd[0]);
	close(fd[1]);
}

static long sys_select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	return syscall(SYS_select, (long)n, r, w, e, tv);
}

static void check_select(void)
{
	int fd[2], bad;
	fd_set r, w;
	struct timeval tv = {0, 100000};
	long t0, dt;

	if (pipe(fd)) {
		check(0, "pipe");
		return;
	}
	bad = dup(1);
	close(bad);
	FD_ZERO(&r);
	FD_SET(fd[0], &r);
	t0 = ms_now();
	check(sys_select(fd[0] + 1, &r, 0, 0, &tv) == 0 && !FD_ISSET(fd[0], &r),
	      "select: empty pipe, 100 ms: 0, the set cleared");
	dt = ms_now() - t0;
	check(dt >= 90 && dt < 2000, "select: the 100 ms timeout is honoured roughly");
	check(tv.tv_sec == 0 && tv.tv_usec == 0, "select: timed out: the timeval is 0 (time left)");
	check(write(fd[1], "z", 1) == 1, "write a byte");
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(fd[0], &r);
	FD_SET(fd[0], &w);
	FD_SET(fd[1], &w);
	tv = (struct timeval){3, 0};
	check(sys_select(fd[1] + 1, &r, &w, 0, &tv) == 2 && FD_ISSET(fd[0], &r) &&
		      FD_ISSET(fd[1], &w) && !FD_ISSET(fd[0], &w),
	      "select: readable read end, writable write end: 2");
	check((tv.tv_sec == 2 && tv.tv_usec > 0) || (tv.tv_sec == 3 && tv.tv_usec == 0),
	      "select: the timeval holds the time left (just under 3 s)");
	FD_ZERO(&r);
	FD_SET(fd[0], &r);
	tv = (struct timeval){0, 0};
	check(sys_select(fd[0], &r, 0, 0, &tv) == 0 && !FD_ISSET(fd[0], &r),
	      "select: a bit at nfds is not looked at (and cleared)");
	close(fd[1]);
	FD_ZERO(&r);
	FD_SET(fd[0], &r);
	tv = (struct timeval){0, 0};
	check(sys_select(fd[0] + 1, &r, 0, 0, &tv) == 1 && FD_ISSET(fd[0], &r),
	      "select: writer closed: readable (EOF)");
	FD_ZERO(&r);
	FD_SET(bad, &r);
	errno = 0;
	check(sys_select(bad + 1, &r, 0, 0, &tv) == -1 && errno == EBADF,
	      "select: a closed fd in a set: EBADF");
	errno = 0;
	check(sys_select(-1, 0, 0, 0, &tv) == -1 && errno == EINVAL, "select: nfds -1: EINVAL");
	tv = (struct timeval){0, -1};
	errno = 0;
	check(sys_select(0, 0, 0, 0, &tv) == -1 && errno == EINVAL,
	      "select: a negative tv_usec: EINVAL");
	tv = (struct timeval){0, 0};
	errno = 0;
	check(sys_select(1, (fd_set *)8, 0, 0, &tv) == -1 && errno == EFAULT,
	      "select: a bad fd_set pointer: EFAULT");
	FD_ZERO(&r);
	FD_SET(fd[0], &r);
	check(sys_select(4096, &r, 0, 0, &tv) == 1 && FD_ISSET(fd[0], &r),
	      "select: nfds past the fd table is clamped, not EINVAL");
	close(fd[0]);
}

static void check_pselect6(void)
{
	int fd[2];
	fd_set r;
	struct timespec ts = {0, 50000000};
	uint64_t mask = 0;
	struct {
		void *ss;
		size_t len;
	} pack = {&mask, 8}, badpack = {&mask, 4};
	long t0, dt;

	if (pipe(fd)) {
		check(0, "pipe");
		return;
	}
	FD_ZERO(&r);
	FD_SET(fd[0], &r);
	t0 = ms_now();
	check(sys_pselect6(fd[0] + 1, &r, &ts, &pack) == 0,
	      "pselect6: empty pipe, 50 ms, a mask: 0");
	dt = ms_now() - t0;
	check(dt >= 40 && dt < 2000, "pselect6: the 50 ms timeout is honoured roughly");
	check(ts.tv_sec == 0 && ts.tv_nsec == 0, "pselect6: timed out: the time left is 0");
	check(write(fd[1], "p", 1) == 1, "write a byte");
	FD_SET(fd[0], &r);
	ts = (struct timespec){2, 0};
	check(sys_pselect6(fd[0] + 1, &r, &ts, 0) == 1 && FD_ISSET(fd[0], &r),
	      "pselect6: after a write: readable");
	check(ts.tv_sec == 1 || (ts.tv_sec == 2 && ts.tv_nsec == 0),
	      "pselect6: the time left is written back");
	errno = 0;
	check(sys_pselect6(fd[0] + 1, &r, 0, &badpack) == -1 && errno == EINVAL,
	      "pselect6: sigset size 4: EINVAL");
	errno = 0;
	check(sys_pselect6(fd[0] + 1, &r, 0, (void *)8) == -1 && errno == EFAULT,
	      "pselect6: a bad sigmask pack pointer: EFAULT");
	close(fd[0]);
	close(fd[1]);
}

static long sys_waitid(int which, int id, siginfo_t *si, int options, struct rusage *ru)
{
	return syscall(SYS_waitid, (long)which, (long)id, si, (long)options, ru);
}

/* A child blocked reading a pipe until the parent closes the write end. */
static pid_t blocked_child(int *wfd)
{
	int fd[2];
	pid_t pid;
	char c;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		_exit(read(fd[0], &c, 1) == 0 ? 5 : 6);
	}
	close(fd[0]);
	*wfd = fd[1];
	return pid;
}

static void check_waitid(void)
{
	siginfo_t si;
	struct rusage ru;
	pid_t pid;
	int st = -1, wfd = -1;
	volatile int *null_page = (volatile int *)(uintptr_t)atoi("0");

	pid = fork();
	if (pid == 0)
		_exit(3);
	memset(&si, 0xff, sizeof(si));
	check(sys_waitid(P_PID, pid, &si, WEXITED, 0) == 0, "waitid P_PID WEXITED: 0");
	check(si.si_signo == SIGCHLD && si.si_code == CLD_EXITED && si.si_pid == pid &&
		      si.si_uid == getuid() && si.si_status == 3 && si.si_errno == 0,
	      "waitid: si_signo SIGCHLD, CLD_EXITED, si_pid, si_uid, si_status 3");

	/* A child killed by SIGSEGV: waitid WNOWAIT sees it, wait4 then reaps it. */
	pid = fork();
	if (pid == 0) {
		*null_page = 1; /* an unmapped page: SIGSEGV */
		_exit(0);
	}
	memset(&si, 0, sizeof(si));
	check(sys_waitid(P_ALL, 0, &si, WEXITED | WNOWAIT, 0) == 0 && si.si_pid == pid &&
		      si.si_status == SIGSEGV &&
		      (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED),
	      "waitid WNOWAIT: killed by SIGSEGV (CLD_KILLED or CLD_DUMPED)");
	check(wait4(pid, &st, WNOHANG, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV &&
		      !!WCOREDUMP(st) == (si.si_code == CLD_DUMPED),
	      "wait4 after WNOWAIT: the same child and status, reaped");
	errno = 0;
	check(sys_waitid(P_PID, pid, &si, WEXITED | WNOHANG, 0) == -1 && errno == ECHILD,
	      "waitid: the reaped child is gone: ECHILD");

	/* WNOHANG with no child ready: 0, si_pid zeroed (Linux 5.x/6.x). */
	pid = blocked_child(&wfd);
	memset(&si, 0xff, sizeof(si));
	check(pid > 0 && sys_waitid(P_PID, pid, &si, WEXITED | WNOHANG, 0) == 0 && si.si_pid == 0 &&
		      si.si_signo == 0,
	      "waitid WNOHANG, child running: 0, si_pid and si_signo zeroed");
	errno = 0;
	check(sys_waitid(P_PID, pid, &si, WSTOPPED | WNOHANG, 0) == 0 && si.si_pid == 0,
	      "waitid WSTOPPED|WNOHANG, child running: 0 (accepted)");
	close(wfd);
	memset(&si, 0, sizeof(si));
	memset(&ru, 0xff, sizeof(ru));
	check(sys_waitid(P_PGID, 0, &si, WEXITED, &ru) == 0 && si.si_pid == pid &&
		      si.si_status == 5,
	      "waitid P_PGID 0 (own group): the child, exit 5");
	check(ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000 &&
		      ru.ru_stime.tv_usec >= 0 && ru.ru_stime.tv_usec < 1000000 &&
		      ru.ru_maxrss != -1,
	      "waitid: the rusage (5th argument) is filled");

	/* WSTOPPED alone never reports a zombie: with only a zombie child, ECHILD. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	{
		struct timespec ts = {0, 100000000};

		nanosleep(&ts, 0); /* let it become a zombie */
	}
	errno = 0;
	check(sys_waitid(P_ALL, 0, &si, WSTOPPED | WNOHANG, 0) == -1 && errno == ECHILD,
	      "waitid WSTOPPED on a zombie only: ECHILD");
	check(sys_waitid(P_ALL, 0, &si, WEXITED, 0) == 0 && si.si_pid == pid,
	      "then WEXITED reaps it");

	errno = 0;
	check(sys_waitid(P_ALL, 0, &si, WEXITED, 0) == -1 && errno == ECHILD,
	      "waitid P_ALL, no children: ECHILD");
	errno = 0;
	check(sys_waitid(P_ALL, 0, &si, WNOHANG, 0) == -1 && errno == EINVAL,
	      "waitid without WEXITED/WSTOPPED/WCONTINUED: EINVAL");
	errno = 0;
	check(sys_waitid(P_PID, 0, &si, WEXITED, 0) == -1 && errno == EINVAL,
	      "waitid P_PID 0: EINVAL");
	errno = 0;
	check(sys_waitid(99, 0, &si, WEXITED, 0) == -1 && errno == EINVAL,
	      "waitid which 99: EINVAL");
	errno = 0;
	check(sys_waitid(P_ALL, 0, &si, WEXITED | 0x100, 0) == -1 && errno == EINVAL,
	      "waitid: an unknown option bit: EINVAL");
	pid = fork();
	if (pid == 0)
		_exit(0);
	errno = 0;
	check(sys_waitid(P_PID, pid, (siginfo_t *)8, WEXITED, 0) == -1 && errno == EFAULT,
	      "waitid: a bad infop: EFAULT (the child is reaped all the same)");
	errno = 0;
	check(sys_waitid(P_PID, pid, &si, WEXITED | WNOHANG, 0) == -1 && errno == ECHILD,
	      "waitid: after the EFAULT, the child is gone");
}

/* stdin must become readable (a line typed or piped in): POLLIN, then select agrees. */
static int console(void)
{
	struct timeval tv = {0, 0};
	fd_set r;
	char c, first = 0;
	int n = 0;

	/* POLLHUP may come too on the host, where stdin is a pipe whose writer has gone. */
	check(poll1(0, POLLIN, 10000) > 0 && (poll1(0, POLLIN, 0) & POLLIN),
	      "console: poll POLLIN once a line is typed");
	FD_ZERO(&r);
	FD_SET(0, &r);
	check(sys_select(1, &r, 0, 0, &tv) == 1 && FD_ISSET(0, &r), "console: select readable");
	while (read(0, &c, 1) == 1 && c != '\n' && c != '\r')
		if (!n++)
			first = c;
	/* Only when poll and select saw it: the read alone would block until the line came. */
	if (!failed)
		printf("lx_poll console: read %d bytes, the first '%c'\n", n, first ? first : '?');
	return failed ? 1 : 0;
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

/*
 * A signal ends the waits: poll and select give EINTR after the handler even
 * with SA_RESTART (Linux's -ERESTARTNOHAND), waitid is restarted with it
 * (-ERESTARTSYS) and EINTR without it.  A child sends SIGUSR1 while we wait.
 */
static pid_t usr1_later(int ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void check_interrupted(void)
{
	struct sigaction sa;
	siginfo_t si;
	fd_set r;
	int fd[2], st;
	pid_t pid;

	if (pipe(fd)) {
		check(0, "pipe");
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, 0);
	got_usr1 = 0;
	pid = usr1_later(100);
	check(poll1(fd[0], POLLIN, -1) == -EINTR && got_usr1,
	      "poll -1 with a SA_RESTART handler: EINTR after the handler");
	waitpid(pid, &st, 0);
	got_usr1 = 0;
	pid = usr1_later(100);
	FD_ZERO(&r);
	FD_SET(fd[0], &r);
	check(select(fd[0] + 1, &r, 0, 0, 0) == -1 && errno == EINTR && got_usr1,
	      "select with a SA_RESTART handler: EINTR after the handler");
	waitpid(pid, &st, 0);
	/* SA_RESTART: waitid for a child that outlives the signal is restarted. */
	got_usr1 = 0;
	pid = usr1_later(100);
	memset(&si, 0, sizeof(si));
	check(waitid(P_PID, pid, &si, WEXITED) == 0 && si.si_pid == pid && got_usr1,
	      "waitid with a SA_RESTART handler: restarted, reaps the child");
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, 0);
	got_usr1 = 0;
	pid = fork();
	if (pid == 0) {
		usleep(400 * 1000);
		_exit(0);
	}
	if (usr1_later(100) > 0) {
		check(waitid(P_PID, pid, &si, WEXITED) == -1 && errno == EINTR && got_usr1,
		      "waitid without SA_RESTART: EINTR after the handler");
		while (waitpid(-1, &st, 0) > 0)
			;
	}
	signal(SIGUSR1, SIG_DFL);
	close(fd[0]);
	close(fd[1]);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "console"))
		return console();
	printf("lx_poll: %s, pid %d\n", argv[0], getpid());
	check_poll_pipe();
	check_poll_fill();
	check_poll_wakeup();
	check_two_pollers();
	check_poll_files();
	check_poll_errors();
	check_ppoll();
	check_select();
	check_pselect6();
	check_waitid();
	check_interrupted();
	return summary("lx_poll");
}
