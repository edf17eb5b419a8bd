/*
 * lx_reliab: what a hostile program found at the edges of clone, vfork,
 * exit_group and futex, checked as Linux 6.12 behaves (the same binary
 * passes under it).  Run as root or not; the group-exit race needs two or
 * more CPUs to mean anything, and passes trivially on one.
 *
 *   - a thread created while another thread of the process runs exit_group
 *     must not outlive the group: every such process is reaped in time
 *     (copy_process refuses with a fatal signal pending);
 *   - a process waiting in vfork() for its child dies of SIGKILL
 *     (wait_for_vfork_done is killable);
 *   - a shared futex on a read-only private anonymous page is EFAULT, a
 *     private one does not look;
 *   - FUTEX_WAKE_OP's add is atomic against another CPU's lock xadd on the
 *     same word (none lost);
 *   - a waiter on a MAP_SHARED page that is unmapped while it sleeps is not
 *     woken by a wake on whatever page is mapped next;
 *   - legacy clone takes any exit signal (65 here: no signal is sent, and
 *     __WALL reaps the child); clone3 takes CLONE_CLEAR_SIGHAND.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define FUTEX_WAIT	   0
#define FUTEX_WAKE	   1
#define FUTEX_WAKE_OP	   5
#define FUTEX_WAKE_PRIVATE 129			     /* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */
#define FUTEX_OP_ADD_1	   ((1u << 28) | (1u << 12)) /* FUTEX_OP(FUTEX_OP_ADD, 1, CMP_EQ, 0) */
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#define CLONE_CLEAR_SIGHAND_ 0x100000000ULL
#ifndef __WALL
#define __WALL 0x40000000
#endif

/* waitpid(pid) for at most ms milliseconds: its status, or -1 when it did not end. */
static int wait_bounded(pid_t pid, int ms, int options)
{
	int st;

	for (int i = 0; i < ms / 5; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG | options);

		if (r == pid)
			return st;
		if (r < 0)
			return -1;
		usleep(5000);
	}
	return -1;
}

/* --- threads created while the group exits --- */
static void *nothing(void *arg)
{
	return arg;
}

static void *spawner(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_t t;

		if (pthread_create(&t, 0, nothing, 0) == 0)
			pthread_detach(t);
	}
	return 0;
}

static void check_clone_vs_exit_group(void)
{
	int stuck = 0, rounds = 40;

	for (int i = 0; i < rounds && !stuck; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			pthread_t a, b;

			pthread_create(&a, 0, spawner, 0);
			pthread_create(&b, 0, spawner, 0);
			usleep(1000 * (i % 5));
			_exit(0); /* exit_group while the two spawn threads */
		}
		if (pid < 0 || wait_bounded(pid, 10000, 0) < 0) {
			stuck++;
			if (pid > 0)
				kill(pid, SIGKILL);
		}
	}
	check(stuck == 0, "40 processes whose threads clone during exit_group are all reaped "
			  "within 10 s each");
}

/* --- a vfork parent is killable --- */
static void check_vfork_killable(void)
{
	int pfd[2], st = -1;
	pid_t victim, child = 0;

	if (pipe(pfd))
		return;
	victim = fork();
	if (victim == 0) {
		if (vfork() == 0) {
			pid_t me = getpid();

			if (write(pfd[1], &me, sizeof(me)) != sizeof(me))
				_exit(1);
			pause(); /* the parent waits in vfork until this execs or exits */
			_exit(0);
		}
		_exit(3);
	}
	close(pfd[1]);
	if (read(pfd[0], &child, sizeof(child)) != sizeof(child))
		child = 0;
	close(pfd[0]);
	usleep(100000);
	kill(victim, SIGKILL);
	st = wait_bounded(victim, 5000, 0);
	check(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	      "a process waiting in vfork() dies of SIGKILL");
	if (child > 0)
		kill(child, SIGKILL);
	if (st < 0)
		kill(victim, SIGKILL);
}

/* --- futexes on a read-only private page --- */
static long futex(void *uaddr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, uaddr, op, val, ts, 0, 0);
}

static void check_futex_readonly(void)
{
	struct timespec second = {1, 0};
	uint32_t *p = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long r;

	if (p == MAP_FAILED)
		return;
	errno = 0;
	r = futex(p, FUTEX_WAKE, 1, 0);
	check(r == -1 && errno == EFAULT,
	      "FUTEX_WAKE (shared) on a read-only private page: EFAULT");
	errno = 0;
	r = futex(p, FUTEX_WAIT, 0, &second);
	check(r == -1 && errno == EFAULT,
	      "FUTEX_WAIT (shared) on a read-only private page: EFAULT");
	check(futex(p, FUTEX_WAKE_PRIVATE, 1, 0) == 0,
	      "FUTEX_WAKE_PRIVATE there: 0 (a private futex does not look at the page)");
	munmap(p, 4096);
}

/* --- FUTEX_WAKE_OP against another CPU's atomic adds --- */
static uint32_t wakeop_word;
static volatile int wakeop_done;

static void *xadd_loop(void *arg)
{
	long *adds = arg;

	while (!wakeop_done) {
		__atomic_fetch_add(&wakeop_word, 1, __ATOMIC_SEQ_CST);
		(*adds)++;
	}
	return 0;
}

static void check_wake_op_atomic(void)
{
	uint32_t other = 0;
	long adds = 0, ops = 20000;
	pthread_t th;

	if (pthread_create(&th, 0, xadd_loop, &adds))
		return;
	for (long i = 0; i < ops; i++)
		syscall(SYS_futex, &other, FUTEX_WAKE_OP, 0, (void *)0, &wakeop_word,
			FUTEX_OP_ADD_1);
	wakeop_done = 1;
	pthread_join(th, 0);
	printf("lx_reliab: %ld FUTEX_WAKE_OP adds, %ld lock xadds, word %u\n", ops, adds,
	       wakeop_word);
	check(wakeop_word == (uint32_t)(ops + adds),
	      "FUTEX_WAKE_OP's add and another thread's lock xadd: none lost");
}

/* --- a shared futex whose page goes away while its waiter sleeps --- */
static void *wait_on(void *arg)
{
	struct timespec second = {1, 0};
	long *r = arg;

	*r = futex((void *)r[1], FUTEX_WAIT, 0, &second) ? -errno : 0;
	return 0;
}

static void check_futex_unmapped_page(void)
{
	long r[2] = {1, 0}, woken = 0;
	uint32_t *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_t th;

	if (p == MAP_FAILED)
		return;
	*p = 0;
	r[1] = (long)p;
	if (pthread_create(&th, 0, wait_on, r))
		return;
	usleep(100000); /* the waiter sleeps on p's page */
	munmap(p, 4096);
	for (int i = 0; i < 64; i++) {
		uint32_t *q =
			mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (q == MAP_FAILED)
			break;
		*q = 0;
		woken += futex(q, FUTEX_WAKE, 1, 0) > 0;
		munmap(q, 4096);
	}
	pthread_join(th, 0);
	check(woken == 0 && r[0] == -ETIMEDOUT,
	      "a waiter whose MAP_SHARED page was unmapped: no wake on a later page reaches it");
}

/* --- clone's exit signal and clone3's CLONE_CLEAR_SIGHAND --- */
static void on_usr1(int sig)
{
	(void)sig;
}

static void check_clone_flags(void)
{
	struct {
		uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	} args;
	struct sigaction sa, usr1, usr2;
	long pid;
	int st = -1;

	pid = syscall(SYS_clone, 65L, 0L, 0L, 0L, 0L);
	if (pid == 0)
		_exit(7);
	check(pid > 0 && waitpid((pid_t)pid, &st, __WALL) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 7,
	      "legacy clone with exit signal 65: the child runs, __WALL reaps it");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, 0);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGUSR2, &sa, 0);
	memset(&args, 0, sizeof(args));
	args.flags = CLONE_CLEAR_SIGHAND_;
	args.exit_signal = SIGCHLD;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		sigaction(SIGUSR1, 0, &usr1);
		sigaction(SIGUSR2, 0, &usr2);
		_exit(usr1.sa_handler == SIG_DFL && usr2.sa_handler == SIG_IGN ? 0 : 1);
	}
	st = -1;
	check(pid > 0 && waitpid((pid_t)pid, &st, 0) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0,
	      "clone3 with CLONE_CLEAR_SIGHAND: caught signals SIG_DFL, ignored ones kept");
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

int main(void)
{
	printf("lx_reliab: pid %d, %ld CPUs\n", (int)getpid(), sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);
	check_clone_flags();
	check_futex_readonly();
	check_wake_op_atomic();
	check_futex_unmapped_page();
	check_vfork_killable();
	check_clone_vs_exit_group();
	return summary("lx_reliab");
}
