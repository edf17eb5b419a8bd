// SPDX-License-Identifier: GPL-2.0
/*
 * chacha20_cpu.c - which implementation of chacha20_blocks() may run: the
 * CPU's features, the OS's XCR0 and the platform's register saving.
 *
 * Why: an AVX2 or AVX-512 instruction is only safe when three parties
 * agree.  The CPU must have it (CPUID); the OS must have enabled its
 * register state (CR4.OSXSAVE, then XCR0), or the instruction faults; and
 * whoever else owns the registers must get them back: a host program owns
 * its own, but the kernel runs between a user task's instructions and its
 * kernel_fpu_begin() saves only what FXSAVE saves (x87 and SSE).  XGETBV
 * itself raises #UD while CR4.OSXSAVE is clear (Intel SDM vol. 2, XGETBV),
 * so CPUID.1:ECX.OSXSAVE, which mirrors that bit, is tested before it runs.
 */
#include <cpuid.h>

#include "rng/chacha20_simd.h"
#include "rng/rng.h"
#include "rng/util.h"

#define CPUID1_ECX_SSSE3   (1u << 9)
#define CPUID1_ECX_OSXSAVE (1u << 27)
#define CPUID1_ECX_AVX	   (1u << 28)
#define CPUID7_EBX_AVX2	   (1u << 5)
#define CPUID7_EBX_AVX512F (1u << 16)

static const char *const impl_names[CHACHA_NR_IMPLS] = {"scalar", "sse2", "ssse3", "avx2",
							"avx512f"};

const char *chacha_impl_name(enum chacha_impl impl)
{
	return (unsigned int)impl < CHACHA_NR_IMPLS ? impl_names[impl] : "?";
}

uint64_t chacha_impl_xfeatures(enum chacha_impl impl)
{
	switch (impl) {
	case CHACHA_IMPL_SSSE3:
		return XFEATURE_MASK_FPSSE;
	case CHACHA_IMPL_AVX2:
		return XFEATURE_MASK_FPSSE | XFEATURE_MASK_YMM;
	case CHACHA_IMPL_AVX512F:
		return XFEATURE_MASK_FPSSE | XFEATURE_MASK_YMM | XFEATURE_MASK_AVX512;
	default:
		return 0;
	}
}

unsigned int chacha_impls_from_facts(const struct chacha_cpu_facts *f)
{
	unsigned int m = 1u << CHACHA_IMPL_SCALAR | 1u << CHACHA_IMPL_SSE2;
	uint64_t os = 0;

	if (f->cpuid1_ecx & CPUID1_ECX_SSSE3)
		m |= 1u << CHACHA_IMPL_SSSE3;
	/* without OSXSAVE, XCR0 was never read and means nothing */
	if (f->cpuid1_ecx & CPUID1_ECX_OSXSAVE)
		os = f->xcr0;
	if ((f->cpuid1_ecx & CPUID1_ECX_AVX) && (f->cpuid7_ebx & CPUID7_EBX_AVX2) &&
	    (os & chacha_impl_xfeatures(CHACHA_IMPL_AVX2)) ==
		    chacha_impl_xfeatures(CHACHA_IMPL_AVX2))
		m |= 1u << CHACHA_IMPL_AVX2;
	/* the AVX-512F body also calls AVX2-era instructions: both must be usable */
	if ((m & 1u << CHACHA_IMPL_AVX2) && (f->cpuid7_ebx & CPUID7_EBX_AVX512F) &&
	    (os & chacha_impl_xfeatures(CHACHA_IMPL_AVX512F)) ==
		    chacha_impl_xfeatures(CHACHA_IMPL_AVX512F))
		m |= 1u << CHACHA_IMPL_AVX512F;
	return m;
}

void chacha_cpu_facts_read(struct chacha_cpu_facts *f)
{
	unsigned int a, b, c, d;

	f->cpuid1_ecx = f->cpuid7_ebx = 0;
	f->xcr0 = 0;
	if (__get_cpuid(1, &a, &b, &c, &d))
		f->cpuid1_ecx = c;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
		f->cpuid7_ebx = b;
	if (f->cpuid1_ecx & CPUID1_ECX_OSXSAVE) {
		uint32_t lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		f->xcr0 = (uint64_t)hi << 32 | lo;
	}
}

/* ---- the choice ------------------------------------------------------------------ */
static int cpu_impls = -1; /* the CPU's and OS's mask, read once */
static enum chacha_impl forced = CHACHA_NR_IMPLS;

bool chacha_impl_usable(enum chacha_impl impl)
{
	uint64_t need = chacha_impl_xfeatures(impl);

	if ((unsigned int)impl >= CHACHA_NR_IMPLS)
		return false;
	if (cpu_impls < 0) {
		struct chacha_cpu_facts f;

		chacha_cpu_facts_read(&f);
		cpu_impls = (int)chacha_impls_from_facts(&f);
	}
	if (!((unsigned int)cpu_impls & 1u << impl))
		return false;
	/* SIMD registers: only inside a platform region that saves all of them */
	return !need || (rng_simd_xfeatures() & need) == need;
}

enum chacha_impl chacha_impl_active(void)
{
	int i;

	if (forced != CHACHA_NR_IMPLS && chacha_impl_usable(forced))
		return forced;
	for (i = CHACHA_NR_IMPLS - 1; i > CHACHA_IMPL_SSE2; i--)
		if (chacha_impl_usable((enum chacha_impl)i))
			return (enum chacha_impl)i;
	return CHACHA_IMPL_SSE2;
}

bool chacha_impl_force(enum chacha_impl impl)
{
	if (impl == CHACHA_NR_IMPLS) {
		forced = impl;
		return true;
	}
	if (!chacha_impl_usable(impl))
		return false;
	forced = impl;
	return true;
}
