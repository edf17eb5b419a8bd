/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chacha20_simd.h - inside rng/: the vector bodies of chacha20_blocks() and
 * the check that chooses among them.  Callers outside rng/ use chacha20.h.
 */
#ifndef RNG_CHACHA20_SIMD_H
#define RNG_CHACHA20_SIMD_H

#include <stdbool.h>
#include <stdint.h>

#include "rng/chacha20.h"

/* blocks state[12], state[12]+1, ... into @out; @state is not advanced */
void chacha20_8blocks_avx2(const uint32_t state[CHACHA_STATE_WORDS], uint8_t *out);
void chacha20_16blocks_avx512f(const uint32_t state[CHACHA_STATE_WORDS], uint8_t *out);

/*
 * What the CPU reports: CPUID.1:ECX, CPUID.(7,0):EBX (0 when leaf 7 is
 * absent) and XCR0 (read by XGETBV only when CPUID.1:ECX.OSXSAVE is set, 0
 * otherwise).
 */
struct chacha_cpu_facts {
	uint32_t cpuid1_ecx;
	uint32_t cpuid7_ebx;
	uint64_t xcr0;
};

/* Reads the facts of this CPU (XGETBV only behind OSXSAVE). */
void chacha_cpu_facts_read(struct chacha_cpu_facts *f);
/*
 * The implementations @f allows, as bits 1 << enum chacha_impl: scalar and
 * SSE2 always (x86_64), SSSE3 by CPUID, AVX2 and AVX-512F only when the OS
 * has enabled their register state in XCR0 (Intel SDM vol. 1, 14.3 and
 * 15.2).  Pure: the tests feed it made-up facts.
 */
unsigned int chacha_impls_from_facts(const struct chacha_cpu_facts *f);
/* XCR0 components an implementation's registers need (0 for general registers) */
uint64_t chacha_impl_xfeatures(enum chacha_impl impl);

#endif
