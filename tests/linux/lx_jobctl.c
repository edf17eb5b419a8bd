/*
 * lx_jobctl: a plain Linux C program (static musl and static glibc) that
 * checks job control and CPU times from ring 3: a stop signal stops the
 * whole group (a stopped child no longer runs, its threads neither), the
 * parent hears it (wait status 0x7f | sig << 8, WCONTINUED's 0xffff, each
 * reported once; waitid's CLD_STOPPED/CLD_CONTINUED and WNOWAIT; SIGCHLD's
 * si_code, none with SA_NOCLDSTOP), /proc's state 'T' and "T (stopped)",
 * SIGKILL ends a stopped child, another fatal signal waits for SIGCONT,
 * SIGCONT discards pending stop signals and a stop signal a pending SIGCONT,
 * SIGTSTP in an orphaned process group is discarded where SIGSTOP is not,
 * a group orphaned with a stopped member gets SIGHUP and SIGCONT;
 * getrusage (SELF, THREAD, CHILDREN, EINVAL, EFAULT) and /proc/PID/stat's
 * utime and cutime, which sum the process's threads and its reaped children.
 * tests/sh/linux-abi.sh runs the same binaries on the host Linux, which
 * proves every expectation; the kernel's linux suite runs them.
 *
 * Usage: lx_jobctl; one "ok"/"FAIL" line per check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/*
 * User plus system time. Linux splits a task's runtime between the two by
 * tick samples scaled to the exact sum (cputime_adjust, 6.x), per thread and
 * per group separately, so a group's utime need not cover a thread's utime
 * on a loaded machine; the sums are exact. Seen failing on a loaded host.
 */
static long ru_ms(const struct rusage *r)
{
	return tv_ms(r->ru_utime) + tv_ms(r->ru_stime);
}

/*
 * Spins in user mode until getrusage(who) shows ms more user time, 10 s of
 * wall time at most (a loaded machine gives less CPU than wall time); 1
 * when it got there.
 */
static int burn_cpu_ms(int who, long ms)
{
	struct rusage r;
	long start, end = now_ms() + 10000;
	volatile unsigned long x = 0;

	if (getrusage(who, &r))
		return 0;
	start = tv_ms(r.ru_utime);
	while (now_ms() < end) {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		if (getrusage(who, &r) == 0 && tv_ms(r.ru_utime) >= start + ms)
			return 1;
	}
	return 0;
}

/* Field n (1-based) of /proc/PID[/task/TID]/stat, after the comm; -1 when unreadable. */
static long stat_field(const char *path, int n, char *state)
{
	char buf[1024], *p;
	long v = -1;
	int fd = open(path, O_RDONLY), len;

	if (fd < 0)
		return -1;
	len = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -1;
	p += 2; /* field 3, the state */
	if (state)
		*state = *p;
	for (int f = 3; f < n && p; f++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		v = strtol(p, 0, 10);
	return v;
}

static char proc_state(pid_t pid)
{
	char path[64], st = '?';

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat_field(path, 3, &st);
	return st;
}

/* The process stops within 5 s: the signal acts when the target next runs. */
static int stops(pid_t pid)
{
	for (int i = 0; i < 500; i++) {
		if (proc_state(pid) == 'T')
			return 1;
		nap_ms(10);
	}
	return 0;
}

static int status_has(pid_t pid, const char *line)
{
	char path[64], buf[2048];
	int fd, len;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	len = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	return strstr(buf, line) != 0;
}

/* A counter the child bumps in a shared page: it runs while the count moves. */
static volatile unsigned long *shared;

/*
 * Each child leads its own process group, whose link outside is this
 * program in the same session: the group is never orphaned, so the
 * job-control stops act whatever started the program.
 */
static pid_t spinning_child(int slot)
{
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		for (;;)
			shared[slot]++;
	}
	if (pid > 0)
		setpgid(pid, pid); /* as a shell does: set before either runs on */
	return pid;
}

static int moves(int slot, long ms)
{
	unsigned long a = shared[slot];

	nap_ms(ms);
	return shared[slot] != a;
}

/* The child runs: its count moves within 5 s (a loaded machine may hold it back a while). */
static int runs(int slot)
{
	unsigned long a = shared[slot];

	for (int i = 0; i < 500; i++) {
		nap_ms(10);
		if (shared[slot] != a)
			return 1;
	}
	return 0;
}

/*
 * --- SIGCHLD's codes ---
 * Only those from the child under test: a child an earlier check killed may
 * have its SIGCHLD arrive after the handler is set (seen on a loaded host,
 * where it came first and the check read CLD_KILLED for CLD_STOPPED).
 */
static volatile int chld_code[8], chld_status[8], chld_n;
static volatile pid_t chld_from;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_pid == chld_from && chld_n < 8) {
		chld_code[chld_n] = si->si_code;
		chld_status[chld_n] = si->si_status;
		chld_n++;
	}
}

static void set_chld(int flags, pid_t from)
{
	struct sigaction sa;

	chld_from = from;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | flags;
	sigaction(SIGCHLD, &sa, 0);
	chld_n = 0;
}

/* Waits up to 5 s for n SIGCHLDs. */
static int got_chld(int n)
{
	for (int i = 0; i < 500 && chld_n < n; i++)
		nap_ms(10);
	return chld_n >= n;
}

static void test_stop_continue(void)
{
	pid_t pid = spinning_child(0);
	int st = 0, r;

	set_chld(0, pid);
	check(pid > 0 && runs(0), "a spinning child runs");
	check(kill(pid, SIGSTOP) == 0, "kill SIGSTOP");
	r = waitpid(pid, &st, WUNTRACED);
	check(r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && st == 0x137f,
	      "waitpid WUNTRACED: status 0x137f (stopped by SIGSTOP)");
	check(!moves(0, 100), "the stopped child does not run");
	check(proc_state(pid) == 'T', "/proc/PID/stat state T");
	check(status_has(pid, "State:\tT (stopped)"), "/proc/PID/status State: T (stopped)");
	check(waitpid(pid, &st, WUNTRACED | WNOHANG) == 0, "the stop is reported once");
	check(got_chld(1) && chld_code[0] == CLD_STOPPED && chld_status[0] == SIGSTOP,
	      "SIGCHLD CLD_STOPPED, si_status SIGSTOP");
	check(kill(pid, SIGCONT) == 0, "kill SIGCONT");
	r = waitpid(pid, &st, WCONTINUED);
	check(r == pid && WIFCONTINUED(st) && st == 0xffff, "waitpid WCONTINUED: status 0xffff");
	check(waitpid(pid, &st, WCONTINUED | WNOHANG) == 0, "the continue is reported once");
	check(got_chld(2) && chld_code[1] == CLD_CONTINUED && chld_status[1] == SIGCONT,
	      "SIGCHLD CLD_CONTINUED, si_status SIGCONT");
	check(runs(0) && proc_state(pid) != 'T', "the continued child runs again");
	/* A plain wait does not see stops: the child is stopped, WNOHANG finds nothing. */
	kill(pid, SIGTSTP);
	check(stops(pid), "SIGTSTP (default action) stops it too");
	check(waitpid(pid, &st, WNOHANG) == 0, "waitpid without WUNTRACED ignores a stop");
	/* A fatal signal other than SIGKILL waits for the continue. */
	kill(pid, SIGTERM);
	nap_ms(50);
	check(proc_state(pid) == 'T' && waitpid(pid, &st, WNOHANG) == 0,
	      "SIGTERM to a stopped child stays pending");
	kill(pid, SIGCONT);
	r = waitpid(pid, &st, 0);
	check(r == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	      "after SIGCONT the pending SIGTERM kills it");
	signal(SIGCHLD, SIG_DFL);
}

static void test_kill_stopped(void)
{
	pid_t pid = spinning_child(1);
	int st = 0;

	set_chld(SA_NOCLDSTOP, pid);
	kill(pid, SIGSTOP);
	check(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st), "stopped again");
	nap_ms(50);
	check(chld_n == 0, "SA_NOCLDSTOP: no SIGCHLD for a stop");
	check(kill(pid, SIGKILL) == 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
		      WTERMSIG(st) == SIGKILL,
	      "SIGKILL ends a stopped child");
	check(got_chld(1) && chld_code[0] == CLD_KILLED, "SA_NOCLDSTOP: SIGCHLD for the kill");
	signal(SIGCHLD, SIG_DFL);
}

static void test_waitid(void)
{
	pid_t pid = spinning_child(2);
	siginfo_t si;
	int r;

	kill(pid, SIGTSTP);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOWAIT);
	check(r == 0 && si.si_pid == pid && si.si_code == CLD_STOPPED && si.si_status == SIGTSTP,
	      "waitid WSTOPPED|WNOWAIT: CLD_STOPPED, SIGTSTP");
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, (id_t)pid, &si, WSTOPPED);
	check(r == 0 && si.si_code == CLD_STOPPED && si.si_status == SIGTSTP,
	      "waitid WSTOPPED after WNOWAIT: reported again");
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG);
	check(r == 0 && si.si_pid == 0, "waitid WSTOPPED: consumed");
	kill(pid, SIGCONT);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, (id_t)pid, &si, WCONTINUED);
	check(r == 0 && si.si_code == CLD_CONTINUED && si.si_status == SIGCONT,
	      "waitid WCONTINUED: CLD_CONTINUED, SIGCONT");
	kill(pid, SIGKILL);
	memset(&si, 0, sizeof(si));
	r = waitid(P_PID, (id_t)pid, &si, WEXITED);
	check(r == 0 && si.si_code == CLD_KILLED && si.si_status == SIGKILL,
	      "waitid WEXITED: CLD_KILLED");
}

/* --- the pending sets --- */
static volatile int conts;

static void on_cont(int sig)
{
	(void)sig;
	conts++;
}

/*
 * The child blocks a signal, says it is ready, and unblocks only when told
 * to go, after the parent's two kill()s: a signal's effect on the pending
 * set happens at send time (prepare_signal), so no timing is involved.
 */
static pid_t blocked_child(int sig, int ready[2], int go[2], void (*setup)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		sigset_t s;
		char c;

		setpgid(0, 0);
		if (setup)
			setup();
		sigemptyset(&s);
		sigaddset(&s, sig);
		sigprocmask(SIG_BLOCK, &s, 0);
		write(ready[1], "r", 1);
		read(go[0], &c, 1);
		sigprocmask(SIG_UNBLOCK, &s, 0);
		_exit(sig == SIGTSTP ? 7 : conts);
	}
	return pid;
}

static void cont_counted(void)
{
	signal(SIGCONT, on_cont);
	signal(SIGTSTP, SIG_IGN);
}

static void test_flush(void)
{
	int ready[2], go[2], st = 0;
	pid_t pid;
	char c;

	if (pipe(ready))
		return;
	if (pipe(go)) {
		close(ready[0]);
		close(ready[1]);
		return;
	}
	/* SIGCONT discards a pending (blocked) SIGTSTP: it never stops the child. */
	pid = blocked_child(SIGTSTP, ready, go, 0);
	read(ready[0], &c, 1);
	kill(pid, SIGTSTP);
	kill(pid, SIGCONT);
	write(go[1], "g", 1);
	check(waitpid(pid, &st, WUNTRACED) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "SIGCONT discards a pending stop signal");
	/* A stop signal, even one ignored, discards a pending (blocked) SIGCONT. */
	pid = blocked_child(SIGCONT, ready, go, cont_counted);
	read(ready[0], &c, 1);
	kill(pid, SIGCONT);
	kill(pid, SIGTSTP);
	write(go[1], "g", 1);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a stop signal (ignored) discards a pending SIGCONT");
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

static void test_orphaned(void)
{
	int st = 0;
	pid_t pid = fork();

	/* A new session: no parent outside the group in the session, the group is orphaned. */
	if (pid == 0) {
		setsid();
		raise(SIGTSTP);
		raise(SIGTTIN);
		raise(SIGTTOU);
		_exit(5);
	}
	check(waitpid(pid, &st, WUNTRACED) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 5,
	      "SIGTSTP/SIGTTIN/SIGTTOU in an orphaned process group: discarded");
	pid = fork();
	if (pid == 0) {
		setsid();
		raise(SIGSTOP);
		_exit(6);
	}
	check(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	      "SIGSTOP stops in an orphaned process group");
	kill(pid, SIGCONT);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 6,
	      "continued, it exits");
	/* Its own process group with the parent outside it in the session: SIGTSTP stops. */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		raise(SIGTSTP);
		_exit(8);
	}
	check(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP,
	      "SIGTSTP stops a process group with a parent outside it");
	kill(pid, SIGCONT);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 8,
	      "continued, it exits too");
}

static int hup_fd;

static void on_hup(int sig)
{
	(void)sig;
	write(hup_fd, "H", 1);
	_exit(9);
}

/*
 * POSIX's orphaned-group rule (kill_orphaned_pgrp): a stopped process whose
 * group loses its last parent outside it in the session gets SIGHUP, then
 * SIGCONT, so it is not left stopped for ever.  Its parent leads the group
 * and exits; the grandchild, stopped, goes to init and tells us through a
 * pipe that SIGHUP came.
 */
static void test_orphan_hup(void)
{
	int p[2], st = 0;
	pid_t pid;
	char c = 0;
	long n;

	if (pipe(p))
		return;
	hup_fd = p[1];
	pid = fork();
	if (pid == 0) {
		pid_t gc;

		setpgid(0, 0);
		gc = fork();
		if (gc == 0) {
			signal(SIGHUP, on_hup);
			raise(SIGSTOP);
			_exit(10); /* continued without SIGHUP */
		}
		waitpid(gc, &st, WUNTRACED);
		_exit(WIFSTOPPED(st) ? 0 : 1);
	}
	close(p[1]);
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "a group leader exits with its child stopped");
	n = read(p[0], &c, 1);
	check(n == 1 && c == 'H', "the orphaned group's stopped process gets SIGHUP (and SIGCONT)");
	close(p[0]);
}

/* --- threads --- */
static void *spin_thread(void *arg)
{
	(void)arg;
	shared[4] = (unsigned long)syscall(SYS_gettid);
	for (;;)
		shared[5]++;
	return 0;
}

static void test_threads(void)
{
	int st = 0;
	pid_t pid = fork();
	char path[96], state = '?';

	if (pid == 0) {
		pthread_t th;

		setpgid(0, 0);
		if (pthread_create(&th, 0, spin_thread, 0))
			_exit(1);
		for (;;)
			shared[3]++;
	}
	for (int i = 0; i < 200 && !shared[4]; i++)
		nap_ms(10);
	check(runs(3) && runs(5), "both threads of the child run");
	kill(pid, SIGSTOP);
	check(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st),
	      "a two-thread child: stop reported");
	check(!moves(3, 100) && !moves(5, 1), "neither thread runs while stopped");
	snprintf(path, sizeof(path), "/proc/%d/task/%lu/stat", (int)pid, shared[4]);
	stat_field(path, 3, &state);
	check(state == 'T', "the second thread's /proc/PID/task/TID/stat state T");
	kill(pid, SIGCONT);
	check(waitpid(pid, &st, WCONTINUED) == pid && WIFCONTINUED(st),
	      "a two-thread child: continue reported");
	check(runs(3) && runs(5), "both threads run again");
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGKILL);
	check(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "a stopped two-thread child: SIGKILL ends it");
}

/* --- CPU times --- */
static void *burn_thread(void *arg)
{
	*(int *)arg = burn_cpu_ms(RUSAGE_THREAD, 300);
	return 0;
}

static void test_rusage(void)
{
	struct rusage self, thr, kids;
	pthread_t th;
	pid_t pid;
	int st = 0, burnt = 0;
	long utime, cutime; /* with stime and cstime: see ru_ms */

	check(burn_cpu_ms(RUSAGE_SELF, 100), "getrusage RUSAGE_SELF: user time counted");
	check(pthread_create(&th, 0, burn_thread, &burnt) == 0 && pthread_join(th, 0) == 0 && burnt,
	      "a thread burnt 300 ms of its own (RUSAGE_THREAD) and exited");
	check(getrusage(RUSAGE_SELF, &self) == 0 && getrusage(RUSAGE_THREAD, &thr) == 0 &&
		      ru_ms(&self) >= ru_ms(&thr) + 250,
	      "RUSAGE_SELF keeps the exited thread's time, RUSAGE_THREAD not");
	utime = stat_field("/proc/self/stat", 14, 0) + stat_field("/proc/self/stat", 15, 0);
	check(utime * 10 >= ru_ms(&self) - 100,
	      "/proc/self/stat utime sums the threads, gone ones too");
	check(getrusage(RUSAGE_CHILDREN, &kids) == 0, "getrusage RUSAGE_CHILDREN");
	pid = fork();
	if (pid == 0)
		_exit(burn_cpu_ms(RUSAGE_SELF, 300) ? 0 : 1);
	waitpid(pid, &st, 0);
	{
		struct rusage after;

		check(WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
			      getrusage(RUSAGE_CHILDREN, &after) == 0 &&
			      ru_ms(&after) >= ru_ms(&kids) + 250,
		      "RUSAGE_CHILDREN grows by a reaped child's time");
	}
	cutime = stat_field("/proc/self/stat", 16, 0) + stat_field("/proc/self/stat", 17, 0);
	check(cutime >= 25, "/proc/self/stat cutime counts the reaped children");
	errno = 0;
	check(syscall(SYS_getrusage, 5, &self) == -1 && errno == EINVAL, "getrusage(5): EINVAL");
	errno = 0;
	check(syscall(SYS_getrusage, RUSAGE_SELF, (void *)8) == -1 && errno == EFAULT,
	      "getrusage to a bad pointer: EFAULT");
}

int main(void)
{
	shared = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		printf("lx_jobctl: no shared page\n");
		return 2;
	}
	test_stop_continue();
	test_kill_stopped();
	test_waitid();
	test_flush();
	test_orphaned();
	test_orphan_hup();
	test_threads();
	test_rusage();
	return summary("lx_jobctl");
}
