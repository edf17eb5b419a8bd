// SPDX-License-Identifier: GPL-2.0
/*
 * md4.c - full MD4 (RFC 1320).
 *
 * Why: half_md4_transform has no official vectors of its own.  Full MD4
 * has (the RFC 1320 suite), and half-MD4 is literally MD4's round
 * structure cut to 8 words; the tests check full MD4 against the RFC and
 * then check half-MD4 against an independent round-by-round model, so
 * both the rounds and the truncation are pinned down.
 */
#include "rng/md4.h"
#include "rng/util.h"

#define F(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define G(x, y, z) (((x) & (y)) | ((x) & (z)) | ((y) & (z)))
#define H(x, y, z) ((x) ^ (y) ^ (z))

#define STEP(f, a, b, c, d, x, k, s) ((a) = rol32((a) + f((b), (c), (d)) + (x) + (k), (s)))

void md4_transform(uint32_t hash[4], const uint32_t in[16])
{
	static const uint8_t r2[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
	static const uint8_t r3[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
	static const uint8_t s1[4] = {3, 7, 11, 19}, s2[4] = {3, 5, 9, 13};
	static const uint8_t s3[4] = {3, 9, 11, 15};
	uint32_t v[4] = {hash[0], hash[1], hash[2], hash[3]};
	int i;

	/* step i updates v[(4 - i) % 4]: a, d, c, b, a, d, ... */
	for (i = 0; i < 16; i++) {
		uint32_t *a = &v[(4 - i) & 3], b = v[(5 - i) & 3];
		uint32_t c = v[(6 - i) & 3], d = v[(7 - i) & 3];

		STEP(F, *a, b, c, d, in[i], 0u, s1[i & 3]);
	}
	for (i = 0; i < 16; i++) {
		uint32_t *a = &v[(4 - i) & 3], b = v[(5 - i) & 3];
		uint32_t c = v[(6 - i) & 3], d = v[(7 - i) & 3];

		STEP(G, *a, b, c, d, in[r2[i]], 0x5a827999u, s2[i & 3]);
	}
	for (i = 0; i < 16; i++) {
		uint32_t *a = &v[(4 - i) & 3], b = v[(5 - i) & 3];
		uint32_t c = v[(6 - i) & 3], d = v[(7 - i) & 3];

		STEP(H, *a, b, c, d, in[r3[i]], 0x6ed9eba1u, s3[i & 3]);
	}
	for (i = 0; i < 4; i++)
		hash[i] += v[i];
}

/* ---- Merkle-Damgard wrapper -----------------------------------------------
 * Why: only for the RFC 1320 vectors; the kernel never hashes messages.
 */
static void md4_block(uint32_t hash[4], const uint8_t *p)
{
	uint32_t w[16];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = get_le32(p + 4 * i);
	md4_transform(hash, w);
}

void md4_digest(const void *msg, size_t len, uint8_t out[16])
{
	uint32_t hash[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
	const uint8_t *p = msg;
	uint8_t tail[128];
	size_t rest = len % 64, full = len - rest, tlen, i;
	uint64_t bits = (uint64_t)len * 8;

	for (i = 0; i < full; i += 64)
		md4_block(hash, p + i);
	__builtin_memset(tail, 0, sizeof(tail));
	if (rest)
		__builtin_memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	tlen = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[tlen - 8 + i] = (uint8_t)(bits >> (8 * i));
	for (i = 0; i < tlen; i += 64)
		md4_block(hash, tail + i);
	for (i = 0; i < 4; i++)
		put_le32(out + 4 * i, hash[i]);
}
