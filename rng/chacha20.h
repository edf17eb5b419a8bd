/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_CHACHA20_H
#define RNG_CHACHA20_H

#include <stdbool.h>
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
 * state[12]+1, ...) into @out, as many at a time as the active
 * implementation computes (16 AVX-512F, 8 AVX2, 4 SSSE3/SSE2), the rest one
 * by one; advances state[12] by @nblocks.  Same bytes as @nblocks calls of
 * chacha20_block, whichever implementation runs.
 */
void chacha20_blocks(uint32_t state[CHACHA_STATE_WORDS], uint8_t *out, size_t nblocks);

/*
 * The implementations behind chacha20_blocks(), narrowest first.  SSE2 is
 * the portable four-way body (in the kernel, built -mgeneral-regs-only, it
 * runs in general registers); the others use SIMD registers between
 * rng_simd_begin() and rng_simd_end() and need the CPU feature, the OS's
 * XCR0 bits and a platform whose simd_begin saves those registers.
 */
enum chacha_impl {
	CHACHA_IMPL_SCALAR,
	CHACHA_IMPL_SSE2,
	CHACHA_IMPL_SSSE3,
	CHACHA_IMPL_AVX2,
	CHACHA_IMPL_AVX512F,
	CHACHA_NR_IMPLS
};

/* "scalar", "sse2", "ssse3", "avx2", "avx512f"; "?" out of range */
const char *chacha_impl_name(enum chacha_impl impl);
/* this CPU, its OS and the current rng platform allow @impl */
bool chacha_impl_usable(enum chacha_impl impl);
/* what chacha20_blocks() runs now: the forced one if usable, else the widest usable */
enum chacha_impl chacha_impl_active(void);
/*
 * Tests and benchmarks: run @impl from now on (false, and nothing changes,
 * if it is not usable); CHACHA_NR_IMPLS goes back to the widest usable.
 */
bool chacha_impl_force(enum chacha_impl impl);
/* chacha20_xor - RFC 8439 §2.4 encryption: @len bytes of @in xor keystream */
void chacha20_xor(const uint8_t key[CHACHA_KEY_SIZE], uint32_t counter, const uint8_t nonce[12],
		  const uint8_t *in, uint8_t *out, size_t len);

#endif
