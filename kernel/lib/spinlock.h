/*
 * Kernel spinlocks, for the structures that have a lock of their own
 * instead of the big kernel lock (kernel/arch/kernel_lock.h): the page
 * allocator's bitmap and per-CPU lists first.
 *
 * A ticket lock, as x86 Linux's from 2.6.25 to 4.1: rng/spinlock.h's,
 * without its count of acquisitions.  First come, first served.  The
 * caller keeps interrupts off while it holds one (every user does already,
 * around the structure the lock covers), so an interrupt handler on the
 * same CPU can never spin for it.  A debug build
 * (make LOCKDEP=1) checks the order they are taken in with rng/lockdep.h,
 * one class per kind of lock: every CPU's page list is one class, as in
 * Linux's lockdep.
 */
#ifndef KERNEL_LIB_SPINLOCK_H
#define KERNEL_LIB_SPINLOCK_H

#include <stdint.h>

#include "rng/lockdep.h"
#include "rng/spinlock.h"

typedef struct spinlock {
	struct rng_ticket ticket;
	struct rng_lock_class *cls; /* its lockdep class (LOCKDEP=1 builds) */
} spinlock_t;

void spin_lock_init(spinlock_t *lock, struct rng_lock_class *cls);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);

#endif
