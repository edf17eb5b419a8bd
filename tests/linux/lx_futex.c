/*
 * lx_futex: a plain Linux C program (static musl, static glibc) that checks
 * futex(2) through raw syscall(SYS_futex) against Linux's behaviour: two
 * processes meeting on a MAP_SHARED page (wait/wake, requeue, bitsets), a
 * forked private page keeping its own key, EAGAIN, ETIMEDOUT (relative,
 * absolute monotonic and realtime), EINTR from a signal with a handler,
 * EFAULT, EINVAL and ENOSYS, the clear-tid wake of a CLONE_VM|CLONE_VFORK
 * child (seen by a sibling waiting on the tid word in the shared page),
 * and a robust mutex whose owner dies (the waiter woken, FUTEX_OWNER_DIED).
 * tests/sh/linux-abi.sh runs the same binaries on the host Linux.
 *
 * Usage: lx_futex; one "ok"/"FAIL" line per check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
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

/* include/uapi/linux/futex.h (musl-gcc has no kernel headers) */
#define FUTEX_WAIT		  0
#define FUTEX_WAKE		  1
#define FUTEX_REQUEUE		  3
#define FUTEX_CMP_REQUEUE	  4
#define FUTEX_WAKE_OP		  5
#define FUTEX_WAIT_BITSET	  9
#define FUTEX_WAKE_BITSET	  10
#define FUTEX_PRIVATE_FLAG	  128
#define FUTEX_CLOCK_REALTIME	  256
#define FUTEX_WAIT_PRIVATE	  (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE	  (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_OP_PRIVATE	  (FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_BITSET_MATCH_ANY	  0xffffffffu
#define FUTEX_WAITERS		  0x80000000u
#define FUTEX_OWNER_DIED	  0x40000000u
struct robust_list {
	struct robust_list *next;
};
struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

#define PG 4096UL

static long futex(volatile void *uaddr, int op, uint32_t val, const struct timespec *ts,
		  volatile void *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

/* futex with the requeue count in the timeout's place, as the ABI has it */
static long futex2(volatile void *uaddr, int op, uint32_t val, long val2, volatile void *uaddr2,
		   uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, val2, uaddr2, val3);
}

static int err_is(long r, int e)
{
	return r == -1 && errno == e;
}

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct timespec ts_of(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL)};

	return ts;
}

static void msleep(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, 0);
}

/* The shared page: words the tests use, and flags a child raises when it is about to wait. */
struct shared {
	uint32_t w[8];
	uint32_t ready[12];
	uint32_t handled; /* SA_RESTART handler runs */
	uint32_t tid;
	uint32_t pad;
	struct robust_mutex {
		struct robust_list link;
		uint32_t word;
	} lock;
};
static struct shared *sh;

static void wait_ready(int i, uint32_t n)
{
	for (int k = 0; k < 400 && __atomic_load_n(&sh->ready[i], __ATOMIC_SEQ_CST) < n; k++)
		msleep(5);
	msleep(50); /* from its flag to its futex call: one system call */
}

static int child_status(pid_t pid)
{
	int st = -1;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void test_shared_wait_wake(void)
{
	long n = 0;
	pid_t pid = fork();

	if (pid == 0) {
		__atomic_add_fetch(&sh->ready[0], 1, __ATOMIC_SEQ_CST);
		_exit(futex(&sh->w[0], FUTEX_WAIT, 0, 0, 0, 0) == 0 ? 0 : 1);
	}
	for (int k = 0; k < 400 && n == 0; k++) {
		n = futex(&sh->w[0], FUTEX_WAKE, 1, 0, 0, 0);
		if (!n)
			msleep(5);
	}
	check(n == 1, "MAP_SHARED page: another process's FUTEX_WAKE wakes the waiter (1)");
	check(child_status(pid) == 0, "MAP_SHARED page: the waiter's FUTEX_WAIT returned 0");
}

static void test_shared_bitset(void)
{
	long n2, n1 = 0;
	pid_t pid = fork();

	if (pid == 0) {
		__atomic_add_fetch(&sh->ready[1], 1, __ATOMIC_SEQ_CST);
		_exit(futex(&sh->w[1], FUTEX_WAIT_BITSET, 0, 0, 0, 0x1) == 0 ? 0 : 1);
	}
	wait_ready(1, 1);
	n2 = futex(&sh->w[1], FUTEX_WAKE_BITSET, INT_MAX, 0, 0, 0x2);
	for (int k = 0; k < 400 && n1 == 0; k++) {
		n1 = futex(&sh->w[1], FUTEX_WAKE_BITSET, INT_MAX, 0, 0, 0x1);
		if (!n1)
			msleep(5);
	}
	check(n2 == 0, "WAKE_BITSET 0x2 leaves a WAIT_BITSET 0x1 waiter");
	check(n1 == 1 && child_status(pid) == 0, "WAKE_BITSET 0x1 wakes it");
}

static void test_shared_requeue(void)
{
	pid_t pid[2];
	long moved = 0, woken;
	int ok = 1;

	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			__atomic_add_fetch(&sh->ready[2], 1, __ATOMIC_SEQ_CST);
			_exit(futex(&sh->w[2], FUTEX_WAIT, 0, 0, 0, 0) == 0 ? 0 : 1);
		}
	}
	wait_ready(2, 2);
	check(err_is(futex2(&sh->w[2], FUTEX_CMP_REQUEUE, 0, INT_MAX, &sh->w[3], 7), EAGAIN),
	      "CMP_REQUEUE with a stale value: EAGAIN");
	for (int k = 0; k < 400 && moved < 2; k++) {
		long r = futex2(&sh->w[2], FUTEX_CMP_REQUEUE, 0, INT_MAX, &sh->w[3], 0);

		if (r < 0)
			ok = 0;
		moved += r > 0 ? r : 0;
		if (moved < 2)
			msleep(5);
	}
	check(ok && moved == 2, "CMP_REQUEUE(nr_wake 0, nr_requeue INT_MAX) moves both waiters");
	check(futex(&sh->w[2], FUTEX_WAKE, INT_MAX, 0, 0, 0) == 0,
	      "after the requeue nobody waits on the first word");
	woken = futex(&sh->w[3], FUTEX_WAKE, INT_MAX, 0, 0, 0);
	check(woken == 2, "FUTEX_WAKE on the second word wakes both");
	check(child_status(pid[0]) == 0 && child_status(pid[1]) == 0,
	      "both requeued waiters returned 0");
}

/* A MAP_PRIVATE page copied by fork: a shared futex on it is each process's own. */
static void test_private_page_key(void)
{
	static uint32_t word; /* .bss: a private page */
	long total = 0;
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec ts = ts_of(300000000ULL);

		__atomic_add_fetch(&sh->ready[4], 1, __ATOMIC_SEQ_CST);
		_exit(err_is(futex(&word, FUTEX_WAIT, 0, &ts, 0, 0), ETIMEDOUT) ? 0 : 1);
	}
	wait_ready(4, 1);
	for (int k = 0; k < 10; k++) {
		total += futex(&word, FUTEX_WAKE, INT_MAX, 0, 0, 0);
		msleep(10);
	}
	check(total == 0, "a forked private page: the parent's FUTEX_WAKE finds no waiter");
	check(child_status(pid) == 0, "a forked private page: the child's wait times out");
}

static void test_errors(void)
{
	uint32_t w = 5;
	struct timespec bad = {0, 1000000000L}, zero = {0, 0};
	uint64_t t0, t1;
	struct timespec rel = ts_of(50000000ULL), abs_ts;
	void *gone = mmap(0, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	check(err_is(futex(&w, FUTEX_WAIT, 4, 0, 0, 0), EAGAIN),
	      "FUTEX_WAIT on a changed word: EAGAIN");
	check(err_is(futex(&w, FUTEX_WAIT_PRIVATE, 4, 0, 0, 0), EAGAIN),
	      "FUTEX_WAIT_PRIVATE on a changed word: EAGAIN");
	t0 = now_ns(CLOCK_MONOTONIC);
	check(err_is(futex(&w, FUTEX_WAIT_PRIVATE, 5, &rel, 0, 0), ETIMEDOUT),
	      "FUTEX_WAIT, relative 50 ms: ETIMEDOUT");
	t1 = now_ns(CLOCK_MONOTONIC);
	check(t1 - t0 >= 50000000ULL, "FUTEX_WAIT, relative 50 ms: not before 50 ms");
	t0 = now_ns(CLOCK_MONOTONIC);
	abs_ts = ts_of(t0 + 50000000ULL);
	check(err_is(futex(&w, FUTEX_WAIT_BITSET_PRIVATE, 5, &abs_ts, 0, FUTEX_BITSET_MATCH_ANY),
		     ETIMEDOUT),
	      "WAIT_BITSET, absolute CLOCK_MONOTONIC: ETIMEDOUT");
	check(now_ns(CLOCK_MONOTONIC) >= t0 + 50000000ULL,
	      "WAIT_BITSET, absolute CLOCK_MONOTONIC: not before the deadline");
	t0 = now_ns(CLOCK_REALTIME);
	abs_ts = ts_of(t0 + 50000000ULL);
	check(err_is(futex(&w, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 5, &abs_ts, 0,
			   FUTEX_BITSET_MATCH_ANY),
		     ETIMEDOUT),
	      "WAIT_BITSET|CLOCK_REALTIME, absolute: ETIMEDOUT");
	check(now_ns(CLOCK_REALTIME) >= t0 + 50000000ULL,
	      "WAIT_BITSET|CLOCK_REALTIME, absolute: not before the deadline");
	check(err_is(futex(&w, FUTEX_WAIT_BITSET, 5, &zero, 0, FUTEX_BITSET_MATCH_ANY), ETIMEDOUT),
	      "WAIT_BITSET with a deadline long past: ETIMEDOUT");
	check(err_is(futex(&w, FUTEX_WAIT, 4, &bad, 0, 0), EINVAL),
	      "tv_nsec of 10^9: EINVAL (before the word is read)");
	check(err_is(futex(&w, FUTEX_WAIT, 5, (void *)8, 0, 0), EFAULT),
	      "a bad timeout pointer: EFAULT");
	check(err_is(futex((char *)&w + 1, FUTEX_WAKE, 1, 0, 0, 0), EINVAL),
	      "a misaligned word: EINVAL");
	check(err_is(futex((void *)0xffffffff81000000UL, FUTEX_WAKE, 1, 0, 0, 0), EFAULT),
	      "a kernel address: EFAULT");
	check(err_is(futex((void *)0, FUTEX_WAIT_PRIVATE, 0, 0, 0, 0), EFAULT),
	      "FUTEX_WAIT on address 0: EFAULT");
	check(gone != MAP_FAILED && munmap(gone, PG) == 0 &&
		      err_is(futex(gone, FUTEX_WAKE, 1, 0, 0, 0), EFAULT),
	      "a shared FUTEX_WAKE on an unmapped page: EFAULT");
	check(futex(gone, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0) == 0,
	      "a private FUTEX_WAKE on an unmapped page: 0 (the memory is not read)");
	check(err_is(futex(&w, FUTEX_WAIT_BITSET, 5, 0, 0, 0), EINVAL),
	      "WAIT_BITSET, bitset 0: EINVAL");
	check(err_is(futex(&w, FUTEX_WAKE_BITSET, 1, 0, 0, 0), EINVAL),
	      "WAKE_BITSET, bitset 0: EINVAL");
	check(err_is(futex2(&w, FUTEX_REQUEUE, 1, -1, &w, 0), EINVAL),
	      "REQUEUE with nr_requeue < 0: EINVAL");
	check(err_is(futex(&w, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, 0, 0, 0), ENOSYS),
	      "FUTEX_CLOCK_REALTIME on FUTEX_WAKE: ENOSYS");
	check(err_is(futex(&w, 99, 1, 0, 0, 0), ENOSYS), "an unknown op: ENOSYS");
	check(futex(&w, FUTEX_WAKE, INT_MAX, 0, 0, 0) == 0, "FUTEX_WAKE with nobody waiting: 0");
	{
		/* WAKE_OP: w2 += 1 (it was 0, the comparison 0 == 0 holds); nobody waits */
		uint32_t w2 = 0;
		int op = (1 << 28) | (0 << 24) | (1 << 12) | 0; /* FUTEX_OP(ADD, 1, CMP_EQ, 0) */

		check(futex2(&w, FUTEX_WAKE_OP_PRIVATE, 1, 1, &w2, (uint32_t)op) == 0 && w2 == 1,
		      "WAKE_OP ADD 1: the second word incremented, nobody woken");
	}
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void test_eintr(int timed)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		static uint32_t mine;
		struct sigaction sa;
		struct timespec ts = ts_of(5000000000ULL);

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1; /* no SA_RESTART */
		sigaction(SIGUSR1, &sa, 0);
		__atomic_add_fetch(&sh->ready[5 + timed], 1, __ATOMIC_SEQ_CST);
		_exit(err_is(futex(&mine, FUTEX_WAIT_PRIVATE, 0, timed ? &ts : 0, 0, 0), EINTR)
			      ? 0
			      : 1);
	}
	wait_ready(5 + timed, 1);
	/* until it is gone: a signal that came before its wait would leave it waiting */
	for (int k = 0; k < 100 && waitpid(pid, &st, WNOHANG) == 0; k++) {
		kill(pid, SIGUSR1);
		msleep(20);
	}
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      timed ? "a signal with a handler ends a timed FUTEX_WAIT: EINTR"
		    : "a signal with a handler ends FUTEX_WAIT: EINTR");
}

static void on_usr1_count(int sig)
{
	(void)sig;
	__atomic_add_fetch(&sh->handled, 1, __ATOMIC_SEQ_CST);
}

/*
 * SA_RESTART: an untimed FUTEX_WAIT (-ERESTARTSYS) is restarted after the
 * handler and goes on waiting until a wake; a timed one
 * (-ERESTART_RESTARTBLOCK) ends with EINTR all the same, as Linux 6.6.
 */
static void test_sa_restart(int timed)
{
	pid_t pid = fork();
	long n = 0;
	int st = -1;

	if (pid == 0) {
		struct sigaction sa;
		struct timespec ts = ts_of(5000000000ULL);
		long r;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1_count;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGUSR1, &sa, 0);
		__atomic_add_fetch(&sh->ready[8 + timed], 1, __ATOMIC_SEQ_CST);
		r = futex(&sh->w[6 + timed], FUTEX_WAIT, 0, timed ? &ts : 0, 0, 0);
		_exit(timed ? !err_is(r, EINTR) : r != 0);
	}
	wait_ready(8 + timed, 1);
	sh->handled = 0;
	kill(pid, SIGUSR1);
	for (int k = 0; k < 400 && !__atomic_load_n(&sh->handled, __ATOMIC_SEQ_CST); k++)
		msleep(5);
	msleep(50);
	if (!timed) {
		check(waitpid(pid, &st, WNOHANG) == 0,
		      "SA_RESTART: after its handler an untimed FUTEX_WAIT waits on");
		for (int k = 0; k < 400 && n == 0; k++) {
			n = futex(&sh->w[6], FUTEX_WAKE, 1, 0, 0, 0);
			if (!n)
				msleep(5);
		}
	}
	for (int k = 0; k < 100 && waitpid(pid, &st, WNOHANG) == 0; k++)
		msleep(20);
	if (pid > 0 && !WIFEXITED(st)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && sh->handled == 1,
	      timed ? "SA_RESTART: a timed FUTEX_WAIT still ends with EINTR"
		    : "SA_RESTART: the restarted wait returns 0 on a wake");
}

/* The vfork child: a moment, then it exits, and the kernel clears and wakes the tid word. */
static int vfork_child(void *arg)
{
	(void)arg;
	msleep(200);
	return 0;
}

static void test_clear_tid(void)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	pid_t waiter, child;
	int ok;

	sh->tid = 12345;
	waiter = fork();
	if (waiter == 0) {
		struct timespec ts = ts_of(5000000000ULL);
		long r;

		__atomic_add_fetch(&sh->ready[7], 1, __ATOMIC_SEQ_CST);
		r = futex(&sh->tid, FUTEX_WAIT, 12345, &ts, 0, 0);
		_exit(r == 0 && sh->tid == 0 ? 0 : 1);
	}
	wait_ready(7, 1);
	child = clone(vfork_child, stack + sizeof(stack),
		      CLONE_VM | CLONE_VFORK | CLONE_CHILD_CLEARTID | SIGCHLD, 0, 0, 0, &sh->tid);
	ok = child > 0 && child_status(child) == 0;
	check(ok && sh->tid == 0, "a CLONE_VM|CLONE_VFORK child's exit zeroes its clear-tid word");
	check(child_status(waiter) == 0,
	      "its FUTEX_WAKE wakes a process waiting on that word (MAP_SHARED page)");
}

static void test_robust(void)
{
	struct robust_list_head *got = 0;
	size_t len = 0;
	pid_t owner, waiter;
	struct timespec ts = ts_of(5000000000ULL);

	owner = fork();
	if (owner == 0) {
		static struct robust_list_head head;

		head.list.next = &sh->lock.link;
		head.futex_offset = (long)offsetof(struct robust_mutex, word);
		head.list_op_pending = 0;
		sh->lock.link.next = &head.list;
		__atomic_store_n(&sh->lock.word, (uint32_t)getpid() | FUTEX_WAITERS,
				 __ATOMIC_SEQ_CST);
		if (syscall(SYS_set_robust_list, &head, sizeof(head)))
			_exit(2);
		if (syscall(SYS_get_robust_list, 0, &got, &len) || got != &head ||
		    len != sizeof(head))
			_exit(3);
		__atomic_add_fetch(&sh->ready[3], 1, __ATOMIC_SEQ_CST);
		msleep(300);
		_exit(0); /* dies holding the lock */
	}
	wait_ready(3, 1);
	waiter = fork();
	if (waiter == 0) {
		uint32_t v = (uint32_t)owner | FUTEX_WAITERS;
		long r = futex(&sh->lock.word, FUTEX_WAIT, v, &ts, 0, 0);

		_exit(r == 0 ? 0 : 1);
	}
	check(child_status(owner) == 0,
	      "set_robust_list then get_robust_list(0): the same head, 24");
	check(child_status(waiter) == 0, "the robust lock's owner dies: its waiter is woken");
	check(sh->lock.word == (FUTEX_OWNER_DIED | FUTEX_WAITERS),
	      "the word: FUTEX_OWNER_DIED | FUTEX_WAITERS, the owner's tid gone");
	check(err_is(syscall(SYS_get_robust_list, 0, (void *)8, &len), EFAULT),
	      "get_robust_list to a bad pointer: EFAULT");
	check(err_is(syscall(SYS_get_robust_list, INT_MAX, &got, &len), ESRCH),
	      "get_robust_list of no such pid: ESRCH");
}

int main(void)
{
	sh = mmap(0, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check(sh != MAP_FAILED, "mmap MAP_SHARED|MAP_ANONYMOUS");
	if (sh == MAP_FAILED)
		return summary("lx_futex");
	test_shared_wait_wake();
	test_shared_bitset();
	test_shared_requeue();
	test_private_page_key();
	test_errors();
	test_eintr(0);
	test_eintr(1);
	test_sa_restart(0);
	test_sa_restart(1);
	test_clear_tid();
	test_robust();
	return summary("lx_futex");
}
