// SPDX-License-Identifier: GPL-2.0
/*
 * sha1.c - the SHA-1 compression function (FIPS 180-4).
 *
 * Why: the 2.6.29 pool extracts with it ("a _full_ sha thing every time",
 * Torvalds), and Mackall's compromise stirs get_random_int()'s kept state
 * with it.  Like Linux's sha_transform() it reads the block as big-endian
 * words, so a pool of host words is hashed byte-for-byte as Linux did.
 * The message schedule lives in a 16-word ring (the workspace).
 */
#include "rng/sha1.h"
#include "rng/util.h"

void sha1_init(uint32_t digest[SHA1_DIGEST_WORDS])
{
	digest[0] = 0x67452301u;
	digest[1] = 0xefcdab89u;
	digest[2] = 0x98badcfeu;
	digest[3] = 0x10325476u;
	digest[4] = 0xc3d2e1f0u;
}

static inline uint32_t sha1_w(uint32_t *w, int t, const uint8_t *in)
{
	uint32_t x;

	if (t < 16) {
		x = get_be32(in + 4 * t);
	} else {
		x = w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15];
		x = rol32(x, 1);
	}
	w[t & 15] = x;
	return x;
}

#define SHA1_STEP(fn, k)                                                                           \
	do {                                                                                       \
		uint32_t tmp = rol32(a, 5) + (fn) + e + (k) + sha1_w(ws, t, in);                   \
		e = d;                                                                             \
		d = c;                                                                             \
		c = rol32(b, 30);                                                                  \
		b = a;                                                                             \
		a = tmp;                                                                           \
	} while (0)

void sha1_transform(uint32_t digest[SHA1_DIGEST_WORDS], const uint8_t in[SHA1_BLOCK_SIZE],
		    uint32_t ws[SHA1_WORKSPACE_WORDS])
{
	uint32_t a = digest[0], b = digest[1], c = digest[2], d = digest[3], e = digest[4];
	int t;

	for (t = 0; t < 20; t++)
		SHA1_STEP(d ^ (b & (c ^ d)), 0x5a827999u);
	for (; t < 40; t++)
		SHA1_STEP(b ^ c ^ d, 0x6ed9eba1u);
	for (; t < 60; t++)
		SHA1_STEP((b & c) + (d & (b ^ c)), 0x8f1bbcdcu);
	for (; t < 80; t++)
		SHA1_STEP(b ^ c ^ d, 0xca62c1d6u);

	digest[0] += a;
	digest[1] += b;
	digest[2] += c;
	digest[3] += d;
	digest[4] += e;
}

/* ---- full-hash wrapper, for the FIPS 180-4 vectors only ----------------- */
void sha1_digest(const void *msg, size_t len, uint8_t out[20])
{
	uint32_t h[5], ws[SHA1_WORKSPACE_WORDS];
	const uint8_t *p = msg;
	uint8_t tail[128];
	size_t rest = len % 64, full = len - rest, tlen, i;
	uint64_t bits = (uint64_t)len * 8;

	sha1_init(h);
	for (i = 0; i < full; i += 64)
		sha1_transform(h, p + i, ws);
	__builtin_memset(tail, 0, sizeof(tail));
	if (rest)
		__builtin_memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	tlen = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[tlen - 1 - i] = (uint8_t)(bits >> (8 * i));
	for (i = 0; i < tlen; i += 64)
		sha1_transform(h, tail + i, ws);
	for (i = 0; i < 5; i++)
		put_be32(out + 4 * i, h[i]);
	rng_memzero_explicit(ws, sizeof(ws));
}
