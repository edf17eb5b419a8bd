// SPDX-License-Identifier: GPL-2.0
/*
 * test_rng_primitives - official vectors for every primitive in rng/:
 * MD4 (RFC 1320 suite), half-MD4 (against an independent model written
 * from the MD4 specification), MD5 (RFC 1321 suite), SHA-1 (FIPS 180-4
 * examples), ChaCha20 (RFC 8439 §2.3.2 and §2.4.2, and the SSE2/SSSE3
 * four-block path against the scalar block function), prandom (the
 * lib/random32.c self-test vectors).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rng/chacha20.h"
#include "rng/halfmd4.h"
#include "rng/md4.h"
#include "rng/md5.h"
#include "rng/prandom.h"
#include "rng/sha1.h"
#include "tests/lib/tap_check.h"

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* the seven messages of the RFC 1320 / RFC 1321 test suites */
static const char *const rfc_msgs[7] = {
	"",
	"a",
	"abc",
	"message digest",
	"abcdefghijklmnopqrstuvwxyz",
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"1234567890123456789012345678901234567890"
	"1234567890123456789012345678901234567890",
};

/* ---- MD4, RFC 1320 §A.5 --------------------------------------------------- */
static const char *const md4_expect[7] = {
	"31d6cfe0d16ae931b73c59d7e0c089c0", "bde52cb31de33e46245e05fbdbd6fb24",
	"a448017aaf21d8525fc10ae87aa6729d", "d9130a8164549fe818874806e1c7014b",
	"d79e1c308aa5bbcdeea8ed63df412da9", "043f8582f241db351ce627e153e7f0e4",
	"e33b4ddc9c38f2199c3e7b164fcc0536",
};

START_TEST(test_md4_rfc1320)
{
	uint8_t d[16];
	char h[33];

	md4_digest(rfc_msgs[_i], strlen(rfc_msgs[_i]), d);
	hex(d, 16, h);
	ck_assert_str_eq(h, md4_expect[_i]);
}
END_TEST

/* ---- MD5, RFC 1321 §A.5 --------------------------------------------------- */
static const char *const md5_expect[7] = {
	"d41d8cd98f00b204e9800998ecf8427e", "0cc175b9c0f1b6a831c399e269772661",
	"900150983cd24fb0d6963f7d28e17f72", "f96b697d7cb7938d525a2f31aaf161d0",
	"c3fcd3d76192e4007dfb496cca67e13b", "d174ab98d277d9f5a5611c2c9f419d9f",
	"57edf4a22be3c955ac49da2e2107b67a",
};

START_TEST(test_md5_rfc1321)
{
	uint8_t d[16];
	char h[33];

	md5_digest(rfc_msgs[_i], strlen(rfc_msgs[_i]), d);
	hex(d, 16, h);
	ck_assert_str_eq(h, md5_expect[_i]);
}
END_TEST

/* ---- SHA-1, FIPS 180-4 examples (one block, two blocks, 10^6 'a') -------- */
START_TEST(test_sha1_abc)
{
	uint8_t d[20];
	char h[41];

	sha1_digest("abc", 3, d);
	hex(d, 20, h);
	ck_assert_str_eq(h, "a9993e364706816aba3e25717850c26c9cd0d89d");
}
END_TEST

START_TEST(test_sha1_448bit)
{
	static const char m[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	uint8_t d[20];
	char h[41];

	sha1_digest(m, strlen(m), d);
	hex(d, 20, h);
	ck_assert_str_eq(h, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
}
END_TEST

START_TEST(test_sha1_million_a)
{
	static uint8_t m[1000000];
	uint8_t d[20];
	char h[41];

	memset(m, 'a', sizeof(m));
	sha1_digest(m, sizeof(m), d);
	hex(d, 20, h);
	ck_assert_str_eq(h, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}
END_TEST

/* ---- half-MD4 ---------------------------------------------------------------
 * There are no published vectors for Linux's half_md4_transform.  How we
 * know it is right: (1) the MD4 round machinery it shares (functions,
 * constants, shifts) is pinned by the RFC 1320 suite above via md4.c;
 * (2) ref_half_md4() below is written independently from the MD4
 * specification (RFC 1320 §3.4: F = XY v not(X)Z, G = majority, H = xor,
 * round constants 0x5A827999 / 0x6ED9EBA1, shifts 3,7,11,19 / 3,5,9,13 /
 * 3,9,11,15) restricted to an 8-word block with the word orders Linux's
 * lib/halfmd4.c uses (round 2: 1,3,5,7,0,2,4,6; round 3: 3,7,2,6,1,5,0,4),
 * returning buf[1] after the feed-forward; it must agree with rng/ on
 * thousands of pseudo-random inputs, which also proves Linux's rewritten
 * F and G (z^(x&(y^z)), (x&y)+((x^y)&z)) equal the textbook ones.
 * (3) a fixed vector produced by the model is kept for rngtool's tests.
 */
static uint32_t ref_rol(uint32_t x, int s)
{
	return (x << s) | (x >> (32 - s));
}

static uint32_t ref_half_md4(uint32_t buf[4], const uint32_t in[8])
{
	static const int order[3][8] = {
		{0, 1, 2, 3, 4, 5, 6, 7},
		{1, 3, 5, 7, 0, 2, 4, 6},
		{3, 7, 2, 6, 1, 5, 0, 4},
	};
	static const int shift[3][4] = {{3, 7, 11, 19}, {3, 5, 9, 13}, {3, 9, 11, 15}};
	static const uint32_t k[3] = {0, 0x5A827999, 0x6ED9EBA1};
	uint32_t r[4] = {buf[0], buf[1], buf[2], buf[3]}, f;
	int round, step;

	for (round = 0; round < 3; round++) {
		for (step = 0; step < 8; step++) {
			/* registers rotate: a d c b a d c b */
			uint32_t *a = &r[(12 - step) % 4];
			uint32_t x = r[(13 - step) % 4], y = r[(14 - step) % 4];
			uint32_t z = r[(15 - step) % 4];

			if (round == 0)
				f = (x & y) | (~x & z);
			else if (round == 1)
				f = (x & y) | (x & z) | (y & z);
			else
				f = x ^ y ^ z;
			*a = ref_rol(*a + f + in[order[round][step]] + k[round],
				     shift[round][step % 4]);
		}
	}
	for (step = 0; step < 4; step++)
		buf[step] += r[step];
	return buf[1];
}

static uint64_t xs = 0x0123456789abcdefull;

static uint32_t xrand(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return (uint32_t)(xs >> 16);
}

START_TEST(test_half_md4_vs_model)
{
	int n, i;

	for (n = 0; n < 5000; n++) {
		uint32_t b1[4], b2[4], in[8], r1, r2;

		for (i = 0; i < 4; i++)
			b1[i] = b2[i] = xrand();
		for (i = 0; i < 8; i++)
			in[i] = xrand();
		r1 = half_md4_transform(b1, in);
		r2 = ref_half_md4(b2, in);
		ck_assert_uint_eq(r1, r2);
		ck_assert_uint_eq(r1, b1[1]);
		ck_assert_mem_eq(b1, b2, sizeof(b1));
	}
}
END_TEST

/* the fixed vector tests/sh/rngtool.sh also checks through `rngtool kat` */
START_TEST(test_half_md4_fixed)
{
	uint32_t buf[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
	uint32_t ref[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
	const uint32_t in[8] = {0, 1, 2, 3, 4, 5, 6, 7};
	uint32_t r = half_md4_transform(buf, in);

	ck_assert_uint_eq(r, ref_half_md4(ref, in));
	ck_assert_mem_eq(buf, ref, sizeof(buf));
	ck_assert_uint_eq(r, 0xf254f422u);
	ck_assert_uint_eq(buf[0], 0x89700c05u);
	ck_assert_uint_eq(buf[2], 0xba8639e5u);
	ck_assert_uint_eq(buf[3], 0x4e2d6a7cu);
}
END_TEST

/* ---- ChaCha20, RFC 8439 ----------------------------------------------------- */
static void rfc_key(uint8_t key[32])
{
	int i;

	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)i;
}

START_TEST(test_chacha20_block_rfc8439_232)
{
	static const uint8_t expect[64] = {
		0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3,
		0x20, 0x71, 0xc4, 0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22,
		0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa,
		0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2, 0xb5, 0x12, 0x9c, 0xd1,
		0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e,
	};
	uint32_t state[16];
	uint8_t key[32], out[64];
	int i;

	rfc_key(key);
	chacha_init_consts(state);
	for (i = 0; i < 8; i++)
		state[4 + i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 |
			       (uint32_t)key[4 * i + 2] << 16 | (uint32_t)key[4 * i + 3] << 24;
	state[12] = 1;
	state[13] = 0x09000000;
	state[14] = 0x4a000000;
	state[15] = 0;
	chacha20_block(state, out);
	ck_assert_mem_eq(out, expect, 64);
	ck_assert_uint_eq(state[12], 2);
}
END_TEST

START_TEST(test_chacha20_encrypt_rfc8439_242)
{
	static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
				 "only one tip for the future, sunscreen would be it.";
	static const uint8_t expect[114] = {
		0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28, 0xdd,
		0x0d, 0x69, 0x81, 0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2, 0x0a, 0x27,
		0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b, 0xf9, 0x1b, 0x65, 0xc5, 0x52, 0x47, 0x33,
		0xab, 0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57, 0x16, 0x39, 0xd6, 0x24,
		0xe6, 0x51, 0x52, 0xab, 0x8f, 0x53, 0x0c, 0x35, 0x9f, 0x08, 0x61, 0xd8, 0x07,
		0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61, 0x56, 0xa3, 0x8e, 0x08, 0x8a, 0x22,
		0xb6, 0x5e, 0x52, 0xbc, 0x51, 0x4d, 0x16, 0xcc, 0xf8, 0x06, 0x81, 0x8c, 0xe9,
		0x1a, 0xb7, 0x79, 0x37, 0x36, 0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6,
		0xb4, 0x0b, 0x8e, 0xed, 0xf2, 0x78, 0x5e, 0x42, 0x87, 0x4d,
	};
	static const uint8_t nonce[12] = {0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0};
	uint8_t key[32], ct[114], back[114];

	ck_assert_uint_eq(strlen(pt), 114);
	rfc_key(key);
	chacha20_xor(key, 1, nonce, (const uint8_t *)pt, ct, 114);
	ck_assert_mem_eq(ct, expect, 114);
	chacha20_xor(key, 1, nonce, ct, back, 114);
	ck_assert_mem_eq(back, pt, 114);
}
END_TEST

/* the vector path must produce exactly the scalar blocks, any count */
START_TEST(test_chacha20_blocks_match_scalar)
{
	static uint8_t a[13 * 64], b[13 * 64];
	uint32_t s1[16], s2[16];
	size_t n = (size_t)_i + 1, i;

	for (i = 0; i < 16; i++)
		s1[i] = s2[i] = xrand();
	s1[12] = s2[12] = 0xfffffffeu; /* crosses the 32-bit counter wrap */
	chacha20_blocks(s1, a, n);
	for (i = 0; i < n; i++)
		chacha20_block(s2, b + 64 * i);
	ck_assert_mem_eq(a, b, n * 64);
	ck_assert_mem_eq(s1, s2, sizeof(s1));
}
END_TEST

/* ---- prandom: lib/random32.c self-test vectors ---------------------------- */
START_TEST(test_prandom_seed_boundary)
{
	static const uint32_t seed[4] = {1, 2, 3, 4};
	static const uint32_t expect[4] = {3484351685U, 2623130059U, 3125133893U, 984847254U};
	struct rnd_state st;

	prandom_seed_lcg(&st, seed[_i]);
	prandom_warmup(&st);
	ck_assert_uint_eq(prandom_u32_state(&st), expect[_i]);
}
END_TEST

START_TEST(test_prandom_taus113)
{
	/* the first entries of test2[] ("test cases against taus113 from GSL") */
	static const uint32_t t[][3] = {
		{931557656U, 959U, 2975593782U},  {1339693295U, 876U, 3887776532U},
		{1545556285U, 961U, 1615538833U}, {601730776U, 723U, 1776162651U},
		{1027516047U, 687U, 511983079U},  {416526298U, 700U, 916156552U},
		{1395522032U, 652U, 2222063676U}, {366221443U, 617U, 2992857763U},
		{1539836965U, 714U, 3783265725U}, {556206671U, 994U, 799626459U},
		{684907218U, 799U, 367789491U},	  {2121230701U, 931U, 2115467001U},
		{1967883163U, 508U, 10734624U},	  {1516232129U, 557U, 3173877U},
		{407983964U, 921U, 728767059U},
	};
	size_t i;
	uint32_t j;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rnd_state st;

		prandom_seed_lcg(&st, t[i][0]);
		prandom_warmup(&st);
		for (j = 0; j < t[i][1] - 1; j++)
			prandom_u32_state(&st);
		ck_assert_uint_eq(prandom_u32_state(&st), t[i][2]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rng-primitives");
	TCase *tc = tcase_create("vectors");

	tcase_add_loop_test(tc, test_md4_rfc1320, 0, 7);
	tcase_add_test(tc, test_half_md4_vs_model);
	tcase_add_test(tc, test_half_md4_fixed);
	tcase_add_loop_test(tc, test_md5_rfc1321, 0, 7);
	tcase_add_test(tc, test_sha1_abc);
	tcase_add_test(tc, test_sha1_448bit);
	tcase_add_test(tc, test_sha1_million_a);
	tcase_add_test(tc, test_chacha20_block_rfc8439_232);
	tcase_add_test(tc, test_chacha20_encrypt_rfc8439_242);
	tcase_add_loop_test(tc, test_chacha20_blocks_match_scalar, 0, 13);
	tcase_add_loop_test(tc, test_prandom_seed_boundary, 0, 4);
	tcase_add_test(tc, test_prandom_taus113);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
