// SPDX-License-Identifier: GPL-2.0
/*
 * platform.c - the environment the 2009 generators read.
 *
 * Why: get_random_int() of 2.6.29/2.6.30 mixed current->pid, jiffies and
 * get_cycles() into its hash.  Those values are what an attacker can guess,
 * so tests and the replay tool must be able to inject them exactly.  The
 * kernel installs its own accessors; the host default is pid 1, jiffies 0,
 * RDTSC cycles and HZ 250.
 */
#include "rng/rng.h"
#include "rng/util.h"

static uint32_t default_pid(void)
{
	return 1;
}

static uint64_t default_jiffies(void)
{
	return 0;
}

static uint64_t default_cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

bool rng_user_simd_begin(void)
{
	return true;
}

void rng_user_simd_end(void)
{
}

static const struct rng_platform default_platform = {
	.current_pid = default_pid,
	.jiffies = default_jiffies,
	.get_cycles = default_cycles,
	.hz = 250,
	.simd_begin = rng_user_simd_begin,
	.simd_end = rng_user_simd_end,
	.simd_xfeatures = RNG_USER_SIMD_XFEATURES,
};

static const struct rng_platform *platform = &default_platform;

void rng_set_platform(const struct rng_platform *p)
{
	platform = p ? p : &default_platform;
	rng_cpu_gs_offset = platform->cpu_gs_offset;
	rng_cpu_id_fn = platform->cpu_id;
	rng_cpus_known = rng_cpu_gs_offset || rng_cpu_id_fn;
}

uint32_t rng_current_pid(void)
{
	return platform->current_pid ? platform->current_pid() : 1;
}

uint64_t rng_jiffies(void)
{
	return platform->jiffies ? platform->jiffies() : 0;
}

uint64_t rng_get_cycles(void)
{
	return platform->get_cycles ? platform->get_cycles() : default_cycles();
}

unsigned long rng_cpu_gs_offset;
unsigned int (*rng_cpu_id_fn)(void);
bool rng_cpus_known;

unsigned int rng_cpu_id_hook(void)
{
	return rng_cpu_id_fn ? rng_cpu_id_fn() : 0;
}

size_t rng_arch_seed_longs(uint64_t *v, size_t max)
{
	return platform->arch_seed_longs ? platform->arch_seed_longs(v, max) : 0;
}

size_t rng_arch_longs(uint64_t *v, size_t max)
{
	return platform->arch_longs ? platform->arch_longs(v, max) : 0;
}

unsigned long rng_irq_save(void)
{
	return platform->irq_save ? platform->irq_save() : 0;
}

void rng_irq_restore(unsigned long flags)
{
	if (platform->irq_restore)
		platform->irq_restore(flags);
}

uint64_t rng_uptime_seconds(uint64_t now)
{
	return (now - platform->initial_jiffies) / rng_hz();
}

uint32_t rng_hz(void)
{
	return platform->hz ? platform->hz : 250;
}

/* ---- seed folding -------------------------------------------------------
 * Why: every variant's init() takes seed material of arbitrary length; a
 * fold keeps all of it (nothing is silently dropped) without allocating.
 */
void rng_fold_seed(const void *seed, size_t len, uint32_t *out, size_t n)
{
	const uint8_t *b = seed;
	size_t k;

	if (!out || !n)
		return;
	for (k = 0; k < n; k++)
		out[k] = 0;
	if (!b)
		return;
	for (k = 0; k < len; k++)
		out[(k / 4) % n] ^= (uint32_t)b[k] << (8 * (k % 4));
}

bool rng_simd_begin(void)
{
	return platform->simd_begin && platform->simd_begin();
}

void rng_simd_end(void)
{
	if (platform->simd_end)
		platform->simd_end();
}

uint64_t rng_simd_xfeatures(void)
{
	if (!platform->simd_begin)
		return 0;
	return platform->simd_xfeatures ? platform->simd_xfeatures : XFEATURE_MASK_FPSSE;
}
