// SPDX-License-Identifier: GPL-2.0
/*
 * prandom.c - lib/random32.c, the non-cryptographic floor.
 *
 * Why: prandom_u32() is the kernel's fast statistical generator ("not much
 * better than an LFSR"); it shows what a generator costs that makes no
 * attempt at unpredictability: 113 bits of linear state, recoverable from
 * a handful of outputs.  This is the 4-component LFSR113 Tausworthe
 * generator of Linux 3.13 - 5.9 (L'Ecuyer 1999; commit a98814cef879
 * "random32: upgrade taus88 generator to taus113", merged for 3.13), chosen over the
 * 3-component taus88 __random32() of 2.6.29 because lib/random32.c ships
 * self-test vectors for it (checked in tests/rng).  Seeded like
 * prandom_seed_full_state(): four words from get_random_bytes(), bounded
 * by __seed(), then ten warm-up steps.
 */
#include "rng/prandom.h"
#include "rng/pool.h"
#include "rng/rng.h"
#include "rng/util.h"

#define TAUSWORTHE(s, a, b, c, d) ((((s) & (c)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))

uint32_t prandom_u32_state(struct rnd_state *state)
{
	state->s1 = TAUSWORTHE(state->s1, 6U, 13U, 4294967294U, 18U);
	state->s2 = TAUSWORTHE(state->s2, 2U, 27U, 4294967288U, 2U);
	state->s3 = TAUSWORTHE(state->s3, 13U, 21U, 4294967280U, 7U);
	state->s4 = TAUSWORTHE(state->s4, 3U, 12U, 4294967168U, 13U);

	return state->s1 ^ state->s2 ^ state->s3 ^ state->s4;
}

/* each component needs more bits set than its shift discards */
static uint32_t __seed(uint32_t x, uint32_t m)
{
	return (x < m) ? x + m : x;
}

void prandom_warmup(struct rnd_state *state)
{
	int i;

	for (i = 0; i < 10; i++)
		prandom_u32_state(state);
}

void prandom_seed_lcg(struct rnd_state *state, uint32_t seed)
{
#define LCG(x) ((x)*69069U) /* super-duper LCG */
	state->s1 = __seed(LCG(seed), 2U);
	state->s2 = __seed(LCG(state->s1), 8U);
	state->s3 = __seed(LCG(state->s2), 16U);
	state->s4 = __seed(LCG(state->s3), 128U);
#undef LCG
}

/* ---- the variant: a state per CPU ------------------------------------------
 * Why: 3.13-5.9 kept DEFINE_PER_CPU(struct rnd_state, net_rand_state) and
 * drew with get_cpu_var(): no lock and no shared line.  Every possible
 * CPU is seeded at init, in CPU order, as prandom_seed_full_state()'s
 * for_each_possible_cpu loop; CPU 0 first, so its values are those of the
 * one-CPU kernel.
 */
static struct {
	struct rnd_state s;
} __attribute__((aligned(RNG_CACHELINE))) net_rand_state[RNG_NR_CPUS];

static struct rnd_state *this_state(void)
{
	return &net_rand_state[rng_cpu_id()].s;
}

static bool prandom_available(void)
{
	return true;
}

static void prandom_init(const void *seed, size_t len)
{
	uint32_t seeds[4];
	int cpu;

	pool2629_init(seed, len, "prandom");
	for (cpu = 0; cpu < RNG_NR_CPUS; cpu++) {
		struct rnd_state *state = &net_rand_state[cpu].s;

		pool2629_get_random_bytes(seeds, sizeof(seeds));
		state->s1 = __seed(seeds[0], 2U);
		state->s2 = __seed(seeds[1], 8U);
		state->s3 = __seed(seeds[2], 16U);
		state->s4 = __seed(seeds[3], 128U);
		prandom_warmup(state);
	}
	rng_memzero_explicit(seeds, sizeof(seeds));
}

static uint32_t prandom_u32(void)
{
	return prandom_u32_state(this_state());
}

static void prandom_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;
	uint32_t w;

	if (!p)
		return;
	while (len >= 4) {
		put_le32(p, prandom_u32_state(this_state()));
		p += 4;
		len -= 4;
	}
	if (len) {
		w = prandom_u32_state(this_state());
		while (len--) {
			*p++ = (uint8_t)w;
			w >>= 8;
		}
	}
}

const struct rng_variant rng_variant_prandom = {
	.name = "prandom",
	.summary = "lib/random32.c LFSR113 Tausworthe (3.13-5.9 prandom_u32), not crypto",
	.secure = false,
	.available = prandom_available,
	.init = prandom_init,
	.get_u32 = prandom_u32,
	.get_bytes = prandom_bytes,
};
