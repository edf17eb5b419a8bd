/*
 * lx_sigproc: a plain Linux C program (static musl and static glibc) that
 * checks signals between processes from ring 3: default actions and the
 * wait status of a killed child (SIGSEGV even when blocked or with an
 * unwritable frame, SIGTERM, SIGPIPE and its EPIPE when ignored, the
 * ignored ones, no SA_RESTORER, a task spinning in user code), kill (child,
 * process group, the caller's group, EPERM, ESRCH), SIGCHLD with its
 * siginfo and the SIG_IGN auto-reap, EINTR and SA_RESTART, nanosleep's time
 * left, pause, sigsuspend.  Delivery within a process is lx_signal.c's.
 * tests/sh/linux-abi.sh runs the same binaries on the host Linux, which
 * proves every expectation; the kernel's linux suite runs them.
 *
 * Usage: lx_sigproc; one "ok"/"FAIL" line per check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"
#include "lx_sig.h"

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* --- children: default actions, status --- */
static int child_status(void (*body)(void))
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		body();
		_exit(100);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void exit0_handler(int sig)
{
	(void)sig;
	_exit(0);
}

/* Through a volatile pointer: gcc may not see a constant address as an array. */
static volatile int *volatile low_addr = (volatile int *)8;

static void body_segv(void)
{
	*low_addr = 1;
}

/* A handler that ran would make the child exit 0, which the check tells apart. */
static void body_segv_blocked(void)
{
	sigset_t set;

	set_handler(SIGSEGV, exit0_handler, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	sigprocmask(SIG_BLOCK, &set, 0);
	*low_addr = 1; /* blocked: force_sig unblocks it and resets the handler */
}

static void body_pipe(void)
{
	int p[2];

	if (pipe(p))
		_exit(101);
	close(p[0]);
	(void)!write(p[1], "x", 1);
}

static void body_pipe_ignored(void)
{
	int p[2];
	long n;

	set_handler(SIGPIPE, SIG_IGN, 0);
	if (pipe(p))
		_exit(101);
	close(p[0]);
	n = write(p[1], "x", 1);
	_exit(n < 0 && errno == EPIPE ? 0 : 102);
}

static void body_term(void)
{
	kill(getpid(), SIGTERM);
}

static void body_ignore_default(void)
{
	kill(getpid(), SIGCHLD); /* default: ignored */
	kill(getpid(), SIGWINCH);
	_exit(0);
}

/* A frame that cannot be written (the alternate stack unmapped): force_sigsegv kills. */
static void body_bad_altstack(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(0, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_t ss = {.ss_sp = p, .ss_size = 4 * pg, .ss_flags = 0};

	if (p == MAP_FAILED || sigaltstack(&ss, 0))
		_exit(101);
	munmap(p, 4 * pg);
	set_handler(SIGUSR1, exit0_handler, SA_ONSTACK);
	kill(getpid(), SIGUSR1);
}

/* x86_64 needs SA_RESTORER: without one the frame is refused and SIGSEGV kills. */
static void body_no_restorer(void)
{
	struct {
		void (*handler)(int);
		unsigned long flags;
		void (*restorer)(void);
		unsigned long mask;
	} ka = {exit0_handler, 0, 0, 0};

	if (syscall(SYS_rt_sigaction, SIGUSR1, &ka, 0, 8))
		_exit(101);
	kill(getpid(), SIGUSR1);
}

/* A task running user code (no system call) gets its signal on an interrupt's return. */
static void body_spin(void)
{
	set_handler(SIGUSR1, exit0_handler, 0);
	for (;;)
		__asm__ volatile("" ::: "memory");
}

static void check_defaults(void)
{
	int st = child_status(body_segv);

	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "a child's fault kills it: WTERMSIG SIGSEGV");
	st = child_status(body_segv_blocked);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "a fault with SIGSEGV blocked kills even with a handler");
	st = child_status(body_term);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && !WCOREDUMP(st),
	      "SIGTERM's default terminates: WTERMSIG SIGTERM");
	st = child_status(body_pipe);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE,
	      "write to a pipe without reader: SIGPIPE kills");
	st = child_status(body_pipe_ignored);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGPIPE ignored: write fails with EPIPE");
	st = child_status(body_ignore_default);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGCHLD and SIGWINCH default: ignored");
	st = child_status(body_bad_altstack);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "a signal frame that cannot be written: SIGSEGV kills");
	st = child_status(body_no_restorer);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a handler without SA_RESTORER: SIGSEGV");
	{
		pid_t pid = fork();

		if (pid == 0)
			body_spin();
		nap_ms(30);
		st = -1;
		check(pid > 0 && kill(pid, SIGUSR1) == 0 && waitpid(pid, &st, 0) == pid &&
			      WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "a task spinning in user code runs its handler (interrupt return)");
	}
}

/* --- kill of a child, of a process group, EPERM, ESRCH --- */
static void check_kill(void)
{
	int st = -1;
	pid_t pid = fork(), g1, g2;

	if (pid == 0) {
		for (;;)
			pause();
	}
	nap_ms(20);
	check(kill(pid, SIGUSR1) == 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
		      WTERMSIG(st) == SIGUSR1,
	      "kill(child, SIGUSR1): killed, WTERMSIG SIGUSR1");
	errno = 0;
	check(kill(pid, 0) < 0 && errno == ESRCH, "kill of a reaped pid: ESRCH");

	/* A group of two: kill(-pgid) reaches both. */
	g1 = fork();
	if (g1 == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(g1, g1);
	g2 = fork();
	if (g2 == 0) {
		setpgid(0, g1);
		for (;;)
			pause();
	}
	setpgid(g2, g1);
	nap_ms(20);
	{
		int s1 = -1, s2 = -1;

		check(kill(-g1, SIGTERM) == 0 && waitpid(g1, &s1, 0) == g1 &&
			      waitpid(g2, &s2, 0) == g2 && WIFSIGNALED(s1) && WIFSIGNALED(s2) &&
			      WTERMSIG(s1) == SIGTERM && WTERMSIG(s2) == SIGTERM,
		      "kill(-pgid): every member of the group");
	}
	/* kill(0, sig): the caller's own group, from a child leading its own group. */
	pid = fork();
	if (pid == 0) {
		pid_t gc;
		int s = -1;

		setpgid(0, 0);
		gc = fork();
		if (gc == 0) {
			for (;;)
				pause();
		}
		/* after the fork: the grandchild keeps SIGUSR2's default (terminate) */
		set_handler(SIGUSR2, count_handler, 0);
		got_count = 0;
		nap_ms(20);
		if (kill(0, SIGUSR2) || waitpid(gc, &s, 0) != gc)
			_exit(2);
		_exit(got_count == 1 && WIFSIGNALED(s) && WTERMSIG(s) == SIGUSR2 ? 0 : 3);
	}
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "kill(0, sig): the caller and its group");

	/* EPERM: another uid may not signal us (as root: a child that became uid 1000). */
	if (getuid() == 0) {
		pid = fork();
		if (pid == 0) {
			if (setuid(1000))
				_exit(2);
			errno = 0;
			_exit(kill(getppid(), SIGUSR1) < 0 && errno == EPERM ? 0 : 3);
		}
		check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "kill from uid 1000 to root: EPERM");
	} else {
		errno = 0;
		check(kill(1, 0) < 0 && errno == EPERM, "kill of init by a user: EPERM");
	}
}

/* --- SIGCHLD and auto-reap --- */
static volatile int chld_code, chld_status, chld_pid;

static void chld_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_pid = si->si_pid;
}

static void check_sigchld(void)
{
	sigset_t set, old;
	pid_t pid;
	int st;

	set_action(SIGCHLD, chld_handler, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	chld_pid = 0;
	pid = fork();
	if (pid == 0)
		_exit(5);
	while (!chld_pid)
		sigsuspend(&old);
	check(chld_pid == pid && chld_code == CLD_EXITED && chld_status == 5,
	      "SIGCHLD: CLD_EXITED, si_pid, si_status 5 (sigsuspend)");
	waitpid(pid, &st, 0);
	chld_pid = 0;
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGKILL);
		_exit(1);
	}
	while (!chld_pid)
		sigsuspend(&old);
	check(chld_pid == pid && chld_code == CLD_KILLED && chld_status == SIGKILL,
	      "SIGCHLD: CLD_KILLED, si_status SIGKILL");
	waitpid(pid, &st, 0);
	sigprocmask(SIG_SETMASK, &old, 0);

	set_handler(SIGCHLD, SIG_IGN, 0);
	pid = fork();
	if (pid == 0)
		_exit(0);
	errno = 0;
	check(waitpid(-1, &st, 0) < 0 && errno == ECHILD,
	      "SIGCHLD ignored: the child is auto-reaped (ECHILD)");
	set_handler(SIGCHLD, SIG_DFL, 0);
}

/* --- EINTR, SA_RESTART, pause, nanosleep --- */
static void kill_parent_later(int sig, long ms, int fd)
{
	pid_t parent = getpid();

	if (fork() == 0) {
		nap_ms(ms);
		kill(parent, sig);
		if (fd >= 0) {
			nap_ms(ms);
			(void)!write(fd, "y", 1);
		}
		_exit(0);
	}
}

static void check_eintr(void)
{
	int p[2], st;
	char c;
	long n;
	struct timespec ts = {5, 0}, rem = {0, 0};

	got_count = 0;
	set_handler(SIGUSR1, count_handler, 0);
	if (pipe(p))
		return;
	kill_parent_later(SIGUSR1, 30, -1);
	errno = 0;
	n = read(p[0], &c, 1);
	check(n < 0 && errno == EINTR && got_count == 1, "blocking read interrupted: EINTR");
	wait(&st);

	got_count = 0;
	set_handler(SIGUSR1, count_handler, SA_RESTART);
	kill_parent_later(SIGUSR1, 30, p[1]);
	n = read(p[0], &c, 1);
	check(n == 1 && c == 'y' && got_count == 1,
	      "SA_RESTART: the read restarts and gets its byte");
	wait(&st);

	got_count = 0;
	kill_parent_later(SIGUSR1, 30, -1);
	errno = 0;
	n = nanosleep(&ts, &rem);
	check(n < 0 && errno == EINTR && got_count == 1 && rem.tv_sec >= 3,
	      "nanosleep interrupted: EINTR, rem holds the time left (even with SA_RESTART)");
	wait(&st);

	got_count = 0;
	set_handler(SIGUSR1, count_handler, 0);
	kill_parent_later(SIGUSR1, 30, -1);
	errno = 0;
	n = pause();
	check(n < 0 && errno == EINTR && got_count == 1, "pause returns EINTR after a handler");
	wait(&st);
	set_handler(SIGUSR1, SIG_DFL, 0);
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	(void)argc;
	setvbuf(stdout, 0, _IONBF, 0);
	printf("lx_sigproc: %s, pid %d\n", argv[0], getpid());
	check_defaults();
	check_kill();
	check_sigchld();
	check_eintr();
	return summary("lx_sigproc");
}
