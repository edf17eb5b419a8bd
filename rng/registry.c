// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - the variant table in the order of docs/design.md ("RNG
 * variants"), lookup by contract name,
 * seeding and the interrupt entropy input.
 *
 * Why: names are the contract used on the kernel command line (rng=), in
 * logs and by rngtool; one table keeps them from drifting.
 */
#include "rng/pool.h"
#include "rng/input_pool.h"
#include "rng/rng.h"
#include "rng/variants.h"

const struct rng_variant *const rng_variants[RNG_NR_VARIANTS + 1] = {
	&rng_variant_prandom,	       &rng_variant_ipid_2629,
	&rng_variant_md4_2630,	       &rng_variant_sha1_mackall,
	&rng_variant_urandom_2629,     &rng_variant_md5_3x,
	&rng_variant_chacha20_batched, &rng_variant_chacha20_wide,
	&rng_variant_rdrand,	       NULL,
};

static bool name_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct rng_variant *rng_find(const char *name)
{
	const struct rng_variant *const *v;

	if (!name)
		return NULL;
	for (v = rng_variants; *v; v++)
		if (name_eq((*v)->name, name))
			return *v;
	return NULL;
}

/*
 * Every 2009-era variant (ipid, md4, sha1-mackall, urandom, md5-3.x)
 * re-initialises the shared 2.6.29 pool with the seed and its own name, so
 * each one's secrets depend on the seed alone (and never equal another
 * variant's).  The last of them in the table, md5-3.x, runs after
 * urandom-2.6.29: the pool left behind is pool2629_init(seed, "md5-3.x"),
 * not urandom-2.6.29's boot state, and what urandom-2.6.29 and AT_RANDOM
 * (aslr_rules=2.6.29) read after boot comes from that pool.
 */
void rng_seed_all(const void *seed, size_t len)
{
	const struct rng_variant *const *v;

	for (v = rng_variants; *v; v++)
		if ((*v)->init && (*v)->available())
			(*v)->init(seed, len);
}

void rng_add_interrupt_randomness(uint32_t irq, uint64_t cycles)
{
	pool2629_add_interrupt_randomness(irq, cycles);
}

void rng_add_input_randomness(uint32_t type, uint32_t code, uint32_t value, uint64_t cycles)
{
	pool2629_add_input_randomness(type, code, value, cycles);
	input_pool_add_input_randomness(type, code, value, cycles); /* the 6.x pool */
}
