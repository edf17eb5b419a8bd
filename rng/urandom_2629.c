// SPDX-License-Identifier: GPL-2.0
/*
 * urandom_2629.c - Mackall's first patch: get_random_u32() via
 * get_random_bytes().
 *
 * Why: the "known safe point" Mackall wanted to start from: every ASLR
 * offset and canary comes from the nonblocking pool, at the price of a
 * full extract_buf() (three SHA-1 compressions and pool mixing) per call.
 * It was called "insane overkill"; this variant measures how insane.
 */
#include "rng/pool.h"
#include "rng/util.h"
#include "rng/variants.h"

static bool urandom_available(void)
{
	return true;
}

static void urandom_init(const void *seed, size_t len)
{
	pool2629_init(seed, len, "urandom-2.6.29");
}

static uint32_t get_random_u32(void)
{
	uint8_t b[4];

	pool2629_get_random_bytes(b, sizeof(b));
	return get_le32(b);
}

static void get_random_bytes(void *buf, size_t len)
{
	pool2629_get_random_bytes(buf, len);
}

const struct rng_variant rng_variant_urandom_2629 = {
	.name = "urandom-2.6.29",
	.summary = "Mackall's first patch: get_random_bytes() from the 2.6.29 SHA-1 pool",
	.secure = true,
	.available = urandom_available,
	.init = urandom_init,
	.get_u32 = get_random_u32,
	.get_bytes = get_random_bytes,
};
