// SPDX-License-Identifier: GPL-2.0
/*
 * rdrand.c - the CPU's RDRAND instruction.
 *
 * Why: the hardware generator that 3.x's get_random_int() tried first
 * (arch_get_random_int()).  CPUID.1:ECX bit 30 says whether it exists;
 * Intel's guidance is to retry up to 10 times when the carry flag reports
 * no data.  The start-up check is x86_init_rdrand() of Linux 5.3 to 5.18
 * (arch/x86/kernel/cpu/rdrand.c, commit 7879fc4bdc75, e.g. 5.10 LTS): 8
 * reads that must all deliver data, else RDRAND is disabled; then 8 more,
 * and if none differs from the one before (AMD parts that return all-ones
 * after resume) the kernel only warns ("RDRAND gives funky smelling
 * output") and keeps using it.  rdrand_stuck() reports that warning; the
 * kernel prints it.  (5.19+ disables a stuck RDRAND instead.)  It is never
 * faked: without the CPUID bit the variant is unavailable and get_u32
 * returns 0.
 */
#include <cpuid.h>

#include "rng/util.h"
#include "rng/variants.h"

#define RDRAND_RETRY_LOOPS 10

#define SANITY_CHECK_LOOPS 8

static int rdrand_state; /* 0 unknown, 1 usable, -1 unavailable */
static bool rdrand_funky;
static uint64_t rdrand_failures;

static bool rdrand_u32(uint32_t *v)
{
	int i;

	for (i = 0; i < RDRAND_RETRY_LOOPS; i++) {
		uint8_t ok;

		__asm__ __volatile__("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
		if (ok)
			return true;
	}
	return false;
}

static bool cpu_has_rdrand(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return false;
	return (ecx & bit_RDRND) != 0;
}

/* 5.10 x86_init_rdrand(): false only when RDRAND fails to deliver */
static bool rdrand_sane(void)
{
	uint32_t tmp = 0, prev;
	unsigned int changed = 0;
	int i;

	for (i = 0; i < SANITY_CHECK_LOOPS; i++)
		if (!rdrand_u32(&tmp))
			return false; /* "rdrand: disabled" */
	prev = tmp;
	for (i = 0; i < SANITY_CHECK_LOOPS; i++) {
		if (rdrand_u32(&tmp)) {
			if (prev != tmp)
				changed++;
			prev = tmp;
		}
	}
	rdrand_funky = !changed; /* warned about, not disabled */
	return true;
}

static bool rdrand_available(void)
{
	if (!rdrand_state)
		rdrand_state = cpu_has_rdrand() && rdrand_sane() ? 1 : -1;
	return rdrand_state > 0;
}

bool rdrand_stuck(void)
{
	return rdrand_available() && rdrand_funky;
}

static void rdrand_init(const void *seed, size_t len)
{
	(void)seed;
	(void)len;
	rdrand_available();
}

static uint32_t rdrand_get_u32(void)
{
	uint32_t v;

	if (!rdrand_available() || !rdrand_u32(&v)) {
		rdrand_failures++;
		return 0;
	}
	return v;
}

static void rdrand_get_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;
	uint32_t v;

	if (!p)
		return;
	while (len) {
		size_t n = len < 4 ? len : 4;

		v = rdrand_get_u32();
		__builtin_memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}

const struct rng_variant rng_variant_rdrand = {
	.name = "rdrand",
	.summary = "CPU RDRAND (CPUID.1:ECX.30), 10 retries; unavailable without it",
	.secure = true,
	.available = rdrand_available,
	.init = rdrand_init,
	.get_u32 = rdrand_get_u32,
	.get_bytes = rdrand_get_bytes,
};
