/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep.h - a lock-order checker for debug builds (RNG_LOCKDEP).
 *
 * Why: a pair of locks taken in one order on one CPU and in the other on
 * another deadlocks only when both CPUs get there at once, which a test
 * may never see.  Linux's lockdep remembers every order it has seen
 * between lock classes and reports the first acquisition that closes a
 * cycle; this is that idea for the few locks here (rng/'s spinlocks and
 * the kernel's big lock): each lock is its own class, and an order B after
 * A that follows an order A after B seen before, on any CPU, is reported.
 * Only cycles of two are found; with this few locks, nested at most two
 * deep, that is every cycle there is.
 *
 * A release build compiles it out: the checks would add to the draws
 * whose instructions the benchmarks count.
 */
#ifndef RNG_LOCKDEP_H
#define RNG_LOCKDEP_H

#include <stdint.h>

#define RNG_LOCKDEP_CLASSES 32 /* classes past this are not checked */
#define RNG_LOCKDEP_DEPTH   8  /* locks one CPU holds at once */

/* A lock's class: its number, given at its first acquisition (0: none yet). */
struct rng_lock_class {
	uint8_t id;
};

void rng_lockdep_acquire(struct rng_lock_class *c);
void rng_lockdep_release(struct rng_lock_class *c);
/* How many checked locks this CPU holds now. */
unsigned int rng_lockdep_depth(void);

/* What was found: orders that closed a cycle, and the platform's report of each. */
extern uint64_t rng_lockdep_violations;
extern void (*rng_lockdep_report)(unsigned int held, unsigned int taking);

#endif
