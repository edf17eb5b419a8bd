// SPDX-License-Identifier: GPL-2.0
/*
 * blake2s.c - BLAKE2s, the hash Linux 6.x's input pool is made of.
 *
 * Why here: since 5.17 drivers/char/random.c keeps its input pool as one
 * running BLAKE2s state and extracts from it with BLAKE2s as a PRF
 * (rng/input_pool.c); the 6.x CRNG's key after every reseed comes out of
 * this function.  Written from RFC 7693 (the compression function, the
 * parameter block of an unkeyed or keyed hash) with the buffering of Linux
 * 6.12 lib/crypto/blake2s.c: update() keeps the last block, full or not,
 * for final(), which marks it the last one.  The outputs are checked against
 * the RFC's "abc" vector and Python's hashlib (tests/rng/test_rng_crng.c,
 * tests/sh/rngtool.sh).
 */
#include "rng/blake2s.h"
#include "rng/util.h"

static const uint32_t blake2s_iv[8] = {
	0x6A09E667UL, 0xBB67AE85UL, 0x3C6EF372UL, 0xA54FF53AUL,
	0x510E527FUL, 0x9B05688CUL, 0x1F83D9ABUL, 0x5BE0CD19UL,
};

static const uint8_t blake2s_sigma[10][16] = {
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
	{14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
	{11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
	{7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
	{9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
	{2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
	{12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
	{13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
	{6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
	{10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

static inline uint32_t ror32(uint32_t w, unsigned int s)
{
	return (w >> (s & 31)) | (w << ((-s) & 31));
}

/* RFC 7693 3.1, the mixing function G */
static void blake2s_g(uint32_t v[16], int a, int b, int c, int d, uint32_t x, uint32_t y)
{
	v[a] = v[a] + v[b] + x;
	v[d] = ror32(v[d] ^ v[a], 16);
	v[c] = v[c] + v[d];
	v[b] = ror32(v[b] ^ v[c], 12);
	v[a] = v[a] + v[b] + y;
	v[d] = ror32(v[d] ^ v[a], 8);
	v[c] = v[c] + v[d];
	v[b] = ror32(v[b] ^ v[c], 7);
}

/* RFC 7693 3.2, F; @inc bytes are counted for each block (Linux's blake2s_compress_generic) */
static void blake2s_compress(struct blake2s_state *state, const uint8_t *block, size_t nblocks,
			     uint32_t inc)
{
	uint32_t m[16], v[16];
	int i, r;

	while (nblocks--) {
		state->t[0] += inc;
		state->t[1] += state->t[0] < inc;
		for (i = 0; i < 16; i++)
			m[i] = get_le32(block + 4 * i);
		for (i = 0; i < 8; i++) {
			v[i] = state->h[i];
			v[i + 8] = blake2s_iv[i];
		}
		v[12] ^= state->t[0];
		v[13] ^= state->t[1];
		v[14] ^= state->f[0];
		v[15] ^= state->f[1];
		for (r = 0; r < 10; r++) {
			const uint8_t *s = blake2s_sigma[r];

			blake2s_g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
			blake2s_g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
			blake2s_g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
			blake2s_g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
			blake2s_g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
			blake2s_g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
			blake2s_g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
			blake2s_g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
		}
		for (i = 0; i < 8; i++)
			state->h[i] ^= v[i] ^ v[i + 8];
		block += BLAKE2S_BLOCK_SIZE;
	}
	rng_memzero_explicit(m, sizeof(m));
	rng_memzero_explicit(v, sizeof(v));
}

/* the parameter block of RFC 7693 2.5: digest length, key length, fanout 1, depth 1 */
static void blake2s_init_param(struct blake2s_state *state, size_t outlen, size_t keylen)
{
	int i;

	rng_memzero_explicit(state, sizeof(*state));
	for (i = 0; i < 8; i++)
		state->h[i] = blake2s_iv[i];
	state->h[0] ^= 0x01010000u | (uint32_t)keylen << 8 | (uint32_t)outlen;
	state->outlen = (unsigned int)outlen;
}

void blake2s_init(struct blake2s_state *state, size_t outlen)
{
	blake2s_init_param(state, outlen, 0);
}

/* the key, zero-padded to a block, is the first block hashed */
void blake2s_init_key(struct blake2s_state *state, size_t outlen, const void *key, size_t keylen)
{
	blake2s_init_param(state, outlen, keylen);
	__builtin_memcpy(state->buf, key, keylen);
	state->buflen = BLAKE2S_BLOCK_SIZE;
}

void blake2s_update(struct blake2s_state *state, const uint8_t *in, size_t inlen)
{
	size_t fill = BLAKE2S_BLOCK_SIZE - state->buflen;

	if (!inlen)
		return;
	if (inlen > fill) {
		__builtin_memcpy(state->buf + state->buflen, in, fill);
		blake2s_compress(state, state->buf, 1, BLAKE2S_BLOCK_SIZE);
		state->buflen = 0;
		in += fill;
		inlen -= fill;
	}
	if (inlen > BLAKE2S_BLOCK_SIZE) {
		size_t nblocks = (inlen + BLAKE2S_BLOCK_SIZE - 1) / BLAKE2S_BLOCK_SIZE;

		blake2s_compress(state, in, nblocks - 1, BLAKE2S_BLOCK_SIZE);
		in += BLAKE2S_BLOCK_SIZE * (nblocks - 1);
		inlen -= BLAKE2S_BLOCK_SIZE * (nblocks - 1);
	}
	__builtin_memcpy(state->buf + state->buflen, in, inlen);
	state->buflen += (unsigned int)inlen;
}

/* as Linux: the state is wiped afterwards; it must be initialised again to be used */
void blake2s_final(struct blake2s_state *state, uint8_t *out)
{
	uint8_t h[BLAKE2S_HASH_SIZE];
	int i;

	state->f[0] = (uint32_t)-1;
	__builtin_memset(state->buf + state->buflen, 0, BLAKE2S_BLOCK_SIZE - state->buflen);
	blake2s_compress(state, state->buf, 1, state->buflen);
	for (i = 0; i < 8; i++)
		put_le32(h + 4 * i, state->h[i]);
	__builtin_memcpy(out, h, state->outlen);
	rng_memzero_explicit(h, sizeof(h));
	rng_memzero_explicit(state, sizeof(*state));
}

void blake2s(uint8_t *out, const uint8_t *in, const uint8_t *key, size_t outlen, size_t inlen,
	     size_t keylen)
{
	struct blake2s_state state;

	if (key && keylen)
		blake2s_init_key(&state, outlen, key, keylen);
	else
		blake2s_init(&state, outlen);
	blake2s_update(&state, in, inlen);
	blake2s_final(&state, out);
}
