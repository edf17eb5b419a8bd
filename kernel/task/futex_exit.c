/*
 * What a dying task owes the futexes of others, as Linux 6.6's
 * exit_mm_release: the robust list is walked (linux/kernel/futex/core.c's
 * exit_robust_list), then the clear-tid word is zeroed and woken
 * (linux/kernel/fork.c's mm_release).  Both read user memory the task may have
 * left in any state: a fault ends the walk quietly, and the walk is bounded.
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/futex.h"
#include "kernel/task/sched.h"

/*
 * struct robust_list_head: list.next, futex_offset, list_op_pending, each
 * a long; struct compat_robust_list_head the same in 32-bit words (an IA-32
 * task's, include/linux/compat.h).  w is the word size, 8 or 4.
 */
#define ROBUST_HEAD_NEXT(w)    0
#define ROBUST_HEAD_OFFSET(w)  (w)
#define ROBUST_HEAD_PENDING(w) (2 * (w))

/* A word of w bytes at uaddr, zero-extended (a compat_uptr_t) or as it is. */
static int get_user_word(uint64_t *v, uint64_t uaddr, unsigned w)
{
	*v = 0;
	return copy_from_user(v, uaddr, w) ? -EFAULT : 0;
}

/*
 * fetch_robust_entry (compat_fetch_robust_entry for w 4): the entry the
 * pointer at head points to, bit 0 the PI flag.
 */
static int fetch_robust_entry(uint64_t *entry, uint64_t head, unsigned *pi, unsigned w)
{
	uint64_t uentry;

	if (get_user_word(&uentry, head, w))
		return -EFAULT;
	*entry = uentry & ~1ULL;
	*pi = uentry & 1;
	return 0;
}

/*
 * The futex word of an entry: entry + futex_offset, the offset a signed
 * long; for a compat list a compat_long_t added in 32 bits (6.6's
 * futex_uaddr: compat_ptr(ptr_to_compat(entry) + futex_offset)).
 */
static uint64_t futex_uaddr(uint64_t entry, uint64_t futex_offset, unsigned w)
{
	if (w == 4)
		return (uint32_t)(entry + (uint64_t)(int64_t)(int32_t)futex_offset);
	return entry + futex_offset;
}

/*
 * handle_futex_death: if the word at uaddr names t as its owner, it gets
 * FUTEX_OWNER_DIED (FUTEX_WAITERS kept) and, if it had waiters, one is
 * woken; a pending operation on an unowned word wakes one too (the unlock
 * race Linux's comment describes).  PI futexes are not implemented here,
 * so a PI entry is marked but nobody is woken, as Linux leaves that to
 * exit_pi_state.  -1 ends the walk (misaligned or unreadable).
 */
static int handle_futex_death(uint64_t uaddr, struct task_struct *t, bool pi, bool pending_op)
{
	uint32_t uval, mval;

	if (uaddr % sizeof(uint32_t))
		return -1;
	if (copy_from_user(&uval, uaddr, sizeof(uval)))
		return -1;
	if (pending_op && !pi && !(uval & FUTEX_TID_MASK)) {
		futex_wake(uaddr, FLAGS_SHARED, 1, FUTEX_BITSET_MATCH_ANY);
		return 0;
	}
	if ((int)(uval & FUTEX_TID_MASK) != t->pid)
		return 0;
	/* the cmpxchg: nothing else runs between the read and this write */
	mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (copy_to_user(uaddr, &mval, sizeof(mval)))
		return -1;
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(uaddr, FLAGS_SHARED, 1, FUTEX_BITSET_MATCH_ANY);
	return 0;
}

/*
 * exit_robust_list, and compat_exit_robust_list with w 4 (6.6
 * linux/kernel/futex/core.c): the same walk over 32-bit pointers.
 */
static void exit_robust_list(struct task_struct *t, uint64_t head, unsigned w)
{
	uint64_t entry, next_entry = 0, pending, futex_offset;
	unsigned limit = ROBUST_LIST_LIMIT, pi, pip, next_pi = 0;

	if (fetch_robust_entry(&entry, head + ROBUST_HEAD_NEXT(w), &pi, w))
		return;
	if (get_user_word(&futex_offset, head + ROBUST_HEAD_OFFSET(w), w))
		return;
	if (fetch_robust_entry(&pending, head + ROBUST_HEAD_PENDING(w), &pip, w))
		return;
	while (entry != head) {
		int rc = fetch_robust_entry(&next_entry, entry, &next_pi, w);

		/* the pending entry is handled last, once */
		if (entry != pending &&
		    handle_futex_death(futex_uaddr(entry, futex_offset, w), t, pi, false))
			return;
		if (rc)
			return;
		entry = next_entry;
		pi = next_pi;
		if (!--limit)
			break;
		cond_resched();
	}
	if (pending)
		handle_futex_death(futex_uaddr(pending, futex_offset, w), t, pip, true);
}

void mm_release(struct task_struct *t)
{
	/* futex_exit_release (futex_cleanup): the robust list first */
	if (t->robust_list && t->mm) {
		exit_robust_list(t, t->robust_list, 8);
		t->robust_list = 0;
	}
	if (t->compat_robust_list && t->mm) {
		exit_robust_list(t, t->compat_robust_list, 4);
		t->compat_robust_list = 0;
	}
	/*
	 * mm_release: only when the mm has other users (a CLONE_VM relative,
	 * a thread) is anyone left to see the word; errors are ignored, as
	 * Linux ("if userspace has not set up a proper pointer then tough luck").
	 */
	if (t->clear_child_tid) {
		if (t->mm && t->mm->users > 1) {
			uint32_t zero = 0;

			copy_to_user(t->clear_child_tid, &zero, sizeof(zero));
			futex_wake(t->clear_child_tid, FLAGS_SHARED, 1, FUTEX_BITSET_MATCH_ANY);
		}
		t->clear_child_tid = 0;
	}
}
