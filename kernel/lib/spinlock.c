/* Kernel spinlocks (spinlock.h says what they are for). */
#include "kernel/lib/spinlock.h"

void spin_lock_init(spinlock_t *lock, struct rng_lock_class *cls)
{
	lock->ticket.owner = lock->ticket.next = 0;
	lock->cls = cls;
}

void spin_lock(spinlock_t *lock)
{
#ifdef RNG_LOCKDEP
	if (lock->cls)
		rng_lockdep_acquire(lock->cls); /* before the wait a bad order could make endless */
#endif
	rng_ticket_lock(&lock->ticket);
}

void spin_unlock(spinlock_t *lock)
{
#ifdef RNG_LOCKDEP
	if (lock->cls)
		rng_lockdep_release(lock->cls);
#endif
	rng_ticket_unlock(&lock->ticket);
}
