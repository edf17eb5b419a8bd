/*
 * READ_ONCE and WRITE_ONCE, as Linux's: one whole load or store of a
 * word that another CPU writes or reads without a lock in common, which
 * the compiler may neither tear, repeat, merge nor drop.  Each use names,
 * beside the datum, who writes it lockless and who reads it (the locking
 * contract, kernel/arch/kernel_lock.h).  Ordering, where it matters, is
 * the caller's: __atomic_* with an explicit order.
 */
#ifndef KERNEL_LIB_COMPILER_H
#define KERNEL_LIB_COMPILER_H

#define READ_ONCE(x)	 __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#endif
