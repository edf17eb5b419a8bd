// SPDX-License-Identifier: GPL-2.0
/*
 * test_rng_crng - chacha20-batched (Linux 6.6 get_random_u32) and
 * chacha20-wide (beyond Linux): batch layout, fast key erasure, the
 * generation counter and the periodic reseed.  Independent vectors for
 * chacha20-batched: tests/sh/rngtool.sh against tests/ref/crng_ref.py.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "rng/chacha20_batched.h"
#include "rng/rng.h"
#include "tests/rng/fake_platform.h"
#include "tests/rng/tap_check.h"

/* ---- chacha20-batched: Linux 6.6 batch layout ----------------------------------
 * The batch is _get_random_bytes(96): bytes 32..63 of the fast-key-erasure
 * block (whose bytes 0..31 become the per-CPU key) and one more block under
 * the old key with counter 1.  Independent vectors: tests/sh/rngtool.sh.
 */
static void chacha_ref_blocks(const uint8_t key[32], uint8_t *out, int n)
{
	uint32_t state[16];
	int i;

	chacha_init_consts(state);
	for (i = 0; i < 8; i++)
		memcpy(&state[4 + i], key + 4 * i, 4);
	state[12] = state[13] = state[14] = state[15] = 0;
	for (i = 0; i < n; i++)
		chacha20_block(state, out + 64 * i);
}

START_TEST(test_chacha_key_erasure)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	static struct crng_debug d0, d1, d2;
	uint32_t first[CRNG_BATCH_WORDS];
	uint8_t blocks[2 * 64];
	int i;

	ck_assert_int_eq(CRNG_BATCH_WORDS, 24);
	v->init(seed, sizeof(seed));
	first[0] = v->get_u32(); /* derives the per-CPU key, first refill */
	crng_debug_snapshot(&d0);
	ck_assert_uint_eq(d0.refills, 1);
	ck_assert_uint_eq(d0.batch_words, 24);
	ck_assert_uint_eq(d0.batch[0], 0); /* a served word is wiped */
	for (i = 1; i < CRNG_BATCH_WORDS; i++)
		first[i] = v->get_u32();
	crng_debug_snapshot(&d1);
	ck_assert_uint_eq(d1.refills, 1);
	for (i = 0; i < CRNG_BATCH_WORDS; i++)
		ck_assert_uint_eq(d1.batch[i], 0);
	(void)v->get_u32(); /* the 25th call refills */
	crng_debug_snapshot(&d2);
	ck_assert_uint_eq(d2.refills, 2);
	ck_assert(memcmp(d1.key, d2.key, 32) != 0);
	chacha_ref_blocks(d1.key, blocks, 2);
	ck_assert_mem_eq(d2.key, blocks, 32);
	ck_assert_mem_eq(&d2.batch[1], blocks + 32 + 4, (CRNG_BATCH_WORDS - 1) * 4);
	ck_assert(memcmp(d2.batch, first, sizeof(first)) != 0);
	ck_assert(memmem(&d2, sizeof(d2), &first[5], 8) == NULL);
}
END_TEST

START_TEST(test_chacha_reseed_generation)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	static struct crng_debug d0, d1;

	v->init(seed, sizeof(seed));
	(void)v->get_u32();
	crng_debug_snapshot(&d0);
	crng_reseed("new", 3);
	(void)v->get_u32(); /* generation changed: refill at once */
	crng_debug_snapshot(&d1);
	ck_assert_uint_eq(d1.refills, d0.refills + 1);
	ck_assert_uint_eq(d1.generation, d1.base_generation);
	ck_assert_uint_eq(d1.base_generation, d0.base_generation + 1);
	ck_assert(memcmp(d0.base_key, d1.base_key, 32) != 0);
}
END_TEST

/* CRNG_RESEED_INTERVAL: after 120 s of uptime the base key changes every
 * 60 s, and the partly used batch is discarded through the generation. */
START_TEST(test_chacha_periodic_reseed)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	static struct crng_debug d0, d1, d2;

	t_jiffies = 0;
	v->init(seed, sizeof(seed));
	t_jiffies = 200 * 100; /* 200 s, hz 100: the work fell due */
	(void)v->get_u32();
	crng_debug_snapshot(&d0);
	t_jiffies += 30 * 100;
	(void)v->get_u32(); /* 30 s later: same generation, same batch */
	crng_debug_snapshot(&d1);
	ck_assert_uint_eq(d1.base_generation, d0.base_generation);
	ck_assert_uint_eq(d1.refills, d0.refills);
	ck_assert_uint_eq(d1.position, 2);
	t_jiffies += 31 * 100;
	(void)v->get_u32(); /* 61 s after the last reseed: a new generation */
	crng_debug_snapshot(&d2);
	ck_assert_uint_eq(d2.base_generation, d1.base_generation + 1);
	ck_assert_uint_eq(d2.generation, d2.base_generation);
	ck_assert_uint_eq(d2.refills, d1.refills + 1);
	ck_assert_uint_eq(d2.position, 1);
	ck_assert(memcmp(d1.base_key, d2.base_key, 32) != 0);
}
END_TEST

START_TEST(test_chacha_get_bytes)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	static struct crng_debug d0, d1;
	uint8_t out[300], ref[6 * 64];

	v->init(seed, sizeof(seed));
	(void)v->get_u32();
	crng_debug_snapshot(&d0);
	v->get_bytes(out, sizeof(out));
	crng_debug_snapshot(&d1);
	/* _get_random_bytes(): block 0 = new key + 32 bytes, then blocks 1.. */
	chacha_ref_blocks(d0.key, ref, 6);
	ck_assert_mem_eq(d1.key, ref, 32);
	ck_assert_mem_eq(out, ref + 32, sizeof(out));
}
END_TEST

/* ---- chacha20-wide (beyond Linux): 16-block refills ------------------------------- */
START_TEST(test_chacha_wide_batch)
{
	const struct rng_variant *v = rng_find("chacha20-wide");
	static struct crng_debug d1, d2;
	uint8_t blocks[CRNG_WIDE_BATCH_BLOCKS * 64];
	int i;

	ck_assert_ptr_nonnull(v);
	ck_assert(v->secure);
	v->init(seed, sizeof(seed));
	for (i = 0; i < CRNG_WIDE_BATCH_WORDS; i++)
		(void)v->get_u32();
	crng_wide_debug_snapshot(&d1);
	ck_assert_uint_eq(d1.refills, 1);
	ck_assert_uint_eq(d1.batch_words, CRNG_WIDE_BATCH_WORDS);
	(void)v->get_u32();
	crng_wide_debug_snapshot(&d2);
	ck_assert_uint_eq(d2.refills, 2);
	chacha_ref_blocks(d1.key, blocks, CRNG_WIDE_BATCH_BLOCKS);
	ck_assert_mem_eq(d2.key, blocks, 32);
	ck_assert_mem_eq(&d2.batch[1], blocks + 32 + 4, (CRNG_WIDE_BATCH_WORDS - 1) * 4);
	crng_wide_reseed("new", 3);
	(void)v->get_u32();
	crng_wide_debug_snapshot(&d1);
	ck_assert_uint_eq(d1.refills, 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rng-crng");
	TCase *tc = tcase_create("crng");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_chacha_key_erasure);
	tcase_add_test(tc, test_chacha_reseed_generation);
	tcase_add_test(tc, test_chacha_get_bytes);
	tcase_add_test(tc, test_chacha_periodic_reseed);
	tcase_add_test(tc, test_chacha_wide_batch);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
