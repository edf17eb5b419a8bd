/*
 * md_le.c - Merkle-Damgard framing for MD4 and MD5.
 *
 * Why: only for the RFC 1320/1321 test vectors (the kernel never hashes
 * messages); the two RFCs frame messages identically, so one copy serves both.
 */
#include "rng/md_le.h"
#include "rng/util.h"

static void block(md_le_transform_fn transform, uint32_t hash[4], const uint8_t *p)
{
	uint32_t w[16];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = get_le32(p + 4 * i);
	transform(hash, w);
}

void md_le_digest(md_le_transform_fn transform, const void *msg, size_t len, uint8_t out[16])
{
	uint32_t hash[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
	const uint8_t *p = msg;
	uint8_t tail[128];
	size_t rest = len % 64, full = len - rest, tlen, i;
	uint64_t bits = (uint64_t)len * 8;

	for (i = 0; i < full; i += 64)
		block(transform, hash, p + i);
	__builtin_memset(tail, 0, sizeof(tail));
	if (rest)
		__builtin_memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	tlen = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[tlen - 8 + i] = (uint8_t)(bits >> (8 * i));
	for (i = 0; i < tlen; i += 64)
		block(transform, hash, tail + i);
	for (i = 0; i < 4; i++)
		put_le32(out + 4 * i, hash[i]);
}
