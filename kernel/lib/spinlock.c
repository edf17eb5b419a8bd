/* Kernel spinlocks (spinlock.h says what they are for). */
#include "kernel/lib/spinlock.h"

void spin_lock_init(spinlock_t *lock, struct rng_lock_class *cls)
{
	lock->owner = lock->next = 0;
	lock->cls = cls;
}

void spin_lock(spinlock_t *lock)
{
	uint16_t ticket;

#ifdef RNG_LOCKDEP
	if (lock->cls)
		rng_lockdep_acquire(lock->cls); /* before the wait a bad order could make endless */
#endif
	ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		__builtin_ia32_pause(); /* cpu_relax, without reaching up into arch/ */
}

void spin_unlock(spinlock_t *lock)
{
#ifdef RNG_LOCKDEP
	if (lock->cls)
		rng_lockdep_release(lock->cls);
#endif
	/* only the holder writes owner: a plain increment, published by the release */
	__atomic_store_n(&lock->owner, (uint16_t)(lock->owner + 1), __ATOMIC_RELEASE);
}
