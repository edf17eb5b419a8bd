// SPDX-License-Identifier: GPL-2.0
/*
 * md5.c - the MD5 compression function (RFC 1321).
 *
 * Why: from 2011 (the CVE-2011-3188 fix) to January 2017 (4.10 the last
 * release), Linux's get_random_int() kept a per-CPU hash
 * and stirred it with md5_transform() and a 16-word random_int_secret.
 * Like lib/md5.c, md5_transform() takes the input as 16 host (little
 * endian) words and adds the result into hash[].
 */
#include "rng/md5.h"
#include "rng/md_le.h"
#include "rng/util.h"

#define F1(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define F2(x, y, z) F1((z), (x), (y))
#define F3(x, y, z) ((x) ^ (y) ^ (z))
#define F4(x, y, z) ((y) ^ ((x) | ~(z)))

#define MD5STEP(f, w, x, y, z, in, s) ((w) += f((x), (y), (z)) + (in), (w) = rol32((w), (s)) + (x))

void md5_transform(uint32_t hash[MD5_DIGEST_WORDS], const uint32_t in[16])
{
	uint32_t a = hash[0], b = hash[1], c = hash[2], d = hash[3];

	MD5STEP(F1, a, b, c, d, in[0] + 0xd76aa478u, 7);
	MD5STEP(F1, d, a, b, c, in[1] + 0xe8c7b756u, 12);
	MD5STEP(F1, c, d, a, b, in[2] + 0x242070dbu, 17);
	MD5STEP(F1, b, c, d, a, in[3] + 0xc1bdceeeu, 22);
	MD5STEP(F1, a, b, c, d, in[4] + 0xf57c0fafu, 7);
	MD5STEP(F1, d, a, b, c, in[5] + 0x4787c62au, 12);
	MD5STEP(F1, c, d, a, b, in[6] + 0xa8304613u, 17);
	MD5STEP(F1, b, c, d, a, in[7] + 0xfd469501u, 22);
	MD5STEP(F1, a, b, c, d, in[8] + 0x698098d8u, 7);
	MD5STEP(F1, d, a, b, c, in[9] + 0x8b44f7afu, 12);
	MD5STEP(F1, c, d, a, b, in[10] + 0xffff5bb1u, 17);
	MD5STEP(F1, b, c, d, a, in[11] + 0x895cd7beu, 22);
	MD5STEP(F1, a, b, c, d, in[12] + 0x6b901122u, 7);
	MD5STEP(F1, d, a, b, c, in[13] + 0xfd987193u, 12);
	MD5STEP(F1, c, d, a, b, in[14] + 0xa679438eu, 17);
	MD5STEP(F1, b, c, d, a, in[15] + 0x49b40821u, 22);

	MD5STEP(F2, a, b, c, d, in[1] + 0xf61e2562u, 5);
	MD5STEP(F2, d, a, b, c, in[6] + 0xc040b340u, 9);
	MD5STEP(F2, c, d, a, b, in[11] + 0x265e5a51u, 14);
	MD5STEP(F2, b, c, d, a, in[0] + 0xe9b6c7aau, 20);
	MD5STEP(F2, a, b, c, d, in[5] + 0xd62f105du, 5);
	MD5STEP(F2, d, a, b, c, in[10] + 0x02441453u, 9);
	MD5STEP(F2, c, d, a, b, in[15] + 0xd8a1e681u, 14);
	MD5STEP(F2, b, c, d, a, in[4] + 0xe7d3fbc8u, 20);
	MD5STEP(F2, a, b, c, d, in[9] + 0x21e1cde6u, 5);
	MD5STEP(F2, d, a, b, c, in[14] + 0xc33707d6u, 9);
	MD5STEP(F2, c, d, a, b, in[3] + 0xf4d50d87u, 14);
	MD5STEP(F2, b, c, d, a, in[8] + 0x455a14edu, 20);
	MD5STEP(F2, a, b, c, d, in[13] + 0xa9e3e905u, 5);
	MD5STEP(F2, d, a, b, c, in[2] + 0xfcefa3f8u, 9);
	MD5STEP(F2, c, d, a, b, in[7] + 0x676f02d9u, 14);
	MD5STEP(F2, b, c, d, a, in[12] + 0x8d2a4c8au, 20);

	MD5STEP(F3, a, b, c, d, in[5] + 0xfffa3942u, 4);
	MD5STEP(F3, d, a, b, c, in[8] + 0x8771f681u, 11);
	MD5STEP(F3, c, d, a, b, in[11] + 0x6d9d6122u, 16);
	MD5STEP(F3, b, c, d, a, in[14] + 0xfde5380cu, 23);
	MD5STEP(F3, a, b, c, d, in[1] + 0xa4beea44u, 4);
	MD5STEP(F3, d, a, b, c, in[4] + 0x4bdecfa9u, 11);
	MD5STEP(F3, c, d, a, b, in[7] + 0xf6bb4b60u, 16);
	MD5STEP(F3, b, c, d, a, in[10] + 0xbebfbc70u, 23);
	MD5STEP(F3, a, b, c, d, in[13] + 0x289b7ec6u, 4);
	MD5STEP(F3, d, a, b, c, in[0] + 0xeaa127fau, 11);
	MD5STEP(F3, c, d, a, b, in[3] + 0xd4ef3085u, 16);
	MD5STEP(F3, b, c, d, a, in[6] + 0x04881d05u, 23);
	MD5STEP(F3, a, b, c, d, in[9] + 0xd9d4d039u, 4);
	MD5STEP(F3, d, a, b, c, in[12] + 0xe6db99e5u, 11);
	MD5STEP(F3, c, d, a, b, in[15] + 0x1fa27cf8u, 16);
	MD5STEP(F3, b, c, d, a, in[2] + 0xc4ac5665u, 23);

	MD5STEP(F4, a, b, c, d, in[0] + 0xf4292244u, 6);
	MD5STEP(F4, d, a, b, c, in[7] + 0x432aff97u, 10);
	MD5STEP(F4, c, d, a, b, in[14] + 0xab9423a7u, 15);
	MD5STEP(F4, b, c, d, a, in[5] + 0xfc93a039u, 21);
	MD5STEP(F4, a, b, c, d, in[12] + 0x655b59c3u, 6);
	MD5STEP(F4, d, a, b, c, in[3] + 0x8f0ccc92u, 10);
	MD5STEP(F4, c, d, a, b, in[10] + 0xffeff47du, 15);
	MD5STEP(F4, b, c, d, a, in[1] + 0x85845dd1u, 21);
	MD5STEP(F4, a, b, c, d, in[8] + 0x6fa87e4fu, 6);
	MD5STEP(F4, d, a, b, c, in[15] + 0xfe2ce6e0u, 10);
	MD5STEP(F4, c, d, a, b, in[6] + 0xa3014314u, 15);
	MD5STEP(F4, b, c, d, a, in[13] + 0x4e0811a1u, 21);
	MD5STEP(F4, a, b, c, d, in[4] + 0xf7537e82u, 6);
	MD5STEP(F4, d, a, b, c, in[11] + 0xbd3af235u, 10);
	MD5STEP(F4, c, d, a, b, in[2] + 0x2ad7d2bbu, 15);
	MD5STEP(F4, b, c, d, a, in[9] + 0xeb86d391u, 21);

	hash[0] += a;
	hash[1] += b;
	hash[2] += c;
	hash[3] += d;
}

/* The full hash, for the RFC test vectors only (framing in md_le.c). */
void md5_digest(const void *msg, size_t len, uint8_t out[16])
{
	md_le_digest(md5_transform, msg, len, out);
}
