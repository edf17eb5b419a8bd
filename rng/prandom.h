/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_PRANDOM_H
#define RNG_PRANDOM_H

#include <stdint.h>

struct rnd_state {
	uint32_t s1, s2, s3, s4;
};

uint32_t prandom_u32_state(struct rnd_state *state);
void prandom_warmup(struct rnd_state *state);
/* the LCG seeding of lib/random32.c's self-test (prandom_state_test_seed) */
void prandom_seed_lcg(struct rnd_state *state, uint32_t seed);

#endif
