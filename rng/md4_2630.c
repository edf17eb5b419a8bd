// SPDX-License-Identifier: GPL-2.0
/*
 * md4_2630.c - get_random_int() of Linux 2.6.30 (Torvalds + Molnar).
 *
 * Why: the fix for CVE-2009-3238 that won the argument.  A per-CPU hash[4]
 * is kept between calls, hash[0] += pid + jiffies + get_cycles() (Molnar
 * added the cycle counter), and the result of half_md4_transform(hash,
 * keydata->secret) is returned; the transform also updates hash[] in
 * place, so equal inputs no longer give equal outputs.  The key is the
 * same 300 s keydata; the transform reads secret[0..7] as its 8 input words.
 */
#include "rng/halfmd4.h"
#include "rng/keydata.h"
#include "rng/pool.h"
#include "rng/util.h"
#include "rng/variants.h"

uint32_t get_random_int_md4(uint32_t hash[4], const uint32_t secret[12], uint32_t pid,
			    uint64_t jiffies, uint64_t cycles)
{
	/* int + unsigned long + cycles_t, truncated into a u32 */
	hash[0] += (uint32_t)(pid + jiffies + cycles);
	return half_md4_transform(hash, secret);
}

static struct rng_keydata md4_keydata = {.words = 12};
/* 2.6.30: static DEFINE_PER_CPU(__u32 [4], get_random_int_hash) */
static struct {
	uint32_t h[4];
} __attribute__((aligned(RNG_CACHELINE))) get_random_int_hash[RNG_NR_CPUS]; /* a line per CPU */

const struct rng_keydata *md4_2630_keydata(void)
{
	return &md4_keydata;
}

void md4_2630_get_hash(uint32_t out[4])
{
	int i;

	for (i = 0; i < 4; i++)
		out[i] = get_random_int_hash[rng_cpu_id()].h[i];
}

static uint32_t get_random_int(void)
{
	const struct rng_keydata *keyptr = keydata_get(&md4_keydata);

	return get_random_int_md4(get_random_int_hash[rng_cpu_id()].h, keyptr->secret,
				  rng_current_pid(), rng_jiffies(), rng_get_cycles());
}

static bool md4_available(void)
{
	return true;
}

/* every CPU's hash starts at zero, as DEFINE_PER_CPU storage did */
static void md4_init(const void *seed, size_t len)
{
	pool2629_init(seed, len, "md4-2.6.30");
	keydata_init(&md4_keydata, 12);
	rng_memzero_explicit(get_random_int_hash, sizeof(get_random_int_hash));
}

const struct rng_variant rng_variant_md4_2630 = {
	.name = "md4-2.6.30",
	.summary = "2.6.30 get_random_int: kept hash[4] += pid+jiffies+cycles, half-MD4",
	.secure = false,
	.available = md4_available,
	.init = md4_init,
	.get_u32 = get_random_int,
	.get_bytes = NULL,
};
