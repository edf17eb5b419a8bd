// SPDX-License-Identifier: GPL-2.0
#include "rng/spinlock.h"
#include "rng/util.h"

/*
 * Per CPU, each on its own cache line: counting must not itself make the
 * CPUs share a line that Linux's code did not.  Its own section, outside
 * the RNG state the kernel's scale benchmark watches (kernel/kernel.ld):
 * the count is the measurement, not the state measured.
 */
struct lock_stat_line {
	struct rng_lock_stat s;
} __attribute__((aligned(RNG_CACHELINE)));
static struct lock_stat_line lock_stats[RNG_NR_CPUS] __attribute__((section(".lockstat")));

void rng_spin_lock(struct rng_spinlock *lock)
{
	uint16_t ticket;
	struct rng_lock_stat *s = &lock_stats[rng_cpu_id()].s;

#ifdef RNG_LOCKDEP
	rng_lockdep_acquire(&lock->cls); /* before the wait a bad order could make endless */
#endif
	ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket) {
		s->contended++;
		while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
			__builtin_ia32_pause();
	}
	s->acquired++;
}

void rng_spin_unlock(struct rng_spinlock *lock)
{
#ifdef RNG_LOCKDEP
	rng_lockdep_release(&lock->cls);
#endif
	/* only the holder writes owner: a plain increment, published by the release */
	__atomic_store_n(&lock->owner, (uint16_t)(lock->owner + 1), __ATOMIC_RELEASE);
}

void rng_spin_lock_irqsave(struct rng_spinlock *lock, unsigned long *flags)
{
	*flags = rng_irq_save();
	rng_spin_lock(lock);
}

void rng_spin_unlock_irqrestore(struct rng_spinlock *lock, unsigned long flags)
{
	rng_spin_unlock(lock);
	rng_irq_restore(flags);
}

void rng_lock_stat_read(unsigned int cpu, struct rng_lock_stat *out)
{
	if (!out)
		return;
	if (cpu >= RNG_NR_CPUS) {
		out->acquired = out->contended = 0;
		return;
	}
	*out = lock_stats[cpu].s;
}
