// SPDX-License-Identifier: GPL-2.0
/*
 * test_rng_crng - chacha20-batched (Linux 6.6 get_random_u32) and
 * chacha20-wide (beyond Linux): batch layout, fast key erasure, the
 * generation counter and the periodic reseed; BLAKE2s and the 6.x input
 * pool's extraction.  Independent vectors for chacha20-batched:
 * tests/sh/rngtool.sh against tests/ref/crng_ref.py.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rng/blake2s.h"
#include "rng/chacha20_batched.h"
#include "rng/input_pool.h"
#include "rng/rng.h"
#include "tests/rng/fake_platform.h"
#include "tests/lib/tap_check.h"

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

/* ---- BLAKE2s (RFC 7693) and the 6.12 input pool --------------------------------
 * Vectors: RFC 7693 Appendix B ("abc"); the rest from Python's hashlib.blake2s
 * (keyed ones are the reference blake2s-kat.txt: key 00..1f, input 00..n-1).
 */
static void hex32(const char *hex, uint8_t *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

START_TEST(test_blake2s_vectors)
{
	static const struct {
		int n;
		const char *hex;
	} kat[] = {
		{0, "48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49"},
		{1, "40d15fee7c328830166ac3f918650f807e7e01e177258cdc0a39b11f598066f1"},
		{63, "c65382513f07460da39833cb666c5ed82e61b9e998f4b0c4287cee56c3cc9bcd"},
		{64, "8975b0577fd35566d750b362b0897a26c399136df07bababbde6203ff2954ed4"},
		{65, "21fe0ceb0052be7fb0f004187cacd7de67fa6eb0938d927677f2398c132317a8"},
		{255, "3fb735061abc519dfe979e54c1ee5bfad0a9d858b3315bad34bde999efd724dd"},
	};
	uint8_t key[32], in[255], out[32], want[32];
	struct blake2s_state st;
	size_t i, off;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)i;
	memcpy(key, in, 32);
	blake2s(out, (const uint8_t *)"abc", NULL, 32, 3, 0);
	hex32("508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982", want, 32);
	ck_assert_mem_eq(out, want, 32);
	blake2s(out, in, NULL, 32, 0, 0);
	hex32("69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9", want, 32);
	ck_assert_mem_eq(out, want, 32);
	for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		blake2s(out, in, key, 32, (size_t)kat[i].n, 32);
		hex32(kat[i].hex, want, 32);
		ck_assert_mem_eq(out, want, 32);
	}
	blake2s(out, (const uint8_t *)"abc", key, 16, 3, 32); /* outlen is in the parameter block */
	hex32("61ba5f165c194692e09d12520cc4c74a", want, 16);
	ck_assert_mem_eq(out, want, 16);
	/* update() in pieces of every size gives the one-call digest */
	for (size_t step = 1; step <= 70; step++) {
		blake2s_init_key(&st, 32, key, 32);
		for (off = 0; off < sizeof(in); off += step)
			blake2s_update(&st, in + off,
				       off + step > sizeof(in) ? sizeof(in) - off : step);
		blake2s_final(&st, out);
		hex32(kat[5].hex, want, 32);
		ck_assert_mem_eq(out, want, 32);
	}
}
END_TEST

static void count_events(void *ctx, char kind, const uint8_t *bytes, size_t len)
{
	size_t *n = ctx;

	(void)bytes;
	n[kind == 'x'] += len;
}

/* two extractions with mixes around them, against tests/ref/crng_ref.py's pool_replay */
START_TEST(test_input_pool_extract)
{
	static const uint64_t b1[4] = {1, 2, 3, 4}, b2[4] = {5, 6, 7, 8};
	uint8_t key[32], want[32];
	size_t n[2] = {0, 0};

	input_pool_init();
	mix_pool_bytes("se", 2);
	mix_pool_bytes("ed", 2); /* the boundaries are not seen */
	extract_entropy_seeded(key, 32, b1);
	hex32("5c447692687c3c9804cfa8e2b99c433103a19419ab55412b6846a336866a5a18", want, 32);
	ck_assert_mem_eq(key, want, 32);
	mix_pool_bytes("more", 4);
	extract_entropy_seeded(key, 32, b2);
	hex32("ee74587b6cfa27f955ff7ca62ef59a98da0b76f9267abe6da9331dd6e828e367", want, 32);
	ck_assert_mem_eq(key, want, 32);
	ck_assert(input_pool_log_walk(count_events, n));
	ck_assert_uint_eq(n[0], 8);  /* mixed bytes */
	ck_assert_uint_eq(n[1], 64); /* two RDSEED blocks */
}
END_TEST

/* the key chacha20-batched starts with is the pool's: the seed mixed, one extraction */
START_TEST(test_chacha_key_from_pool)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	static struct crng_debug d;
	const uint64_t cyc[4] = {t_cycles, t_cycles, t_cycles, t_cycles};
	uint8_t key[32];

	v->init(seed, sizeof(seed));
	crng_debug_snapshot(&d);
	input_pool_init();
	mix_pool_bytes(seed, sizeof(seed));
	extract_entropy_seeded(key, 32, cyc); /* the fake platform: no RDSEED, the cycle counter */
	ck_assert_mem_eq(d.base_key, key, 32);
}
END_TEST

/*
 * 6.x keeps crngs and the batches per CPU and derives each CPU's key from
 * base_crng by fast key erasure, which moves base_crng.key on: a second CPU
 * draws what a lone CPU would from the base key it found, and the first
 * CPU's batch goes on untouched.
 */
START_TEST(test_chacha_per_cpu)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	static struct crng_debug d;
	uint32_t solo[30], a[30], b[30], c[30];
	uint8_t k1[32];
	int i;

	v->init(seed, sizeof(seed));
	for (i = 0; i < 30; i++)
		solo[i] = v->get_u32();
	v->init(seed, sizeof(seed));
	for (i = 0; i < 5; i++)
		a[i] = v->get_u32();
	crng_debug_snapshot(&d);
	memcpy(k1, d.base_key, 32); /* base_crng.key after CPU 0's derivation */
	t_cpu = 1;
	for (i = 0; i < 30; i++)
		b[i] = v->get_u32();
	t_cpu = 0;
	for (i = 5; i < 30; i++)
		a[i] = v->get_u32();
	ck_assert_mem_eq(a, solo, sizeof(a));
	ck_assert(memcmp(b, solo, sizeof(b)) != 0);
	crng_replay_init(k1);
	for (i = 0; i < 30; i++)
		c[i] = v->get_u32();
	ck_assert_mem_eq(c, b, sizeof(c));
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
	tcase_add_test(tc, test_blake2s_vectors);
	tcase_add_test(tc, test_input_pool_extract);
	tcase_add_test(tc, test_chacha_key_from_pool);
	tcase_add_test(tc, test_chacha_per_cpu);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
