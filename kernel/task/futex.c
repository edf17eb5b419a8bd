/*
 * Futexes: keys, the hash table of waiters, wait, wake, requeue and wake-op,
 * following Linux 6.6 (linux/kernel/futex/core.c, waitwake.c, requeue.c).
 *
 * Linux takes a bucket's spinlock between reading the user word and
 * queueing the waiter, so that a waker that changed the word either sees
 * the waiter queued or the waiter sees the new value.  Here one CPU runs a
 * non-preemptible kernel: from the read of the word to the sleep nothing
 * else runs (a page fault on the word is resolved at once, it never
 * sleeps), which gives the same guarantee without the lock.  The timer
 * interrupt only makes sleepers runnable; it never touches the queues.
 *
 * A waiter's futex_q lives on its kernel stack and it alone takes itself
 * off a queue when it returns without being woken (timeout, signal), so a
 * task that exits or is killed while waiting leaves no entry behind: a
 * fatal signal ends the sleep first, and do_exit runs on the way back to
 * ring 3.  Every call does work bounded by the number of queued waiters
 * (at most one per task), whatever nr_wake and nr_requeue say.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/lib/errno.h"
#include "kernel/arch/timer.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/futex.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"

#define FUTEX_HASHBITS 8 /* 256 buckets; Linux sizes it 256 per CPU */

struct futex_hash_bucket {
	struct futex_q *first, *last;
};

static struct futex_hash_bucket futex_queues[1 << FUTEX_HASHBITS];

static struct futex_hash_bucket *futex_hash(const struct futex_key *key)
{
	uint64_t h = key->ptr * 0x9e3779b97f4a7c15ULL ^ key->off * 0xc2b2ae3d27d4eb4fULL ^
		     (uint64_t)key->kind;

	h ^= h >> 29;
	return &futex_queues[(h * 0xbf58476d1ce4e5b9ULL) >> (64 - FUTEX_HASHBITS)];
}

static bool futex_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->kind == b->kind && a->ptr == b->ptr && a->off == b->off;
}

/*
 * Linux 6.6's get_futex_key: misaligned is EINVAL, outside the user half
 * EFAULT; a private futex never touches the memory.  A shared one needs
 * the mapping: absent or PROT_NONE is EFAULT (get_user_pages fails); on a
 * MAP_SHARED page the key is the frame, which is faulted in if absent.
 */
int get_futex_key(uint64_t uaddr, unsigned flags, struct futex_key *key)
{
	struct mm_struct *mm = current->mm;
	struct vm_area *v;
	uint64_t pa, pte_flags;

	if (uaddr % sizeof(uint32_t))
		return -EINVAL;
	if (!access_ok(uaddr, sizeof(uint32_t)) || !mm)
		return -EFAULT;
	key->kind = FUTEX_KEY_PRIVATE;
	key->ptr = (uint64_t)mm;
	key->off = uaddr;
	if (!(flags & FLAGS_SHARED))
		return 0;
	v = find_vma(mm, uaddr);
	if (!v || !(v->flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;
	if (!(v->flags & VM_SHARED)) {
		/* get_futex_key: "a RO anonymous page will never change": no futex on one */
		if (!(v->flags & VM_WRITE) && !v->vm_file)
			return -EFAULT;
		/* an anonymous or private page: its own key in each process, as Linux's PageAnon */
		key->kind = FUTEX_KEY_MMSHARED;
		return 0;
	}
	if (vmm_translate(mm->pml4, uaddr, &pa, &pte_flags) &&
	    (handle_mm_fault(mm, uaddr, false) || vmm_translate(mm->pml4, uaddr, &pa, &pte_flags)))
		return -EFAULT;
	key->kind = FUTEX_KEY_PAGE;
	key->ptr = pa & ~(PAGE_SIZE - 1);
	key->off = uaddr & (PAGE_SIZE - 1);
	return 0;
}

/*
 * A waiter on a MAP_SHARED page holds the frame its key names, as Linux's
 * get_futex_key_refs held the mapping: were it freed while the waiter
 * sleeps (the last mapping unmapped), a later owner of the frame would
 * compute the same key and could wake a stranger's waiter.
 */
static void futex_queue(struct futex_q *q)
{
	struct futex_hash_bucket *hb = futex_hash(&q->key);

	if (q->key.kind == FUTEX_KEY_PAGE)
		page_ref_get(q->key.ptr);
	q->next = 0;
	q->prev = hb->last;
	if (hb->last)
		hb->last->next = q;
	else
		hb->first = q;
	hb->last = q;
	q->queued = true;
}

static void __futex_unqueue(struct futex_q *q)
{
	struct futex_hash_bucket *hb = futex_hash(&q->key);

	if (q->prev)
		q->prev->next = q->next;
	else
		hb->first = q->next;
	if (q->next)
		q->next->prev = q->prev;
	else
		hb->last = q->prev;
	q->next = q->prev = 0;
	q->queued = false;
	if (q->key.kind == FUTEX_KEY_PAGE)
		page_ref_put(q->key.ptr);
}

/* Linux's futex_unqueue: 1 if q was still queued (not woken), 0 if a waker took it. */
static int futex_unqueue(struct futex_q *q)
{
	int was = q->queued;

	if (was)
		__futex_unqueue(q);
	return was;
}

/* futex_wake_mark + wake_up_q: off the queue, then runnable. */
static void futex_wake_mark(struct futex_q *q)
{
	struct task_struct *t = q->task;

	__futex_unqueue(q);
	if (t->state == TASK_INTERRUPTIBLE && t->sleep_chan == q)
		wake_up_process(t);
}

static int futex_get_value(uint32_t *val, uint64_t uaddr)
{
	return copy_from_user(val, uaddr, sizeof(*val)) ? -EFAULT : 0;
}

/* futex_wait_setup: the key, the word compared with val, the waiter queued. */
static int futex_wait_setup(uint64_t uaddr, uint32_t val, unsigned flags, struct futex_q *q)
{
	uint32_t uval;
	int rc = get_futex_key(uaddr, flags, &q->key);

	if (rc)
		return rc;
	if (futex_get_value(&uval, uaddr))
		return -EFAULT;
	if (uval != val)
		return -EAGAIN; /* EWOULDBLOCK */
	futex_queue(q);
	return 0;
}

/*
 * Linux 6.6's futex_wait: 0 when woken, EAGAIN when the word is not val,
 * ETIMEDOUT, or on a signal -ERESTARTSYS (no timeout) or
 * -ERESTART_RESTARTBLOCK (a timeout), which a handler turns into EINTR.
 * Linux restarts the latter with the time that is left (futex_wait_restart);
 * here a signal without a handler kills or is dropped when sent, so no
 * restart without a handler arises (see signal_deliver.c).
 */
long futex_wait(uint64_t uaddr, unsigned flags, uint32_t val, uint64_t deadline, uint32_t bitset)
{
	struct task_struct *t = current;
	struct futex_q q = {.task = t, .bitset = bitset};
	int rc;

	kernel_lock_assert_held("futex_wait");
	if (!bitset)
		return -EINVAL;
	rc = futex_wait_setup(uaddr, val, flags, &q);
	if (rc)
		return rc;
	/* futex_wait_queue: no sleep when the timer already expired */
	while (q.queued && !signal_pending(t) && !deadline_passed(deadline))
		sleep_on_interruptible(&q, deadline ? jiffies_for_deadline(deadline) : 0,
				       (const void *)futex_wait);
	if (!futex_unqueue(&q))
		return 0;
	if (deadline_passed(deadline))
		return -ETIMEDOUT;
	return deadline ? -ERESTART_RESTARTBLOCK : -ERESTARTSYS;
}

/* Linux 6.6's futex_wake: how many were woken; nr_wake 0 still wakes one, as Linux. */
long futex_wake(uint64_t uaddr, unsigned flags, int nr_wake, uint32_t bitset)
{
	struct futex_key key;
	struct futex_q *q, *next;
	int rc, ret = 0;

	kernel_lock_assert_held("futex_wake");
	if (!bitset)
		return -EINVAL;
	rc = get_futex_key(uaddr, flags, &key);
	if (rc)
		return rc;
	for (q = futex_hash(&key)->first; q; q = next) {
		next = q->next;
		if (!futex_match(&q->key, &key) || !(q->bitset & bitset))
			continue;
		futex_wake_mark(q);
		if (++ret >= nr_wake)
			break;
	}
	return ret;
}

/* requeue_futex: q moves from key1's queue to key2's. */
static void requeue_futex(struct futex_q *q, const struct futex_key *key2)
{
	__futex_unqueue(q);
	q->key = *key2;
	futex_queue(q);
}

/*
 * Linux 6.6's futex_requeue without PI: wakes nr_wake waiters of uaddr1
 * and moves up to nr_requeue more to uaddr2; CMP_REQUEUE first checks that
 * uaddr1 still holds *cmpval (EAGAIN).  Returns woken plus requeued.
 */
long futex_requeue(uint64_t uaddr1, unsigned flags, uint64_t uaddr2, int nr_wake, int nr_requeue,
		   const uint32_t *cmpval)
{
	struct futex_key key1, key2;
	struct futex_q *q, *next, *stop;
	int rc, task_count = 0;

	kernel_lock_assert_held("futex_requeue");
	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	rc = get_futex_key(uaddr1, flags, &key1);
	if (!rc)
		rc = get_futex_key(uaddr2, flags, &key2);
	if (rc)
		return rc;
	if (cmpval) {
		uint32_t curval;

		if (futex_get_value(&curval, uaddr1))
			return -EFAULT;
		if (curval != *cmpval)
			return -EAGAIN;
	}
	/*
	 * Requeued onto the same bucket, a waiter goes to its tail: stop at
	 * the bucket's last entry as it was, so no waiter is seen twice.
	 */
	stop = futex_hash(&key1)->last;
	for (q = futex_hash(&key1)->first; q; q = next) {
		bool last = q == stop;

		next = q->next;
		if (task_count - nr_wake >= nr_requeue)
			break;
		if (futex_match(&q->key, &key1)) {
			if (++task_count <= nr_wake)
				futex_wake_mark(q);
			else
				requeue_futex(q, &key2);
		}
		if (last)
			break;
	}
	return task_count;
}

/*
 * Linux 6.6's futex_atomic_op_inuser (x86's arch_futex_atomic_op_inuser):
 * the op applied to the word at uaddr, the old value compared; 1 or 0, or
 * -ENOSYS for an unknown op or comparison, -EFAULT.  Atomic against every
 * CPU, as x86's lock cmpxchg loop: the big lock orders this kernel's own
 * writers, but another CPU's user-space `lock xadd` on the word would be
 * lost between a read and a plain write.
 */
/* FUTEX_OP_SET, ADD, OR, ANDN, XOR applied to old */
static uint32_t futex_op_value(unsigned op, uint32_t old, uint32_t oparg)
{
	switch (op) {
	case 0:
		return oparg;
	case 1:
		return old + oparg;
	case 2:
		return old | oparg;
	case 3:
		return old & ~oparg;
	default:
		return old ^ oparg;
	}
}

static int futex_atomic_op_inuser(uint32_t encoded_op, uint64_t uaddr)
{
	unsigned op = (encoded_op & 0x70000000) >> 28, cmp = (encoded_op & 0x0f000000) >> 24;
	int32_t oparg = (int32_t)((encoded_op & 0x00fff000) << 8) >> 20; /* sign_extend32(., 11) */
	int32_t cmparg = (int32_t)((encoded_op & 0x00000fff) << 20) >> 20;
	uint32_t oldval, newval;

	if (encoded_op & (8u << 28)) /* FUTEX_OP_OPARG_SHIFT: Linux masks a bad shift too */
		oparg = (int32_t)(1u << (oparg & 31));
	if (op > 4)
		return -ENOSYS;
	if (futex_get_value(&oldval, uaddr))
		return -EFAULT;
	for (;;) {
		uint32_t cur;

		newval = futex_op_value(op, oldval, (uint32_t)oparg);
		if (futex_atomic_cmpxchg_inatomic(&cur, uaddr, oldval, newval))
			return -EFAULT;
		if (cur == oldval)
			break;
		oldval = cur; /* another CPU changed it: again from its value */
	}
	switch (cmp) {
	case 0:
		return (int32_t)oldval == cmparg;
	case 1:
		return (int32_t)oldval != cmparg;
	case 2:
		return (int32_t)oldval < cmparg;
	case 3:
		return (int32_t)oldval >= cmparg;
	case 4:
		return (int32_t)oldval <= cmparg;
	case 5:
		return (int32_t)oldval > cmparg;
	default:
		return -ENOSYS;
	}
}

static int wake_key(const struct futex_key *key, int nr)
{
	struct futex_q *q, *next;
	int n = 0;

	for (q = futex_hash(key)->first; q; q = next) {
		next = q->next;
		if (!futex_match(&q->key, key))
			continue;
		futex_wake_mark(q);
		if (++n >= nr)
			break;
	}
	return n;
}

/* Linux 6.6's futex_wake_op: the op on uaddr2, nr_wake of uaddr1, nr_wake2 of uaddr2 if it held. */
long futex_wake_op(uint64_t uaddr1, unsigned flags, uint64_t uaddr2, int nr_wake, int nr_wake2,
		   uint32_t op)
{
	struct futex_key key1, key2;
	int rc = get_futex_key(uaddr1, flags, &key1), op_ret, ret;

	kernel_lock_assert_held("futex_wake_op");
	if (!rc)
		rc = get_futex_key(uaddr2, flags, &key2);
	if (rc)
		return rc;
	op_ret = futex_atomic_op_inuser(op, uaddr2);
	if (op_ret < 0)
		return op_ret;
	ret = wake_key(&key1, nr_wake);
	if (op_ret > 0)
		ret += wake_key(&key2, nr_wake2);
	return ret;
}

int futex_nr_queued(void)
{
	int n = 0;

	for (unsigned i = 0; i < sizeof(futex_queues) / sizeof(futex_queues[0]); i++)
		for (struct futex_q *q = futex_queues[i].first; q; q = q->next)
			n++;
	return n;
}
