// SPDX-License-Identifier: GPL-2.0
/*
 * test_rng_variants - the defining property of every variant, the
 * registry contract, and the 2.6.29 pool's behaviour.  The environment
 * (pid, jiffies, cycles, HZ) is injected through rng_set_platform().
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdint.h>
#include <string.h>

#include "rng/keydata.h"
#include "rng/pool.h"
#include "rng/rng.h"
#include "rng/variants.h"
#include "tests/rng/fake_platform.h"
#include "tests/lib/tap_check.h"

/* ---- registry ---------------------------------------------------------------- */
START_TEST(test_registry_order)
{
	static const char *const names[] = {"prandom",		"ipid-2.6.29",	  "md4-2.6.30",
					    "sha1-mackall",	"urandom-2.6.29", "md5-3.x",
					    "chacha20-batched", "chacha20-wide",  "rdrand"};
	int i;

	for (i = 0; i < RNG_NR_VARIANTS; i++) {
		ck_assert_ptr_nonnull(rng_variants[i]);
		ck_assert_str_eq(rng_variants[i]->name, names[i]);
		ck_assert_ptr_eq(rng_find(names[i]), rng_variants[i]);
		ck_assert_ptr_nonnull(rng_variants[i]->summary);
		ck_assert_ptr_nonnull(rng_variants[i]->available);
		ck_assert_ptr_nonnull(rng_variants[i]->init);
		ck_assert_ptr_nonnull(rng_variants[i]->get_u32);
	}
	ck_assert_ptr_null(rng_variants[RNG_NR_VARIANTS]);
}
END_TEST

START_TEST(test_registry_unknown)
{
	ck_assert_ptr_null(rng_find("md4"));
	ck_assert_ptr_null(rng_find("md4-2.6.300"));
	ck_assert_ptr_null(rng_find(""));
	ck_assert_ptr_null(rng_find("RDRAND"));
	ck_assert_ptr_null(rng_find(NULL));
}
END_TEST

START_TEST(test_secure_flags)
{
	ck_assert(!rng_find("prandom")->secure);
	ck_assert(!rng_find("ipid-2.6.29")->secure);
	ck_assert(!rng_find("md4-2.6.30")->secure);
	ck_assert(rng_find("chacha20-batched")->secure);
	ck_assert(rng_find("urandom-2.6.29")->secure);
}
END_TEST

/* every available variant: same seed and environment, same stream; another
 * seed, another stream (rdrand excepted) */
START_TEST(test_deterministic_given_seed)
{
	const struct rng_variant *v = rng_variants[_i];
	uint32_t a[64], b[64], c[64];
	int i;

	if (!v->available() || !strcmp(v->name, "rdrand"))
		return;
	v->init(seed, sizeof(seed));
	for (i = 0; i < 64; i++, t_cycles += 1000)
		a[i] = v->get_u32();
	setup();
	v->init(seed, sizeof(seed));
	for (i = 0; i < 64; i++, t_cycles += 1000)
		b[i] = v->get_u32();
	setup();
	v->init("other", 5);
	for (i = 0; i < 64; i++, t_cycles += 1000)
		c[i] = v->get_u32();
	ck_assert_mem_eq(a, b, sizeof(a));
	ck_assert(memcmp(a, c, sizeof(a)) != 0);
}
END_TEST

/* ---- ipid-2.6.29: a function of pid + jiffies within a key period ------------ */
START_TEST(test_ipid_equal_sum_equal_value)
{
	const struct rng_variant *v = rng_find("ipid-2.6.29");
	uint32_t x, y, z;

	v->init(seed, sizeof(seed));
	t_pid = 1000;
	t_jiffies = 5010;
	t_cycles = 1;
	x = v->get_u32();
	t_pid = 1010; /* another process, 10 ticks earlier: same pid + jiffies */
	t_jiffies = 5000;
	t_cycles = 999999;
	y = v->get_u32();
	t_pid = 1011;
	z = v->get_u32();
	ck_assert_uint_eq(x, y);
	ck_assert_uint_ne(x, z);
	ck_assert_uint_eq(x, secure_ip_id_keyed(ipid2629_keydata()->secret, 6010));
}
END_TEST

START_TEST(test_ipid_rekey_after_300s)
{
	const struct rng_variant *v = rng_find("ipid-2.6.29");
	uint32_t before, same_period, after, secret0[12];
	uint32_t cnt;

	v->init(seed, sizeof(seed));
	t_pid = 500;
	before = v->get_u32();
	memcpy(secret0, ipid2629_keydata()->secret, sizeof(secret0));
	cnt = ipid2629_keydata()->ip_cnt;
	/* 299 s later, same pid + jiffies: still the same key, same value */
	t_jiffies += 299 * 100;
	t_pid -= 299 * 100;
	same_period = v->get_u32();
	ck_assert_uint_eq(before, same_period);
	ck_assert_uint_eq(ipid2629_keydata()->ip_cnt, cnt);
	/* 301 s after the first key: re-keyed, the same sum now differs */
	t_jiffies += 2 * 100;
	t_pid -= 2 * 100;
	after = v->get_u32();
	ck_assert_uint_eq(ipid2629_keydata()->ip_cnt, cnt + 1);
	ck_assert(memcmp(secret0, ipid2629_keydata()->secret, sizeof(secret0)) != 0);
	ck_assert_uint_ne(before, after);
}
END_TEST

/* ---- md4-2.6.30: the kept hash makes equal environments differ ---------------- */
START_TEST(test_md4_state_carries)
{
	const struct rng_variant *v = rng_find("md4-2.6.30");
	uint32_t hash[4] = {0, 0, 0, 0}, secret[12], x, y, h[4];

	v->init(seed, sizeof(seed));
	memcpy(secret, md4_2630_keydata()->secret, sizeof(secret));
	x = v->get_u32();
	y = v->get_u32(); /* identical pid, jiffies and cycles */
	ck_assert_uint_ne(x, y);
	/* and the replay core reproduces both from the secret */
	ck_assert_uint_eq(x, get_random_int_md4(hash, secret, t_pid, t_jiffies, t_cycles));
	ck_assert_uint_eq(y, get_random_int_md4(hash, secret, t_pid, t_jiffies, t_cycles));
	md4_2630_get_hash(h);
	ck_assert_mem_eq(h, hash, sizeof(h));
	ck_assert_uint_eq(y, h[1]); /* half_md4 returns buf[1] */
}
END_TEST

/* Linux used only secret[0..7] as half_md4 input: words 8..11 do not matter */
START_TEST(test_md4_uses_first_8_words)
{
	uint32_t s1[12], s2[12], h1[4] = {1, 2, 3, 4}, h2[4] = {1, 2, 3, 4};
	int i;

	for (i = 0; i < 12; i++)
		s1[i] = s2[i] = 0x1000u * (uint32_t)i + 7;
	s2[8] ^= 1;
	s2[11] ^= 0xffff;
	ck_assert_uint_eq(get_random_int_md4(h1, s1, 1, 2, 3), get_random_int_md4(h2, s2, 1, 2, 3));
	s2[7] ^= 1;
	ck_assert_uint_ne(get_random_int_md4(h1, s1, 1, 2, 3), get_random_int_md4(h2, s2, 1, 2, 3));
}
END_TEST

/* ---- sha1-mackall and md5-3.x: also kept state --------------------------- */
START_TEST(test_kept_state_variants)
{
	static const char *const names[] = {"sha1-mackall", "md5-3.x"};
	const struct rng_variant *v = rng_find(names[_i]);
	uint32_t x, y;

	v->init(seed, sizeof(seed));
	x = v->get_u32();
	y = v->get_u32();
	ck_assert_uint_ne(x, y);
}
END_TEST

/*
 * 2.6.30 and 3.x kept the hash per CPU (DEFINE_PER_CPU, get_cpu_var), as
 * Mackall's design did: a second CPU starts from its own zero hash, so with
 * the same pid, jiffies and cycles it returns what the first CPU's first
 * call did, and the first CPU's sequence goes on untouched.
 */
START_TEST(test_kept_state_per_cpu)
{
	static const char *const names[] = {"md4-2.6.30", "md5-3.x", "sha1-mackall"};
	const struct rng_variant *v = rng_find(names[_i]);
	uint32_t solo[3], x[3], y;

	v->init(seed, sizeof(seed));
	solo[0] = v->get_u32();
	solo[1] = v->get_u32();
	solo[2] = v->get_u32();
	v->init(seed, sizeof(seed));
	x[0] = v->get_u32();
	t_cpu = 1;
	y = v->get_u32();
	t_cpu = 0;
	x[1] = v->get_u32();
	x[2] = v->get_u32();
	ck_assert_uint_eq(y, solo[0]);
	ck_assert_mem_eq(x, solo, sizeof(x));
}
END_TEST

/* ---- urandom-2.6.29: the pool --------------------------------------------------- */
START_TEST(test_pool_extract_feeds_back)
{
	uint32_t p1[OUTPUT_POOL_WORDS], p2[OUTPUT_POOL_WORDS];
	uint8_t a[EXTRACT_SIZE], b[EXTRACT_SIZE];

	rng_find("urandom-2.6.29")->init(seed, sizeof(seed));
	pool2629_snapshot(POOL2629_NONBLOCKING, p1, OUTPUT_POOL_WORDS);
	pool2629_extract_buf(a);
	pool2629_snapshot(POOL2629_NONBLOCKING, p2, OUTPUT_POOL_WORDS);
	/* the SHA-1 of the pool was mixed back: 20 bytes touch 20 words */
	ck_assert(memcmp(p1, p2, sizeof(p1)) != 0);
	pool2629_extract_buf(b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
}
END_TEST

START_TEST(test_pool_get_u32_is_get_random_bytes)
{
	const struct rng_variant *v = rng_find("urandom-2.6.29");
	uint8_t expect[EXTRACT_SIZE];
	uint32_t got;

	v->init(seed, sizeof(seed));
	pool2629_extract_buf(expect); /* what extract_entropy() will do first */
	v->init(seed, sizeof(seed));
	got = v->get_u32();
	ck_assert_mem_eq(&got, expect, 4);
}
END_TEST

START_TEST(test_pool_interrupt_entropy)
{
	const struct rng_variant *v = rng_find("urandom-2.6.29");
	uint8_t buf[16];
	int i, in0, in1, first;

	v->init(seed, sizeof(seed));
	/* the first event of an irq is credited (its deltas are since boot) */
	t_jiffies++;
	rng_add_interrupt_randomness(0, t_cycles += 1000000);
	first = pool2629_entropy_count(POOL2629_INPUT);
	ck_assert_int_eq(first, 11);
	/* regular ticks: second and third deltas are 0, nothing credited */
	for (i = 0; i < 100; i++) {
		t_jiffies++;
		rng_add_interrupt_randomness(0, t_cycles += 1000000);
	}
	ck_assert_int_eq(pool2629_entropy_count(POOL2629_INPUT), first);
	/* irregular device interrupts are credited */
	for (i = 0; i < 200; i++) {
		t_jiffies += 1 + (uint64_t)((i * 37) % 61) * (i % 3 ? 1 : 5);
		rng_add_interrupt_randomness(11, t_cycles += 777777);
	}
	in0 = pool2629_entropy_count(POOL2629_INPUT);
	ck_assert_int_gt(in0, 33 * 8);
	/* the nonblocking pool, empty, pulls 16 bytes from the input pool
	 * (xfer_secondary_pool), is credited 128 bits and debited 128 bits */
	ck_assert_int_eq(pool2629_entropy_count(POOL2629_NONBLOCKING), 0);
	v->get_bytes(buf, sizeof(buf));
	in1 = pool2629_entropy_count(POOL2629_INPUT);
	ck_assert_int_eq(in1, in0 - 16 * 8);
	ck_assert_int_eq(pool2629_entropy_count(POOL2629_NONBLOCKING), 0);
	/* irq numbers outside the table are ignored */
	rng_add_interrupt_randomness(4096, 1);
}
END_TEST

/* 2.6.29 add_input_randomness: key events feed the input pool, autorepeat
 * (the same value again) does not */
START_TEST(test_pool_input_randomness)
{
	const struct rng_variant *v = rng_find("urandom-2.6.29");
	uint32_t a[INPUT_POOL_WORDS], b[INPUT_POOL_WORDS];
	int i;

	v->init(seed, sizeof(seed));
	t_jiffies++;
	rng_add_input_randomness(1, 30, 1, t_cycles += 1000); /* press: credited */
	ck_assert_int_eq(pool2629_entropy_count(POOL2629_INPUT), 11);
	pool2629_snapshot(POOL2629_INPUT, a, INPUT_POOL_WORDS);
	rng_add_input_randomness(1, 30, 1, t_cycles += 1000); /* autorepeat: ignored */
	pool2629_snapshot(POOL2629_INPUT, b, INPUT_POOL_WORDS);
	ck_assert_mem_eq(a, b, sizeof(a));
	for (i = 0; i < 100; i++) { /* press/release pairs at irregular times */
		t_jiffies += 1 + (uint64_t)((i * 37) % 61) * (i % 3 ? 1 : 5);
		rng_add_input_randomness(1, 30 + (uint32_t)i % 7, (uint32_t)i & 1,
					 t_cycles += 77777);
	}
	pool2629_snapshot(POOL2629_INPUT, b, INPUT_POOL_WORDS);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	ck_assert_int_gt(pool2629_entropy_count(POOL2629_INPUT), 11 + 8 * 10);
}
END_TEST

/* ---- rdrand: availability follows CPUID, never faked ---------------------------- */
START_TEST(test_rdrand_cpuid)
{
	const struct rng_variant *v = rng_find("rdrand");
	unsigned int a, b, c, d;
	bool has = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 30));
	uint32_t x[8];
	int i, same = 0;

	if (!has) {
		ck_assert(!v->available());
		ck_assert_uint_eq(v->get_u32(), 0);
		return;
	}
	if (!v->available())
		return; /* CPUID says yes but the self-test found a broken RDRAND */
	v->init(NULL, 0);
	for (i = 0; i < 8; i++)
		x[i] = v->get_u32();
	for (i = 1; i < 8; i++)
		same += x[i] == x[0];
	ck_assert_int_lt(same, 7);
}
END_TEST

/* ---- prandom: the variant draws its seed from the pool and warms up ------------- */
START_TEST(test_prandom_bytes_match_u32)
{
	const struct rng_variant *v = rng_find("prandom");
	uint32_t w[4];
	uint8_t b[16];

	v->init(seed, sizeof(seed));
	w[0] = v->get_u32();
	w[1] = v->get_u32();
	w[2] = v->get_u32();
	w[3] = v->get_u32();
	v->init(seed, sizeof(seed));
	v->get_bytes(b, sizeof(b));
	ck_assert_mem_eq(b, w, sizeof(b));
}
END_TEST

START_TEST(test_seed_all)
{
	rng_seed_all(seed, sizeof(seed));
	ck_assert(ipid2629_keydata()->keyed);
	ck_assert(md4_2630_keydata()->keyed);
	ck_assert(memcmp(ipid2629_keydata()->secret, md4_2630_keydata()->secret, 48) != 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rng-variants");
	TCase *tc = tcase_create("variants");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_registry_order);
	tcase_add_test(tc, test_registry_unknown);
	tcase_add_test(tc, test_secure_flags);
	tcase_add_loop_test(tc, test_deterministic_given_seed, 0, RNG_NR_VARIANTS);
	tcase_add_test(tc, test_ipid_equal_sum_equal_value);
	tcase_add_test(tc, test_ipid_rekey_after_300s);
	tcase_add_test(tc, test_md4_state_carries);
	tcase_add_test(tc, test_md4_uses_first_8_words);
	tcase_add_loop_test(tc, test_kept_state_variants, 0, 2);
	tcase_add_loop_test(tc, test_kept_state_per_cpu, 0, 3);
	tcase_add_test(tc, test_pool_extract_feeds_back);
	tcase_add_test(tc, test_pool_get_u32_is_get_random_bytes);
	tcase_add_test(tc, test_pool_interrupt_entropy);
	tcase_add_test(tc, test_pool_input_randomness);
	tcase_add_test(tc, test_rdrand_cpuid);
	tcase_add_test(tc, test_prandom_bytes_match_u32);
	tcase_add_test(tc, test_seed_all);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
