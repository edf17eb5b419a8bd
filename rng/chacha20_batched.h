/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_CHACHA20_BATCHED_H
#define RNG_CHACHA20_BATCHED_H

#include <stddef.h>
#include <stdint.h>

#include "rng/chacha20.h"

/*
 * One refill computes CRNG_BATCH_BLOCKS ChaCha20 blocks under the per-CPU
 * key: the first 32 bytes become the next key, the remaining bytes are the
 * batch of u32 values.
 */
#define CRNG_BATCH_BLOCKS 8
#define CRNG_BATCH_WORDS  ((CRNG_BATCH_BLOCKS * CHACHA_BLOCK_SIZE - CHACHA_KEY_SIZE) / 4)

struct crng_debug {
	uint8_t base_key[CHACHA_KEY_SIZE];
	uint8_t key[CHACHA_KEY_SIZE]; /* per-CPU key */
	unsigned long base_generation, generation, batch_generation;
	unsigned int position; /* next batch word handed out */
	uint64_t refills;
	uint32_t batch[CRNG_BATCH_WORDS];
};

/* tests only: everything a memory-disclosure attacker would capture */
void crng_debug_snapshot(struct crng_debug *out);
/* crng_reseed(): new base key from @seed, bump the generation */
void crng_reseed(const void *seed, size_t len);

#endif
