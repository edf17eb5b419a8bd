// SPDX-License-Identifier: GPL-2.0
/*
 * ipid_2629.c - get_random_int() of Linux 2.6.29.
 *
 * Why: before the 2009 fix, get_random_int() was
 * secure_ip_id(current->pid + jiffies), the IP-ID generator: one
 * half_md4_transform() of {pid + jiffies, secret[9], secret[10],
 * secret[11]} keyed by secret[0..7].  Nothing is carried from one call to
 * the next, so for five minutes (the re-key interval) equal pid + jiffies
 * give equal "random" values - an attacker who knows a victim's pid and
 * start time can replay its ASLR offsets and stack canary.
 */
#include "rng/halfmd4.h"
#include "rng/keydata.h"
#include "rng/pool.h"
#include "rng/util.h"
#include "rng/variants.h"

uint32_t secure_ip_id_keyed(const uint32_t secret[12], uint32_t daddr)
{
	uint32_t hash[4];

	hash[0] = daddr;
	hash[1] = secret[9];
	hash[2] = secret[10];
	hash[3] = secret[11];
	return half_md4_transform(hash, secret);
}

static struct rng_keydata ip_keydata = {.words = 12};

const struct rng_keydata *ipid2629_keydata(void)
{
	return &ip_keydata;
}

static uint32_t secure_ip_id(uint32_t daddr)
{
	const struct rng_keydata *keyptr = keydata_get(&ip_keydata);

	return secure_ip_id_keyed(keyptr->secret, daddr);
}

static uint32_t get_random_int(void)
{
	return secure_ip_id(rng_current_pid() + (uint32_t)rng_jiffies());
}

static bool ipid_available(void)
{
	return true;
}

static void ipid_init(const void *seed, size_t len)
{
	pool2629_init(seed, len, "ipid-2.6.29");
	keydata_init(&ip_keydata, 12);
}

const struct rng_variant rng_variant_ipid_2629 = {
	.name = "ipid-2.6.29",
	.summary = "2.6.29 get_random_int: secure_ip_id(pid + jiffies), half-MD4, 300 s key",
	.secure = false,
	.available = ipid_available,
	.init = ipid_init,
	.get_u32 = get_random_int,
	.get_bytes = NULL,
};
