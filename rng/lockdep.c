// SPDX-License-Identifier: GPL-2.0
#include "rng/lockdep.h"
#include "rng/rng.h"
#include "rng/util.h"

uint64_t rng_lockdep_violations;
void (*rng_lockdep_report)(unsigned int held, unsigned int taking);

static uint8_t next_id;
/* after[a]: bit b set once b was taken while a was held, on any CPU */
static uint32_t after[RNG_LOCKDEP_CLASSES + 1];

static struct held_line {
	uint8_t n;
	uint8_t id[RNG_LOCKDEP_DEPTH];
} __attribute__((aligned(RNG_CACHELINE))) held[RNG_NR_CPUS];

static unsigned int class_id(struct rng_lock_class *c)
{
	uint8_t id = __atomic_load_n(&c->id, __ATOMIC_ACQUIRE), fresh, none = 0;

	if (id)
		return id;
	fresh = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&c->id, &none, fresh, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return none; /* another CPU named it first */
	return fresh;
}

void rng_lockdep_acquire(struct rng_lock_class *c)
{
	unsigned int b = class_id(c);
	struct held_line *h = &held[rng_cpu_id()];

	for (unsigned int i = 0; i < h->n && b <= RNG_LOCKDEP_CLASSES; i++) {
		unsigned int a = h->id[i];

		if (a > RNG_LOCKDEP_CLASSES || a == b)
			continue;
		if (__atomic_load_n(&after[b], __ATOMIC_RELAXED) & (1u << (a - 1))) {
			__atomic_add_fetch(&rng_lockdep_violations, 1, __ATOMIC_RELAXED);
			if (rng_lockdep_report)
				rng_lockdep_report(a, b);
		}
		__atomic_fetch_or(&after[a], 1u << (b - 1), __ATOMIC_RELAXED);
	}
	if (h->n < RNG_LOCKDEP_DEPTH)
		h->id[h->n] = (uint8_t)b;
	h->n++;
}

void rng_lockdep_release(struct rng_lock_class *c)
{
	struct held_line *h = &held[rng_cpu_id()];
	unsigned int n = h->n < RNG_LOCKDEP_DEPTH ? h->n : RNG_LOCKDEP_DEPTH;

	/* the newest entry of this class goes: locks need not be released in order */
	for (unsigned int i = n; i-- > 0;)
		if (h->id[i] == c->id) {
			for (; i + 1 < n; i++)
				h->id[i] = h->id[i + 1];
			break;
		}
	if (h->n)
		h->n--;
}

unsigned int rng_lockdep_depth(void)
{
	return held[rng_cpu_id()].n;
}
