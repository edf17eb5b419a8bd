// SPDX-License-Identifier: GPL-2.0
/*
 * halfmd4.c - the "half MD4" transform of Linux lib/halfmd4.c.
 *
 * Why: this is the function at the centre of the 2009 dispute.  2.6.29's
 * secure_ip_id() and 2.6.30's get_random_int() both return
 * half_md4_transform(hash, keydata->secret).  It runs MD4's three rounds
 * (F, G, H with MD4's shift amounts) over only 8 input words instead of 16,
 * i.e. 24 steps instead of 48; Mackall's point was that this reduced-round
 * MD4 is not one-way.  Bit-exactness matters: the attack lab replays it.
 */
#include "rng/halfmd4.h"
#include "rng/util.h"

/* F, G and H are MD4's selection, majority and parity functions */
#define F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define G(x, y, z) (((x) & (y)) + (((x) ^ (y)) & (z)))
#define H(x, y, z) ((x) ^ (y) ^ (z))

#define ROUND(f, a, b, c, d, x, s) ((a) += f((b), (c), (d)) + (x), (a) = rol32((a), (s)))

/* MD4's round constants as Linux writes them: 0, sqrt(2) and sqrt(3) * 2^30 */
#define K1 0u
#define K2 013240474631u /* 0x5a827999 */
#define K3 015666365641u /* 0x6ed9eba1 */

uint32_t half_md4_transform(uint32_t buf[4], const uint32_t in[8])
{
	uint32_t a = buf[0], b = buf[1], c = buf[2], d = buf[3];

	/* Round 1: words in order */
	ROUND(F, a, b, c, d, in[0] + K1, 3);
	ROUND(F, d, a, b, c, in[1] + K1, 7);
	ROUND(F, c, d, a, b, in[2] + K1, 11);
	ROUND(F, b, c, d, a, in[3] + K1, 19);
	ROUND(F, a, b, c, d, in[4] + K1, 3);
	ROUND(F, d, a, b, c, in[5] + K1, 7);
	ROUND(F, c, d, a, b, in[6] + K1, 11);
	ROUND(F, b, c, d, a, in[7] + K1, 19);

	/* Round 2: odd words, then even words */
	ROUND(G, a, b, c, d, in[1] + K2, 3);
	ROUND(G, d, a, b, c, in[3] + K2, 5);
	ROUND(G, c, d, a, b, in[5] + K2, 9);
	ROUND(G, b, c, d, a, in[7] + K2, 13);
	ROUND(G, a, b, c, d, in[0] + K2, 3);
	ROUND(G, d, a, b, c, in[2] + K2, 5);
	ROUND(G, c, d, a, b, in[4] + K2, 9);
	ROUND(G, b, c, d, a, in[6] + K2, 13);

	/* Round 3 */
	ROUND(H, a, b, c, d, in[3] + K3, 3);
	ROUND(H, d, a, b, c, in[7] + K3, 9);
	ROUND(H, c, d, a, b, in[2] + K3, 11);
	ROUND(H, b, c, d, a, in[6] + K3, 15);
	ROUND(H, a, b, c, d, in[1] + K3, 3);
	ROUND(H, d, a, b, c, in[5] + K3, 9);
	ROUND(H, c, d, a, b, in[0] + K3, 11);
	ROUND(H, b, c, d, a, in[4] + K3, 15);

	buf[0] += a;
	buf[1] += b;
	buf[2] += c;
	buf[3] += d;

	return buf[1]; /* "most hashed" word */
}
