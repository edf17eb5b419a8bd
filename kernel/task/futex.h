/*
 * Fast user-space mutexes, as Linux 6.6's kernel/futex/ (core.c, waitwake.c,
 * requeue.c): the kernel side of a word in user memory that tasks wait on
 * and wake each other through.  The system call's argument parsing is
 * kernel/syscall/sys_futex.c (Linux's syscalls.c); the robust list and the
 * clear-tid word at exit are futex_exit.c.
 */
#ifndef KERNEL_TASK_FUTEX_H
#define KERNEL_TASK_FUTEX_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/task/task.h"

/* The op word (include/uapi/linux/futex.h). */
#define FUTEX_WAIT	       0
#define FUTEX_WAKE	       1
#define FUTEX_FD	       2
#define FUTEX_REQUEUE	       3
#define FUTEX_CMP_REQUEUE      4
#define FUTEX_WAKE_OP	       5
#define FUTEX_LOCK_PI	       6
#define FUTEX_UNLOCK_PI	       7
#define FUTEX_TRYLOCK_PI       8
#define FUTEX_WAIT_BITSET      9
#define FUTEX_WAKE_BITSET      10
#define FUTEX_WAIT_REQUEUE_PI  11
#define FUTEX_CMP_REQUEUE_PI   12
#define FUTEX_LOCK_PI2	       13
#define FUTEX_PRIVATE_FLAG     128
#define FUTEX_CLOCK_REALTIME   256
#define FUTEX_CMD_MASK	       (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

/* The robust-futex word's bits. */
#define FUTEX_WAITERS	  0x80000000u
#define FUTEX_OWNER_DIED  0x40000000u
#define FUTEX_TID_MASK	  0x3fffffffu
#define ROBUST_LIST_LIMIT 2048 /* entries walked at most, as Linux */

/* do_futex's flags (linux/kernel/futex/futex.h) */
#define FLAGS_SHARED  0x01
#define FLAGS_CLOCKRT 0x02

/*
 * Linux's union futex_key: a private futex is (mm, address); a shared one
 * on a MAP_SHARED page is the physical page and the offset in it, so that
 * every process mapping that page meets; a shared futex on a private page
 * is (mm, address) marked MMSHARED (Linux's FUT_OFF_MMSHARED), which a
 * private futex on the same word does not match.
 */
enum futex_key_kind { FUTEX_KEY_PRIVATE, FUTEX_KEY_MMSHARED, FUTEX_KEY_PAGE };
struct futex_key {
	enum futex_key_kind kind;
	uint64_t ptr; /* the mm_struct, or the physical page */
	uint64_t off; /* the user address, or the offset in the page */
};

/* A waiter, on its own kernel stack for the time of its wait (struct futex_q). */
struct futex_q {
	struct futex_q *next, *prev;
	struct futex_key key;
	struct task_struct *task;
	uint32_t bitset;
	bool queued; /* false once a waker took it off (Linux's lock_ptr = NULL) */
};

int get_futex_key(uint64_t uaddr, unsigned flags, struct futex_key *key);
/* deadline: ktime_get_ns() at which the wait ends (0: none). */
long futex_wait(uint64_t uaddr, unsigned flags, uint32_t val, uint64_t deadline, uint32_t bitset);
long futex_wake(uint64_t uaddr, unsigned flags, int nr_wake, uint32_t bitset);
long futex_requeue(uint64_t uaddr1, unsigned flags, uint64_t uaddr2, int nr_wake, int nr_requeue,
		   const uint32_t *cmpval);
long futex_wake_op(uint64_t uaddr1, unsigned flags, uint64_t uaddr2, int nr_wake, int nr_wake2,
		   uint32_t op);
/* Waiters queued now, on every key (the fuzzer's check that none is left behind). */
int futex_nr_queued(void);

/*
 * Exit (and exec) of t, which is current, before its mm goes: the robust
 * list is walked and the clear-tid word zeroed and woken, as Linux 6.6's
 * exit_mm_release (futex_exit_release + mm_release).
 */
void mm_release(struct task_struct *t);

#endif
