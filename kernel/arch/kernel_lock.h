/*
 * The big kernel lock: one CPU at a time runs kernel code that touches
 * shared state; user code runs on every CPU at once.
 *
 * Why this and not fine-grained locks: the kernel was written for one CPU,
 * where masking interrupts was the only exclusion it needed.  Linux took
 * the same first step (2.0's kernel_flag, taken on every entry from user
 * mode and released on every return, and given up across schedule()).  It
 * keeps every structure as correct as it was on one CPU while ring 3 (the
 * programs, and the RNG draws the benchmarks make outside it) scales.  The
 * RNG state does not rely on it: rng/ has the locks each Linux had, and
 * the system calls that only draw from it run without this lock
 * (the lock column of kernel/uapi/syscall_64.h), as Linux pushed its big lock
 * down into the calls that needed it; nor do a process's page faults in
 * its own address space (traps.c, user_fault_unlocked), a single-threaded
 * parent's fork (its address space copied, its child's canary drawn:
 * fork.c, fork_mm), or the freeing of an address space's tables (mm.c):
 * most of a fork+exit+wait's instructions.
 *
 * The lock belongs to a CPU, not a task: schedule() switches tasks with it
 * held, and the task switched to gives it up when it returns to user mode
 * or its CPU goes idle.  Kernel code waits for another CPU while holding
 * it in one place only: a TLB shootdown (tlb.h), which waits for that CPU
 * to spin for the lock, so a CPU spinning with interrupts off is what it
 * waits for, not an obstacle.  Every other wait gives it up (smp_call_wait).
 *
 * The contract.  Every datum more than one CPU may touch says beside its
 * declaration (a field group's comment covers the group) which of these
 * guards it; docs/design.md's lock table lists the locks and their order:
 *   [BKL]     the big kernel lock: read and written only by a CPU that
 *             holds it.  Code that relies on it asserts so where it uses
 *             the data (kernel_lock_assert_held below, LOCKDEP=1 builds).
 *   [self]    written only by its own task, or the CPU running it (an AP's
 *             tick, lockless); other CPUs read it with READ_ONCE
 *             (kernel/lib/compiler.h) and accept a value a tick old.
 *   [boot]    written before the other CPUs start; read-only after.
 *   [percpu]  one CPU's own, with interrupts off (kernel/arch/percpu.h).
 *   [atomic]  changed with __atomic_* alone.
 *   [lock X]  a spinlock of its own, X (kernel/lib/spinlock.h; the RNG
 *             variants' locks in rng/), taken inside the big lock, never
 *             around it, with interrupts off.
 * Which system calls run under the big lock is the lock column of
 * kernel/uapi/syscall_64.h.
 */
#ifndef KERNEL_ARCH_KERNEL_LOCK_H
#define KERNEL_ARCH_KERNEL_LOCK_H

#include <stdbool.h>
#include <stdint.h>

void lock_kernel(void);
/* The idle loop's: interrupts are taken while it waits (it holds nothing they need). */
void lock_kernel_idle(void);
void unlock_kernel(void);
bool kernel_locked(void); /* by this CPU */

/*
 * The contract's check, as xv6's holding(): code that relies on data the
 * big lock guards says so.  In a LOCKDEP=1 build a caller on a CPU that
 * does not hold the lock panics, naming itself (what); otherwise nothing.
 */
#ifdef RNG_LOCKDEP
void kernel_lock_assert_held(const char *what);
#else
static inline void kernel_lock_assert_held(const char *what)
{
	(void)what;
}
#endif

/* At a preemption point: lets a CPU that waits for the lock have it first. */
void cond_resched_kernel_lock(void);

/*
 * Gives the lock up if this CPU holds it (for a wait on another CPU); true
 * if it did.  Until reacquired, the CPU counts as parked: it must touch no
 * user memory in between.
 */
bool release_kernel_lock(void);
void reacquire_kernel_lock(bool held);

/*
 * For kernel code that runs without the lock on the way from ring 3 and
 * back (a page fault, traps.c): between the two this CPU counts as parked,
 * as one spinning for the lock does, so a shootdown does not wait for it.
 * It must touch no user memory until it flushes what a shootdown asked
 * meanwhile: after kernel_lock_unpark, tlb_flush_asked() says whether it
 * must take the lock (which flushes) before ring 3.
 */
void kernel_lock_park(void);
void kernel_lock_unpark(void);

/* cpu spins for the lock or gave it up for a wait: out of ring 3 until it takes it (tlb.h). */
bool kernel_lock_parked(unsigned int cpu);

/* A LOCKDEP=1 build reports lock orders that could deadlock (rng/lockdep.h); else nothing. */
void kernel_lockdep_init(void);

/*
 * What the lock cost each CPU: acquisitions, those that found it held, and
 * the TSC cycles it held the lock while kernel_lock_timing was set (a
 * measurement's switch: two RDTSCs per acquisition otherwise not paid).
 * The held cycles are the serial part of what a CPU does in the kernel:
 * k CPUs together get at most total/held times one CPU's rate (Amdahl).
 */
struct kernel_lock_stat {
	uint64_t acquired;
	uint64_t contended;
	uint64_t held_cycles;
};
void kernel_lock_stat_read(unsigned int cpu, struct kernel_lock_stat *out);
extern bool kernel_lock_timing;

#endif
