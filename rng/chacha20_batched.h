/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_CHACHA20_BATCHED_H
#define RNG_CHACHA20_BATCHED_H

#include <stddef.h>
#include <stdint.h>

#include "rng/chacha20.h"

/*
 * chacha20-batched (Linux 6.6 drivers/char/random.c, DEFINE_BATCHED_ENTROPY):
 * u32 entropy[CHACHA_BLOCK_SIZE * 3 / (2 * sizeof(u32))] = 24 words (and the
 * same 96 bytes as 48 u16 or 12 u64 in their own batches), each refilled
 * by _get_random_bytes(96): 32 bytes from the fast-key-erasure block, then one
 * chacha20_block() under the detached state.
 */
#define CRNG_BATCH_BYTES (CHACHA_BLOCK_SIZE * 3 / 2)
#define CRNG_BATCH_WORDS (CRNG_BATCH_BYTES / 4)

/*
 * chacha20-wide (beyond Linux): one refill computes CRNG_WIDE_BATCH_BLOCKS
 * blocks with SIMD (one AVX-512F pass); the first 32 bytes become the next
 * key, the remaining bytes are the batch.
 */
#define CRNG_WIDE_BATCH_BLOCKS 16
#define CRNG_WIDE_BATCH_WORDS  ((CRNG_WIDE_BATCH_BLOCKS * CHACHA_BLOCK_SIZE - CHACHA_KEY_SIZE) / 4)

/* 6.6: CRNG_RESEED_INTERVAL = 60 * HZ, CRNG_RESEED_START_INTERVAL = HZ */
#define CRNG_RESEED_SECONDS 60

/*
 * Set by the kernel (NULL elsewhere): called with base_crng.generation
 * after every change of the base key (a reseed, an init, a replay).
 */
extern void (*crng_generation_hook)(unsigned long generation);

struct crng_debug {
	uint8_t base_key[CHACHA_KEY_SIZE];
	uint8_t key[CHACHA_KEY_SIZE]; /* per-CPU key */
	unsigned long base_generation, generation, batch_generation;
	unsigned int position; /* next batch word handed out */
	unsigned int batch_words;
	uint64_t refills;		       /* batch refills, of any width */
	uint32_t batch[CRNG_WIDE_BATCH_WORDS]; /* first batch_words are used */
};

/*
 * 6.12 get_random_bytes_user's start: a reseed when one is due, then
 * crng_make_state(state, &state[4], 32), so the fast-key-erasure block's
 * 32 bytes of output sit where the key goes.  A read of up to 32 bytes
 * returns them; a longer one runs chacha20_block(state) from there (and
 * carries state[12] into state[13]).  The caller wipes state after.
 */
void crng_user_begin(uint32_t state[CHACHA_STATE_WORDS]);

/* tests only: everything a memory-disclosure attacker would capture */
void crng_debug_snapshot(struct crng_debug *out);
void crng_wide_debug_snapshot(struct crng_debug *out);
/* @seed mixed into the 6.x input pool, then crng_reseed(): a new base key, the generation bumped */
void crng_reseed(const void *seed, size_t len);
/* crng_reseed() now, as the periodic work would (tests, the replay check) */
void crng_reseed_now(void);
void crng_wide_reseed(const void *seed, size_t len);
/*
 * rngtool replay: base_crng.key = @base_key, the per-CPU crng and batch are
 * stale (generation ULONG_MAX, position UINT_MAX), no reseed is due before
 * jiffies reach the 60 s interval.
 */
void crng_replay_init(const uint8_t base_key[CHACHA_KEY_SIZE]);

#endif
