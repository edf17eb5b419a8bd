/*
 * Futexes (kernel/task/futex.c): the keys, as Linux 6.6's get_futex_key
 * makes them, on an address space built here and its fork; the errors and
 * a timed wait of the calls themselves; then tests/linux/lx_futex.c (the
 * same checks as on the host Linux) from ring 3: wait/wake between
 * processes, requeue, bitsets, timeouts, signals, clear-tid, robust lists.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vmm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/futex.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

#define PRIV_VA	  0x400000ULL /* a private anonymous page */
#define SHARED_VA 0x500000ULL /* a MAP_SHARED page */

static void use_mm(struct mm_struct *mm)
{
	current->mm = mm;
	load_mm_cr3(mm ? mm->pml4 : vmm_kernel_pml4());
}

static bool same(const struct futex_key *a, const struct futex_key *b)
{
	return a->kind == b->kind && a->ptr == b->ptr && a->off == b->off;
}

static enum ktest_result futex_keys(struct ktest_ctx *t)
{
	struct mm_struct *old = current->mm, *a = mm_create(), *b = 0;
	struct futex_key pa, sa, spa, pb, sb, spb, k;
	const char *bad = 0;
	int rc = -1;

	if (!a || mm_add_vma(a, PRIV_VA, PRIV_VA + PAGE_SIZE, VM_READ | VM_WRITE, VMA_ANON, 0) ||
	    mm_add_vma(a, SHARED_VA, SHARED_VA + PAGE_SIZE, VM_READ | VM_WRITE | VM_SHARED,
		       VMA_ANON, 0) ||
	    mm_populate_shared(a, SHARED_VA, SHARED_VA + PAGE_SIZE)) {
		bad = "could not build the address space";
		goto out;
	}
	use_mm(a);
	if (get_futex_key(PRIV_VA + 8, 0, &pa) || get_futex_key(PRIV_VA + 8, FLAGS_SHARED, &sa) ||
	    get_futex_key(SHARED_VA + 8, FLAGS_SHARED, &spa)) {
		bad = "a key of a mapped word failed";
		goto out;
	}
	if (pa.kind != FUTEX_KEY_PRIVATE || pa.ptr != (uint64_t)a || pa.off != PRIV_VA + 8 ||
	    sa.kind != FUTEX_KEY_MMSHARED || spa.kind != FUTEX_KEY_PAGE || spa.off != 8 ||
	    same(&pa, &sa)) {
		bad = "private (mm, address), shared on a private page MMSHARED, on MAP_SHARED the "
		      "page";
		goto out;
	}
	if ((rc = get_futex_key(PRIV_VA + 2, 0, &k)) != -EINVAL) {
		bad = "a misaligned word: EINVAL";
		goto out;
	}
	if ((rc = get_futex_key(0xffffffff81000000ULL, 0, &k)) != -EFAULT) {
		bad = "a kernel address: EFAULT";
		goto out;
	}
	if ((rc = get_futex_key(0x700000, FLAGS_SHARED, &k)) != -EFAULT ||
	    (rc = get_futex_key(0x700000, 0, &k)) != 0) {
		bad = "unmapped: EFAULT shared, a key private";
		goto out;
	}
	b = mm_dup(a);
	if (!b) {
		bad = "mm_dup";
		goto out;
	}
	use_mm(b);
	if (get_futex_key(PRIV_VA + 8, 0, &pb) || get_futex_key(PRIV_VA + 8, FLAGS_SHARED, &sb) ||
	    get_futex_key(SHARED_VA + 8, FLAGS_SHARED, &spb)) {
		bad = "a key in the fork failed";
		goto out;
	}
	if (same(&pa, &pb) || same(&sa, &sb) || !same(&spa, &spb)) {
		bad = "the fork: its own private keys, the MAP_SHARED page's key the same";
		goto out;
	}
	rc = 0;
out:
	use_mm(old);
	mm_put(b);
	mm_put(a);
	if (bad)
		return ktest_fail(t, "%s (rc %d)", bad, rc);
	return KTEST_PASS;
}
KTEST(futex_keys);

/*
 * Ticks in a burst (a host that fell behind, then QEMU's PIT catching up)
 * must not end a timed sleep before its deadline on CLOCK_MONOTONIC: with
 * every tick counted twice, a 20 ms wait still lasts 20 ms.
 */
static void tick_twice(const struct trap_frame *f)
{
	(void)f;
	jiffies++;
}

static long futex_wait_in_burst(uint64_t w, uint64_t deadline)
{
	void (*old)(const struct trap_frame *) = timer_watchdog_hook;
	long rc;

	timer_watchdog_hook = tick_twice;
	rc = futex_wait(w, 0, 0, deadline, FUTEX_BITSET_MATCH_ANY);
	timer_watchdog_hook = old;
	return rc;
}

static enum ktest_result timeout_by_clock(struct ktest_ctx *t)
{
	void (*old)(const struct trap_frame *) = timer_watchdog_hook;
	uint64_t deadline = ktime_get_ns() + 20000000, left;

	timer_watchdog_hook = tick_twice;
	left = do_nanosleep(deadline);
	timer_watchdog_hook = old;
	if (left || ktime_get_ns() < deadline)
		return ktest_fail(t, "a 20 ms nanosleep with doubled ticks ended %llu ns early",
				  (unsigned long long)(deadline - ktime_get_ns()));
	return KTEST_PASS;
}
KTEST(timeout_by_clock);

/* The calls on a word that reads 0: errors, EAGAIN, ETIMEDOUT, wake counts with nobody queued. */
static enum ktest_result futex_calls(struct ktest_ctx *t)
{
	struct mm_struct *old = current->mm, *a = mm_create();
	uint64_t w = SHARED_VA, t0;
	uint32_t v = 0;
	const char *bad = 0;
	long rc = -1;

	if (!a ||
	    mm_add_vma(a, SHARED_VA, SHARED_VA + PAGE_SIZE, VM_READ | VM_WRITE | VM_SHARED,
		       VMA_ANON, 0) ||
	    mm_populate_shared(a, SHARED_VA, SHARED_VA + PAGE_SIZE)) {
		mm_put(a);
		return ktest_fail(t, "could not build the address space");
	}
	use_mm(a);
	if ((rc = futex_wait(w, FLAGS_SHARED, 1, 0, FUTEX_BITSET_MATCH_ANY)) != -EAGAIN)
		bad = "a word that differs: EAGAIN";
	else if ((rc = futex_wait(w, FLAGS_SHARED, 0, 0, 0)) != -EINVAL)
		bad = "bitset 0: EINVAL";
	else if ((rc = futex_wait(w, FLAGS_SHARED, 0, ktime_get_ns(), FUTEX_BITSET_MATCH_ANY)) !=
		 -ETIMEDOUT)
		bad = "a deadline already reached: ETIMEDOUT";
	else if (t0 = ktime_get_ns() + 3000000,
		 (rc = futex_wait(w, 0, 0, t0, FUTEX_BITSET_MATCH_ANY)) != -ETIMEDOUT ||
			 ktime_get_ns() < t0)
		bad = "a deadline 3 ms ahead: ETIMEDOUT, not before";
	else if (t0 = ktime_get_ns() + 20000000,
		 (rc = futex_wait_in_burst(w, t0)) != -ETIMEDOUT || ktime_get_ns() < t0)
		bad = "20 ms with every tick counted twice: ETIMEDOUT, not before";
	else if (futex_nr_queued() != 0)
		bad = "a waiter left queued after its timeout";
	else if ((rc = futex_wake(w, FLAGS_SHARED, 0x7fffffff, FUTEX_BITSET_MATCH_ANY)) != 0)
		bad = "a wake with nobody waiting: 0";
	else if ((rc = futex_requeue(w, 0, w + 4, -1, 1, 0)) != -EINVAL)
		bad = "a negative nr_wake: EINVAL";
	else if ((rc = futex_requeue(w, 0, w + 4, 1, 1, &(uint32_t){5})) != -EAGAIN)
		bad = "CMP_REQUEUE with another value: EAGAIN";
	else if ((rc = futex_wake_op(w, 0, w + 4, 1, 1, (1u << 28) | (7u << 12))) != 0 ||
		 copy_from_user(&v, w + 4, sizeof(v)) || v != 7)
		bad = "WAKE_OP ADD 7: the second word 7, nobody woken";
	use_mm(old);
	mm_put(a);
	if (bad)
		return ktest_fail(t, "%s (rc %ld)", bad, rc);
	return KTEST_PASS;
}
KTEST(futex_calls);

static enum ktest_result linux_futex(struct ktest_ctx *t)
{
	char *argv[] = {"lx_futex_musl"};
	int status = 0;
	long pid = spawn_prog(argv[0], 1, argv), rc;

	if (pid < 0)
		return ktest_fail(t, "spawn lx_futex_musl: %ld", pid);
	rc = do_wait((int)pid, 0, &status, 0, 0);
	if (rc < 0 || status != W_EXITCODE(0))
		return ktest_fail(t,
				  "lx_futex_musl: wait %ld, status 0x%x, want 0 (see its FAIL "
				  "lines above)",
				  rc, status);
	return KTEST_PASS;
}
KTEST(linux_futex);
