/*
 * lx_thread: POSIX threads as Linux runs them (thread groups, per-thread
 * signals, clone and clone3, one thread's page-table changes seen by the
 * others at once), built as static musl, static glibc and
 * dynamic glibc.  The same checks run on the host Linux (tests/sh/linux-abi.sh)
 * and inside the kernel as init (tests/qemu/boots.conf, init-thread-*).
 *
 *   lx_thread          every check below
 *   lx_thread bomb     pthread_create until it fails: EAGAIN, and the
 *                      process goes on (capped at BOMB_MAX threads)
 *   lx_thread execd P  (internal) the image a thread's execve starts:
 *                      exits 0 when its pid is P
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define NTHREADS 8
#define BOMB_MAX 1000
#define SPIN_MAX 2000000000L

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --- create/join, ids, thread-local storage --- */
static __thread int tls_value;
struct ids {
	pid_t tid, pid, ppid;
	int tls_seen;
};

static void *ids_thread(void *arg)
{
	struct ids *r = arg;

	tls_value = (int)gettid_(); /* each thread's own copy */
	nap_ms(5);
	r->tid = gettid_();
	r->pid = getpid();
	r->ppid = getppid();
	r->tls_seen = tls_value;
	return r;
}

static void check_ids(void)
{
	pthread_t th[NTHREADS];
	struct ids r[NTHREADS];
	int ok_create = 1, ok_join = 1, ok_ids = 1, ok_tls = 1, created = 0;

	tls_value = -1;
	/* 64 threads in all, NTHREADS at a time */
	for (int round = 0; round < 64 / NTHREADS; round++) {
		memset(r, 0, sizeof(r));
		for (int i = 0; i < NTHREADS; i++)
			ok_create &= pthread_create(&th[i], 0, ids_thread, &r[i]) == 0;
		for (int i = 0; i < NTHREADS; i++) {
			void *ret = 0;

			ok_join &= pthread_join(th[i], &ret) == 0 && ret == &r[i];
			created++;
		}
		for (int i = 0; i < NTHREADS; i++) {
			ok_ids &= r[i].pid == getpid() && r[i].tid != getpid() && r[i].tid > 0 &&
				  r[i].ppid == getppid();
			for (int j = 0; j < i; j++)
				ok_ids &= r[i].tid != r[j].tid;
			ok_tls &= r[i].tls_seen == r[i].tid;
		}
	}
	check(ok_create && created == 64, "pthread_create: 64 threads, 8 at a time");
	check(ok_join, "pthread_join returns each thread's value");
	check(ok_ids, "threads: getpid the process's, gettid distinct and != getpid, getppid the "
		      "process's");
	check(gettid_() == getpid(), "the main thread's tid is the pid");
	check(ok_tls && tls_value == -1, "__thread variables: one copy per thread");
}

/* --- a mutex and a condition variable under contention --- */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long counter;
static int turn, rounds_done;

static void *count_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		pthread_mutex_lock(&mu);
		counter++;
		pthread_mutex_unlock(&mu);
	}
	return 0;
}

/* ping-pong: thread `me` waits for its turn, passes it on */
static void *pingpong_thread(void *arg)
{
	int me = (int)(intptr_t)arg;

	for (int i = 0; i < 50; i++) {
		pthread_mutex_lock(&mu);
		while (turn != me)
			pthread_cond_wait(&cv, &mu);
		turn = 1 - me;
		rounds_done++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
	return 0;
}

static void check_mutex_cond(void)
{
	pthread_t th[4];
	int ok = 1;

	for (int i = 0; i < 4; i++)
		ok &= pthread_create(&th[i], 0, count_thread, 0) == 0;
	for (int i = 0; i < 4; i++)
		ok &= pthread_join(th[i], 0) == 0;
	check(ok && counter == 8000, "a mutex: 4 threads x 2000 increments, none lost");
	turn = 0;
	ok = pthread_create(&th[0], 0, pingpong_thread, (void *)0) == 0 &&
	     pthread_create(&th[1], 0, pingpong_thread, (void *)1) == 0;
	ok &= pthread_join(th[0], 0) == 0 && pthread_join(th[1], 0) == 0;
	check(ok && rounds_done == 100,
	      "a condition variable: 100 turns passed between two threads");
}

/* --- exits: a thread's, the main thread's, exit_group from a thread --- */
static void *exit_thread(void *arg)
{
	(void)arg;
	pthread_exit(arg); /* SYS_exit: this thread only */
	return 0;
}

static void *late_exit_group(void *arg)
{
	nap_ms(50);
	_exit((int)(intptr_t)arg); /* exit_group */
	return 0;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		nap_ms(1000);
	return 0;
}

static int child_status(pid_t pid)
{
	int st = -1;

	return waitpid(pid, &st, 0) == pid ? st : -1;
}

static long ms_since(clockid_t clk, const struct timespec *t0)
{
	struct timespec t;

	if (clock_gettime(clk, &t))
		return -1;
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * 300 ms of this thread's CPU time where CLOCK_THREAD_CPUTIME_ID exists (a
 * loaded host gives a thread less than the wall time), else 300 ms of
 * wall time (this kernel keeps no CPU-time clocks; nothing else runs).
 */
static void *burner(void *arg)
{
	struct timespec w0, c0;
	bool cpu_clock = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0) == 0;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &w0);
	while (ms_since(CLOCK_MONOTONIC, &w0) < 20000 &&
	       (cpu_clock ? ms_since(CLOCK_THREAD_CPUTIME_ID, &c0)
			  : ms_since(CLOCK_MONOTONIC, &w0)) < 300)
		for (volatile int i = 0; i < 100000; i++) /* user time between the clock calls */
			;
	return 0;
}

/* wait4's rusage counts every thread's time, not only the leader's (which sleeps here). */
static void check_group_times(void)
{
	struct rusage ru;
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		pthread_t th;

		pthread_create(&th, 0, burner, 0);
		pthread_join(th, 0);
		_exit(0);
	}
	memset(&ru, 0, sizeof(ru));
	check(wait4(pid, &st, 0, &ru) == pid && WIFEXITED(st) &&
		      ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 >= 100,
	      "wait4's rusage: a thread's 300 ms of user time count for the process");
}

static void check_exits(void)
{
	pthread_t th;
	pid_t pid;
	int st;

	check(pthread_create(&th, 0, exit_thread, 0) == 0 && pthread_join(th, 0) == 0,
	      "pthread_exit (SYS_exit) ends that thread, the process goes on");

	/* The main thread exits first: the process ends with the last thread's exit_group. */
	pid = fork();
	if (pid == 0) {
		pthread_create(&th, 0, late_exit_group, (void *)5);
		syscall(SYS_exit, 9); /* the main thread only: its status is not the process's */
		_exit(99);
	}
	st = child_status(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 5,
	      "main thread exits first: the process lives on, reaped with the group's status");

	/* exit_group from a thread ends the others, blocked in a sleep. */
	pid = fork();
	if (pid == 0) {
		pthread_create(&th, 0, sleeper, 0);
		pthread_create(&th, 0, late_exit_group, (void *)7);
		for (;;)
			pause();
	}
	st = child_status(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 7, "exit_group from a thread ends every thread");

	/* A fatal signal to the process ends every thread. */
	pid = fork();
	if (pid == 0) {
		pthread_create(&th, 0, sleeper, 0);
		pthread_create(&th, 0, sleeper, 0);
		for (;;)
			pause();
	}
	nap_ms(50);
	kill(pid, SIGTERM);
	st = child_status(pid);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	      "SIGTERM to a process of three threads: killed, WTERMSIG SIGTERM");

	/* Threads are not children: waitpid(-1) from the process that made them finds none. */
	check(pthread_create(&th, 0, exit_thread, 0) == 0 && pthread_join(th, 0) == 0 &&
		      waitpid(-1, &st, WNOHANG | __WALL) < 0 && errno == ECHILD,
	      "a thread is never a wait child (ECHILD with __WALL)");
}

/* --- signals: process-directed, thread-directed, masks --- */
static volatile pid_t handled_tid;
static volatile int handled;

static void on_sig(int sig)
{
	(void)sig;
	handled_tid = gettid_();
	handled = 1;
}

static volatile pid_t waiter_tid;
static void *unblocked_waiter(void *arg)
{
	sigset_t s;

	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, 0);
	waiter_tid = gettid_();
	for (long i = 0; !handled && i < 2000; i++)
		nap_ms(1);
	return 0;
}

static volatile int stop_spin;
static volatile pid_t spin_tid;
static void *spinner(void *arg)
{
	(void)arg;
	spin_tid = gettid_();
	while (!stop_spin)
		nap_ms(1);
	return 0;
}

static volatile int mask_ok;
static void *masker(void *arg)
{
	sigset_t s, cur;

	(void)arg;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, 0);
	pthread_sigmask(SIG_SETMASK, 0, &cur);
	mask_ok = sigismember(&cur, SIGUSR2) == 1;
	return 0;
}

/* A new thread has no alternate signal stack (copy_process clears it for CLONE_VM). */
static volatile int altstack_disabled;
static void *altstack_thread(void *arg)
{
	stack_t old;

	(void)arg;
	altstack_disabled = sigaltstack(0, &old) == 0 && (old.ss_flags & SS_DISABLE);
	return 0;
}

static void check_altstack(void)
{
	static char alt[65536];
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof(alt)}, old, off = {.ss_flags = SS_DISABLE};
	pthread_t th;

	sigaltstack(&ss, 0);
	pthread_create(&th, 0, altstack_thread, 0);
	pthread_join(th, 0);
	check(altstack_disabled && sigaltstack(0, &old) == 0 && old.ss_sp == alt &&
		      !(old.ss_flags & SS_DISABLE),
	      "sigaltstack is per thread: a new thread has none, the main thread keeps its own");
	sigaltstack(&off, 0);
}

static void check_signals(void)
{
	struct sigaction sa;
	sigset_t s, old, cur;
	pthread_t th;
	long spins;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, 0);
	sigaction(SIGUSR2, &sa, 0);

	/* kill(): the one thread that does not block SIGUSR1 runs the handler. */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	handled = 0;
	waiter_tid = 0;
	pthread_create(&th, 0, unblocked_waiter, 0);
	for (spins = 0; !waiter_tid && spins < 2000; spins++)
		nap_ms(1);
	kill(getpid(), SIGUSR1);
	pthread_join(th, 0);
	check(handled && handled_tid == waiter_tid && waiter_tid != getpid(),
	      "kill(getpid()): handled by the thread that does not block it");
	pthread_sigmask(SIG_SETMASK, &old, 0);

	/* tgkill: to that thread, not the main one. */
	handled = 0;
	stop_spin = 0;
	spin_tid = 0;
	pthread_create(&th, 0, spinner, 0);
	for (spins = 0; !spin_tid && spins < 2000; spins++)
		nap_ms(1);
	check(syscall(SYS_tgkill, getpid(), spin_tid, SIGUSR2) == 0,
	      "tgkill(pid, tid, SIGUSR2) succeeds");
	for (spins = 0; !handled && spins < 2000; spins++)
		nap_ms(1);
	check(handled && handled_tid == spin_tid, "tgkill: the handler runs in the target thread");
	errno = 0;
	check(syscall(SYS_tgkill, getpid() + 100000, spin_tid, SIGUSR2) < 0 && errno == ESRCH,
	      "tgkill with another tgid: ESRCH");
	stop_spin = 1;
	pthread_join(th, 0);
	errno = 0;
	check(syscall(SYS_tgkill, getpid(), spin_tid, 0) < 0 && errno == ESRCH,
	      "tgkill to a joined thread: ESRCH");

	/* pthread_sigmask is the calling thread's. */
	mask_ok = 0;
	pthread_create(&th, 0, masker, 0);
	pthread_join(th, 0);
	pthread_sigmask(SIG_SETMASK, 0, &cur);
	check(mask_ok && !sigismember(&cur, SIGUSR2),
	      "pthread_sigmask: a thread's block leaves the main thread's mask alone");
}

/* --- /proc/self/task lists the threads --- */
static volatile int lister_go;
static void *lister_wait(void *arg)
{
	(void)arg;
	spin_tid = gettid_();
	while (!lister_go)
		nap_ms(1);
	return 0;
}

/* Runs /bin/busybox ps -T; true when a line starts with tid (after blanks). */
static int ps_shows_tid(pid_t tid)
{
	int fd[2], found = 0, st;
	static char buf[1 << 18];
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fd))
		return 0;
	pid = fork();
	if (pid == 0) {
		char *argv[] = {"busybox", "ps", "-T", 0};

		dup2(fd[1], 1);
		close(fd[0]);
		execv("/bin/busybox", argv);
		_exit(127);
	}
	close(fd[1]);
	while (len < sizeof(buf) - 1 && (n = read(fd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	for (char *line = buf; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : 0) {
		while (*line == ' ')
			line++;
		found |= atoi(line) == tid;
	}
	return found;
}

static void check_proc_task(void)
{
	pthread_t th;
	DIR *d;
	struct dirent *e;
	int seen_main = 0, seen_thread = 0, n = 0;
	char path[64];
	FILE *f;
	char line[128];
	int threads = 0;

	spin_tid = 0;
	lister_go = 0;
	pthread_create(&th, 0, lister_wait, 0);
	while (!spin_tid)
		nap_ms(1);
	d = opendir("/proc/self/task");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		seen_main |= atoi(e->d_name) == getpid();
		seen_thread |= atoi(e->d_name) == spin_tid;
	}
	if (d)
		closedir(d);
	check(d && seen_main && seen_thread && n == 2,
	      "/proc/self/task lists the main thread and the other one");
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)spin_tid);
	f = fopen(path, "r");
	check(f && fgets(line, sizeof(line), f) && atoi(line) == spin_tid,
	      "/proc/self/task/TID/stat: the thread's id first");
	if (f)
		fclose(f);
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Threads:", 8))
			threads = atoi(line + 8);
	if (f)
		fclose(f);
	check(threads == 2, "/proc/self/status: Threads: 2");
	check(ps_shows_tid(spin_tid), "busybox ps -T lists the thread's id");
	lister_go = 1;
	pthread_join(th, 0);
}

/* --- execve from a thread that is not the leader: it takes the pid --- */
static void *exec_thread(void *arg)
{
	char pidbuf[16];
	char *argv[] = {"lx_thread", "execd", pidbuf, 0};

	(void)arg;
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)getpid());
	execv("/proc/self/exe", argv);
	_exit(120);
	return 0;
}

static void check_exec_from_thread(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		pthread_t th;

		pthread_create(&th, 0, sleeper, 0);
		pthread_create(&th, 0, exec_thread, 0);
		for (;;)
			pause();
	}
	st = child_status(pid);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "execve from a non-leader thread: the others end, the new image has the pid");
}

/* --- clone and clone3 arguments Linux refuses --- */
struct clone_args_k {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

static long clone3_(void *args, size_t size)
{
	return syscall(SYS_clone3, args, size);
}

static int errno_of(long rc)
{
	return rc < 0 ? errno : 0;
}

static void check_clone_args(void)
{
	struct {
		struct clone_args_k a;
		uint64_t tail[2];
	} big;
	struct clone_args_k a;
	long rc;
	int st;

	errno = 0;
	rc = syscall(SYS_clone, CLONE_THREAD | CLONE_VM, 0, 0, 0, 0);
	check(rc < 0 && errno == EINVAL, "clone(CLONE_THREAD without CLONE_SIGHAND): EINVAL");
	errno = 0;
	rc = syscall(SYS_clone, CLONE_SIGHAND, 0, 0, 0, 0);
	check(rc < 0 && errno == EINVAL, "clone(CLONE_SIGHAND without CLONE_VM): EINVAL");

	memset(&a, 0, sizeof(a));
	a.exit_signal = SIGCHLD;
	check(errno_of(clone3_(&a, 63)) == EINVAL, "clone3 size 63: EINVAL");
	check(errno_of(clone3_(&a, 4097)) == E2BIG, "clone3 size past a page: E2BIG");
	check(errno_of(clone3_((void *)8, 64)) == EFAULT, "clone3 of a bad pointer: EFAULT");
	memset(&big, 0, sizeof(big));
	big.a.exit_signal = SIGCHLD;
	big.tail[1] = 1;
	check(errno_of(clone3_(&big, sizeof(big))) == E2BIG,
	      "clone3 bigger than Linux's struct, tail not zero: E2BIG");
	a.flags = CLONE_THREAD | CLONE_SIGHAND | CLONE_VM;
	check(errno_of(clone3_(&a, 64)) == EINVAL,
	      "clone3 CLONE_THREAD with an exit signal: EINVAL");
	a.flags = 0;
	a.stack = (uint64_t)(uintptr_t)&big;
	a.stack_size = 0;
	check(errno_of(clone3_(&a, 64)) == EINVAL, "clone3 with a stack of size 0: EINVAL");
	a.stack = 0;
	a.exit_signal = 65;
	check(errno_of(clone3_(&a, 64)) == EINVAL, "clone3 exit signal 65: EINVAL");
	a.exit_signal = SIGCHLD;
	a.flags = 0x00400000; /* CLONE_DETACHED */
	check(errno_of(clone3_(&a, 64)) == EINVAL, "clone3 CLONE_DETACHED: EINVAL");

	/* clone3 as fork, sizes 64, 80 and 88, and a bigger one with a zero tail */
	static const size_t sizes[] = {64, 80, 88, sizeof(big)};
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char what[80];

		memset(&big, 0, sizeof(big));
		big.a.exit_signal = SIGCHLD;
		rc = clone3_(&big, sizes[i]);
		if (rc == 0)
			_exit(3);
		st = rc > 0 ? child_status((pid_t)rc) : -1;
		snprintf(what, sizeof(what), "clone3 size %zu as fork: the child runs, exit 3",
			 sizes[i]);
		check(rc > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 3, what);
	}
}

/* --- a thread bomb: pthread_create until it fails --- */
static void *parked(void *arg)
{
	while (!*(volatile int *)arg)
		nap_ms(5);
	return 0;
}

static int bomb(void)
{
	static pthread_t th[BOMB_MAX];
	static int release;
	pthread_attr_t at;
	int n = 0, err = 0, ok = 1;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	while (n < BOMB_MAX && !(err = pthread_create(&th[n], &at, parked, &release)))
		n++;
	printf("lx_thread bomb: %d threads, then %s\n", n, err ? strerror(err) : "the cap");
	check(n > 0 && (err == EAGAIN || n == BOMB_MAX),
	      "thread bomb: pthread_create stops with EAGAIN (or the cap)");
	release = 1;
	for (int i = 0; i < n; i++)
		ok &= pthread_join(th[i], 0) == 0;
	check(ok, "thread bomb: every thread created is joined");
	check(pthread_create(&th[0], &at, parked, &release) == 0 && pthread_join(th[0], 0) == 0,
	      "thread bomb: a thread can be created again afterwards");
	return summary("lx_thread bomb");
}

/*
 * --- one thread changes the page tables, another uses them ---
 * A thread that keeps touching a page holds its translation in its CPU's
 * TLB; when another thread unmaps or write-protects the page, or forks,
 * the toucher must see the change at once (Linux's TLB shootdown), not
 * when its CPU next switches address spaces.  On one CPU this holds
 * trivially; with several, the changer and the toucher are pinned to two
 * of them, so the toucher's CPU never switches and only a shootdown can
 * take the translation away.
 */
#define TOUCH_WAIT_MS 3000

static volatile long touches; /* the toucher's accesses so far */
static volatile int touch_stop, touch_faulted;
static __thread sigjmp_buf *volatile touch_jmp; /* set in the toucher only */

static void touch_segv(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (touch_jmp)
		siglongjmp(*touch_jmp, 1);
	signal(sig, SIG_DFL); /* anyone else: the fault again, with its default action */
}

struct touch_arg {
	volatile long *p;
	int write;
	int cpu; /* where the toucher runs: -1 anywhere */
};

/* The first two CPUs this process may use, or -1: the changer's and the toucher's. */
static void touch_cpus(int cpu[2])
{
	cpu_set_t set;
	int n = 0;

	cpu[0] = cpu[1] = -1;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	if (n < 2)
		cpu[0] = cpu[1] = -1;
}

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set); /* 0: this thread */
}

static void *toucher(void *arg)
{
	struct touch_arg *a = arg;
	sigjmp_buf jb;
	long sum = 0;

	pin_self(a->cpu);
	if (sigsetjmp(jb, 1)) {
		touch_faulted = 1;
		return 0;
	}
	touch_jmp = &jb;
	while (!touch_stop) {
		if (a->write)
			(*a->p)++;
		else
			sum += *a->p;
		touches++;
	}
	touch_jmp = 0;
	return (void *)sum;
}

/* Starts a toucher of p and returns once it has touched it many times. */
static int start_toucher(pthread_t *th, struct touch_arg *a)
{
	touches = 0;
	touch_stop = touch_faulted = 0;
	if (pthread_create(th, 0, toucher, a))
		return 0;
	for (int ms = 0; touches < 100000 && ms < TOUCH_WAIT_MS; ms++)
		nap_ms(1);
	return touches >= 100000;
}

static int wait_touch_fault(void)
{
	for (int ms = 0; !touch_faulted && ms < TOUCH_WAIT_MS; ms++)
		nap_ms(1);
	return touch_faulted;
}

static void check_tlb(void)
{
	struct sigaction sa = {0}, old;
	struct touch_arg a;
	pthread_t th;
	volatile long *p;
	int ok, status = -1, cpu[2];
	pid_t pid = -1;
	cpu_set_t all;

	sched_getaffinity(0, sizeof(all), &all);
	touch_cpus(cpu);
	pin_self(cpu[0]);
	sa.sa_sigaction = touch_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &old);

	p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a = (struct touch_arg){p, 0, cpu[1]};
	ok = p != MAP_FAILED && (*p = 1) && start_toucher(&th, &a);
	ok = ok && munmap((void *)p, 4096) == 0 && wait_touch_fault();
	touch_stop = 1;
	pthread_join(th, 0);
	check(ok, "tlb: a thread reading a page faults once another thread unmaps it");

	p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a = (struct touch_arg){p, 1, cpu[1]};
	ok = p != MAP_FAILED && start_toucher(&th, &a);
	ok = ok && mprotect((void *)p, 4096, PROT_READ) == 0 && wait_touch_fault();
	touch_stop = 1;
	pthread_join(th, 0);
	check(ok, "tlb: a thread writing a page faults once another thread makes it read-only");
	if (p != MAP_FAILED)
		munmap((void *)p, 4096);

	/* the child's copy is the page as fork found it, whatever the writer goes on doing */
	p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a = (struct touch_arg){p, 1, cpu[1]};
	ok = p != MAP_FAILED && start_toucher(&th, &a);
	if (ok && (pid = fork()) == 0) {
		long first = *p;
		struct timespec ts = {0, 200 * 1000000L};

		nanosleep(&ts, 0);
		_exit(*p == first ? 0 : 1);
	}
	ok = ok && pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	     WEXITSTATUS(status) == 0;
	ok = ok && touches > 0 && !touch_faulted;
	touch_stop = 1;
	pthread_join(th, 0);
	check(ok, "tlb: a thread writing while another forks: the child's copy stays still");
	if (p != MAP_FAILED)
		munmap((void *)p, 4096);
	sigaction(SIGSEGV, &old, 0);
	sched_setaffinity(0, sizeof(all), &all);
}

/*
 * --- getrandom while another thread changes the buffer's mapping ---
 * The kernel under test runs getrandom without its big kernel lock and
 * copies out only to pages the page tables show writable
 * (kernel/syscall/syscall.c); these are what that must keep: every call
 * ends in the whole count or EFAULT, a read-only page is never written,
 * and a forked child's copy-on-write page is its own.
 */
#define RACE_ROUNDS 2000

static volatile int race_stop;

struct race_arg {
	unsigned char *p;
	int cpu;
	int unmap;	      /* 1: map and unmap the page; 0: make it read-only and back */
	volatile int written; /* the page changed while read-only */
};

static void *race_changer(void *arg)
{
	struct race_arg *a = arg;
	unsigned char snap[64];

	pin_self(a->cpu);
	for (int i = 0; i < RACE_ROUNDS && !race_stop; i++) {
		if (a->unmap) {
			munmap(a->p, 4096);
			mmap(a->p, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			continue;
		}
		mprotect(a->p, 4096, PROT_READ);
		memcpy(snap, a->p, sizeof(snap));
		for (volatile int spin = 0; spin < 20000; spin++)
			;
		if (memcmp(snap, a->p, sizeof(snap)))
			a->written = 1;
		mprotect(a->p, 4096, PROT_READ | PROT_WRITE);
	}
	race_stop = 1;
	return 0;
}

/* getrandom into p until the changer is done: 1 when every call gave 64 bytes or EFAULT. */
static int race_getrandom(struct race_arg *a, long *whole, long *efault)
{
	pthread_t th;
	int ok = 1;

	race_stop = 0;
	*whole = *efault = 0;
	if (pthread_create(&th, 0, race_changer, a))
		return 0;
	while (!race_stop) {
		long r = syscall(SYS_getrandom, a->p, 64, 0);

		if (r == 64)
			(*whole)++;
		else if (r == -1 && errno == EFAULT)
			(*efault)++;
		else
			ok = 0;
	}
	pthread_join(th, 0);
	return ok;
}

static void check_getrandom_races(void)
{
	static unsigned char cow[4096] __attribute__((aligned(4096)));
	struct race_arg a = {0};
	long whole = 0, efault = 0;
	int cpu[2], status = -1, ok;
	unsigned char zero[64] = {0};
	cpu_set_t all;
	pid_t pid;

	sched_getaffinity(0, sizeof(all), &all);
	touch_cpus(cpu);
	pin_self(cpu[0]);
	a.cpu = cpu[1];
	a.p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a.unmap = 1;
	ok = a.p != MAP_FAILED && race_getrandom(&a, &whole, &efault);
	printf("lx_thread: getrandom against munmap: %ld whole, %ld EFAULT\n", whole, efault);
	check(ok && whole + efault > 0,
	      "getrandom while another thread unmaps and maps its buffer: "
	      "64 bytes or EFAULT");
	a.unmap = 0;
	ok = a.p != MAP_FAILED && race_getrandom(&a, &whole, &efault);
	printf("lx_thread: getrandom against mprotect: %ld whole, %ld EFAULT\n", whole, efault);
	check(ok && !a.written, "getrandom while another thread write-protects its buffer: "
				"nothing lands while read-only");
	if (a.p != MAP_FAILED)
		munmap(a.p, 4096);
	sched_setaffinity(0, sizeof(all), &all);

	memset(cow, 0, sizeof(cow));
	pid = fork();
	if (pid == 0)
		_exit(syscall(SYS_getrandom, cow, 64, 0) == 64 && memcmp(cow, zero, 64) ? 0 : 1);
	ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	     WEXITSTATUS(status) == 0;
	check(ok && !memcmp(cow, zero, 64), "getrandom in a forked child fills its own copy "
					    "of a copy-on-write page, not the parent's");
}

/*
 * --- a thread's own group is itself to the access check ---
 * Linux 6.12's __ptrace_may_access lets a thread at its group's /proc
 * files and robust lists whatever its credentials (same_thread_group);
 * 2.6.29's only let a task at its own.  A thread drops to uid 1000 with the
 * raw system call (its own credentials only, not glibc's setxid broadcast)
 * and reads the leader's task/TID/maps and robust list.  Root only.
 */
struct group_self {
	pid_t leader;
	int maps_errno, robust_errno;
};

static void *drop_and_read(void *arg)
{
	struct group_self *g = arg;
	char path[64];
	void *head;
	size_t len;
	int fd;

	if (syscall(SYS_setresuid, 1000, 1000, 1000)) {
		g->maps_errno = g->robust_errno = -1;
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/maps", g->leader, g->leader);
	fd = open(path, O_RDONLY);
	g->maps_errno = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	g->robust_errno = syscall(SYS_get_robust_list, g->leader, &head, &len) ? errno : 0;
	return 0;
}

static void check_group_is_self(void)
{
	struct group_self g = {getpid(), -1, -1};
	struct utsname u;
	pthread_t th;
	bool v2629 = uname(&u) == 0 && !strncmp(u.release, "2.6.", 4);

	if (getuid() != 0)
		return; /* the drop needs root */
	check(pthread_create(&th, 0, drop_and_read, &g) == 0 && pthread_join(th, 0) == 0,
	      "a thread drops to uid 1000 alone");
	if (v2629)
		check(g.maps_errno == EACCES && g.robust_errno == EPERM,
		      "2.6.29: the leader's maps EACCES, its robust list EPERM (task == current)");
	else
		check(g.maps_errno == 0 && g.robust_errno == 0,
		      "its group's task/TID/maps and robust list stay its own (same_thread_group)");
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "execd"))
		return getpid() == atoi(argv[2]) && gettid_() == getpid() ? 0 : 1;
	if (argc > 1 && !strcmp(argv[1], "bomb"))
		return bomb();
	printf("lx_thread: pid %d\n", (int)getpid());
	check_ids();
	check_mutex_cond();
	check_exits();
	check_group_times();
	check_signals();
	check_altstack();
	check_exec_from_thread();
	check_clone_args();
	check_proc_task();
	check_group_is_self();
	check_tlb();
	check_getrandom_races();
	return summary("lx_thread");
}
