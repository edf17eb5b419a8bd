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
	struct rng_lock_stat *s = &lock_stats[rng_cpu_id()].s;

#ifdef RNG_LOCKDEP
	rng_lockdep_acquire(&lock->cls); /* before the wait a bad order could make endless */
#endif
	if (rng_ticket_lock(&lock->ticket))
		s->contended++;
	s->acquired++;
}

void rng_spin_unlock(struct rng_spinlock *lock)
{
#ifdef RNG_LOCKDEP
	rng_lockdep_release(&lock->cls);
#endif
	rng_ticket_unlock(&lock->ticket);
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
