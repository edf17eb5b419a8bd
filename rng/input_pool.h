/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_INPUT_POOL_H
#define RNG_INPUT_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 6.12 extract_entropy's block.rdseed: 32 bytes of RDSEED, RDRAND or cycle counts */
#define INPUT_POOL_SEED_LONGS 4

void input_pool_init(void); /* the empty pool of a boot, and an empty input log */
/* 6.12 mix_pool_bytes(): BLAKE2s-update the pool */
void mix_pool_bytes(const void *buf, size_t len);
/* 6.12 extract_entropy(): block.rdseed from the platform (RDSEED, RDRAND, cycles) */
void extract_entropy(void *buf, size_t len);
/* the same with block.rdseed given (a replay of a recorded extraction) */
void extract_entropy_seeded(void *buf, size_t len, const uint64_t rdseed[INPUT_POOL_SEED_LONGS]);
/* 6.12 add_input_randomness(): an input-layer event, not in a hard IRQ */
void input_pool_add_input_randomness(uint32_t type, uint32_t code, uint32_t value,
				     uint64_t cycles);

/*
 * What went into the pool since input_pool_init(), in order, for a replay:
 * 'm' with the bytes mixed (consecutive mixes are one event: BLAKE2s does
 * not see the boundaries), 'x' with the 32 bytes of an extraction's
 * block.rdseed.  The log is bounded; false when it lost events (the replay
 * is then impossible and says so).
 */
typedef void (*input_pool_event_fn)(void *ctx, char kind, const uint8_t *bytes, size_t len);
bool input_pool_log_walk(input_pool_event_fn fn, void *ctx);

#endif
