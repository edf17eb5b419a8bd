/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_CHACHA20_H
#define RNG_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA_STATE_WORDS 16
#define CHACHA_BLOCK_SIZE  64
#define CHACHA_KEY_SIZE	   32

/* "expand 32-byte k", key words 4..11, block counter 12, nonce 13..15 */
void chacha_init_consts(uint32_t state[CHACHA_STATE_WORDS]);
/*
 * chacha20_block - Linux lib/crypto/chacha.c: one 64-byte keystream block
 * from @state, then state[12] (the block counter) is incremented.
 */
void chacha20_block(uint32_t state[CHACHA_STATE_WORDS], uint8_t out[CHACHA_BLOCK_SIZE]);
/*
 * chacha20_blocks - @nblocks consecutive blocks (counter state[12],
 * state[12]+1, ...) into @out, four at a time with SSE2 vectors; advances
 * state[12] by @nblocks.  Same bytes as @nblocks calls of chacha20_block.
 */
void chacha20_blocks(uint32_t state[CHACHA_STATE_WORDS], uint8_t *out, size_t nblocks);
/* chacha20_xor - RFC 8439 §2.4 encryption: @len bytes of @in xor keystream */
void chacha20_xor(const uint8_t key[CHACHA_KEY_SIZE], uint32_t counter, const uint8_t nonce[12],
		  const uint8_t *in, uint8_t *out, size_t len);

#endif
