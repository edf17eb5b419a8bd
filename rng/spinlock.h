/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spinlock.h - the locks Linux held around RNG state that CPUs share.
 *
 * Why: the designs of the story differ exactly here.  2.6.29 took the
 * pool's spinlock (spin_lock_irqsave(&r->lock)) in mix_pool_bytes_extract,
 * credit_entropy_bits and account: two to five acquisitions of a shared
 * line per get_random_bytes().  6.x takes base_crng.lock only when a
 * per-CPU crng follows a new generation, and input_pool.lock to mix and
 * extract.  Each acquisition is counted on the acquiring CPU, so the scale
 * suite reports acquisitions per call as a figure, not a claim.
 *
 * A ticket lock (first come, first served, as x86 Linux's from 2.6.25 to
 * 4.1), so that a CPU that waits is counted as contended exactly once.
 * The _irqsave forms keep the platform's interrupts off while held, as
 * Linux's do: the keyboard's interrupt mixes into the pools too.
 */
#ifndef RNG_SPINLOCK_H
#define RNG_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "rng/lockdep.h"
#include "rng/rng.h"

/*
 * The ticket lock itself, one for the whole tree: the kernel's own
 * spinlocks (kernel/lib/spinlock.h) are these tickets without the count.
 */
struct rng_ticket {
	uint16_t owner; /* the ticket being served */
	uint16_t next;	/* the next ticket to hand out */
};

/* Waits for its turn; true when it found the lock held and spun. */
static inline bool rng_ticket_lock(struct rng_ticket *t)
{
	uint16_t ticket = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);

	if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) == ticket)
		return false;
	while (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != ticket)
		__builtin_ia32_pause(); /* cpu_relax */
	return true;
}

static inline void rng_ticket_unlock(struct rng_ticket *t)
{
	/* only the holder writes owner: a plain increment, published by the release */
	__atomic_store_n(&t->owner, (uint16_t)(t->owner + 1), __ATOMIC_RELEASE);
}

struct rng_spinlock {
	struct rng_ticket ticket;
#ifdef RNG_LOCKDEP
	struct rng_lock_class cls; /* rng/lockdep.h, debug builds */
#endif
};

#define RNG_SPINLOCK_INIT                                                                          \
	{                                                                                          \
		{                                                                                  \
			0, 0                                                                       \
		}                                                                                  \
	}

void rng_spin_lock_irqsave(struct rng_spinlock *lock, unsigned long *flags);
void rng_spin_unlock_irqrestore(struct rng_spinlock *lock, unsigned long flags);
/* Linux's spin_lock/spin_unlock: for a caller that already has interrupts off */
void rng_spin_lock(struct rng_spinlock *lock);
void rng_spin_unlock(struct rng_spinlock *lock);

/* What one CPU's acquisitions cost it; read by the scale suite and the tests. */
struct rng_lock_stat {
	uint64_t acquired;  /* every acquisition */
	uint64_t contended; /* acquisitions that found the lock held and spun */
};
void rng_lock_stat_read(unsigned int cpu, struct rng_lock_stat *out);

#endif
