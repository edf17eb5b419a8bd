// SPDX-License-Identifier: GPL-2.0
/*
 * md5_3x.c - get_random_int() of Linux 3.1 to 4.10 (August 2011 to early 2017).
 *
 * The MD5 get_random_int() came with the CVE-2011-3188 fix (commit
 * 6e5714eaf77d, August 2011, also backported to stable 2.6.x/3.0.x) and was
 * replaced by ChaCha20 in January 2017 (f5b98461cb81, merged for 4.11), so
 * 4.10 is the last release that has it.
 *
 * Why: the successor of the 2.6.30 design: the same kept per-CPU hash and
 * pid + jiffies + cycles input, but the full md5_transform() and a 16-word
 * random_int_secret drawn once at boot (random_int_secret_init()) and
 * never re-keyed.  The arch_get_random_int() (RDRAND) shortcut that 3.x
 * tried first is left out, so this variant measures the MD5 path.
 */
#include "rng/md5.h"
#include "rng/pool.h"
#include "rng/util.h"
#include "rng/variants.h"

uint32_t get_random_int_md5(uint32_t hash[4], const uint32_t secret[16], uint32_t pid,
			    uint64_t jiffies, uint64_t cycles)
{
	hash[0] += (uint32_t)(pid + jiffies + cycles);
	md5_transform(hash, secret);
	return hash[0];
}

static uint32_t random_int_secret[MD5_MESSAGE_BYTES / 4];
/* 3.1: static DEFINE_PER_CPU(__u32 [MD5_DIGEST_WORDS], get_random_int_hash) */
static struct {
	uint32_t h[MD5_DIGEST_WORDS];
} __attribute__((aligned(RNG_CACHELINE))) get_random_int_hash[RNG_NR_CPUS]; /* a line per CPU */

static uint32_t get_random_int(void)
{
	return get_random_int_md5(get_random_int_hash[rng_cpu_id()].h, random_int_secret,
				  rng_current_pid(), rng_jiffies(), rng_get_cycles());
}

static bool md5_available(void)
{
	return true;
}

static void random_int_secret_init(const void *seed, size_t len)
{
	pool2629_init(seed, len, "md5-3.x");
	pool2629_get_random_bytes(random_int_secret, sizeof(random_int_secret));
	rng_memzero_explicit(get_random_int_hash, sizeof(get_random_int_hash));
}

const struct rng_variant rng_variant_md5_3x = {
	.name = "md5-3.x",
	.summary = "3.x get_random_int: kept hash += pid+jiffies+cycles, md5_transform",
	.secure = false,
	.available = md5_available,
	.init = random_int_secret_init,
	.get_u32 = get_random_int,
	.get_bytes = NULL,
};
