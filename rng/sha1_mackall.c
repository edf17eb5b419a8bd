// SPDX-License-Identifier: GPL-2.0
/*
 * sha1_mackall.c - Mackall's SHA-1 compromise (May 2009, not merged).
 *
 * Why: Mackall proposed keeping Torvalds's structure (per-CPU kept state,
 * hash[0] += pid + jiffies + get_cycles(), a secret re-keyed every 300 s)
 * but stirring it with the full SHA-1 compression function instead of
 * half-MD4; he measured 0.660 us against 0.326 us.  A reconstruction, not
 * his patch: the message that carried it was not found, so this follows the
 * design as LWN reported it (Jake Edge, "Random numbers for ASLR", LWN,
 * 2009-05-13): Torvalds's kept-state get_random_int() of 2.6.30 with
 * sha_transform() in place of half_md4_transform().  Here: a kept 5-word
 * SHA-1 chaining value, one sha1_transform() over a 16-word (one block)
 * secret read the way Linux's sha_transform((u8 *)secret) read it, return
 * hash[0].  Its cost, not its exact outputs, is what the comparison needs.
 */
#include "rng/keydata.h"
#include "rng/pool.h"
#include "rng/sha1.h"
#include "rng/util.h"
#include "rng/variants.h"

uint32_t get_random_int_sha1(uint32_t hash[5], const uint32_t secret[16], uint32_t pid,
			     uint64_t jiffies, uint64_t cycles)
{
	uint32_t ws[SHA1_WORKSPACE_WORDS];

	hash[0] += (uint32_t)(pid + jiffies + cycles);
	sha1_transform(hash, (const uint8_t *)secret, ws);
	rng_memzero_explicit(ws, sizeof(ws));
	return hash[0];
}

static struct rng_keydata sha1_keydata = {.words = 16};
/* kept per CPU, as the 2.6.30 design it extends */
static struct {
	uint32_t h[5];
} __attribute__((aligned(RNG_CACHELINE))) sha1_hash[RNG_NR_CPUS]; /* a line per CPU */

static uint32_t get_random_int(void)
{
	const struct rng_keydata *keyptr = keydata_get(&sha1_keydata);

	return get_random_int_sha1(sha1_hash[rng_cpu_id()].h, keyptr->secret, rng_current_pid(),
				   rng_jiffies(), rng_get_cycles());
}

static bool sha1_available(void)
{
	return true;
}

static void sha1_mackall_init(const void *seed, size_t len)
{
	pool2629_init(seed, len, "sha1-mackall");
	keydata_init(&sha1_keydata, 16);
	rng_memzero_explicit(sha1_hash, sizeof(sha1_hash));
}

const struct rng_variant rng_variant_sha1_mackall = {
	.name = "sha1-mackall",
	.summary = "Mackall 2009: kept state += pid+jiffies+cycles, full SHA-1 compression",
	.secure = false,
	.available = sha1_available,
	.init = sha1_mackall_init,
	.get_u32 = get_random_int,
	.get_bytes = NULL,
};
