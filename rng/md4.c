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
#include "rng/md_le.h"
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

/* The full hash, for the RFC test vectors only (framing in md_le.c). */
void md4_digest(const void *msg, size_t len, uint8_t out[16])
{
	md_le_digest(md4_transform, msg, len, out);
}
