/*
 * Timestamp reads bracketing the code under test, after Paoloni, "How to
 * Benchmark Code Execution Times on Intel IA-32 and IA-64 Instruction Set
 * Architectures" (Intel, 2010), section 3.2:
 *
 *   start: CPUID; RDTSC        CPUID drains everything before the read
 *   end:   RDTSCP; CPUID       RDTSCP waits for the code under test, CPUID
 *                              keeps later instructions from moving up
 *
 * On AMD, LFENCE is dispatch-serialising (Linux sets DE_CFG[1] on every
 * family that needs it) and CPUID is much dearer, so the AMD-recommended
 * LFENCE;RDTSC ... RDTSCP;LFENCE is used there.  Without RDTSCP the end read
 * falls back to the same serialiser before a plain RDTSC.
 *
 * Header-only and always_inline so that nothing but these instructions sits
 * between the two reads.
 */
#ifndef COMMON_TSC_H
#define COMMON_TSC_H

#include <stdint.h>

#define BENCH_INLINE static inline __attribute__((always_inline))

BENCH_INLINE uint64_t tsc_start_cpuid(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xor %%eax, %%eax\n\t"
			 "cpuid\n\t"
			 "rdtsc"
			 : "=a"(lo), "=d"(hi)
			 :
			 : "rbx", "rcx", "memory");
	return (uint64_t)hi << 32 | lo;
}

BENCH_INLINE uint64_t tsc_stop_cpuid(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtscp\n\t"
			 "mov %%eax, %0\n\t"
			 "mov %%edx, %1\n\t"
			 "xor %%eax, %%eax\n\t"
			 "cpuid"
			 : "=r"(lo), "=r"(hi)
			 :
			 : "rax", "rbx", "rcx", "rdx", "memory");
	return (uint64_t)hi << 32 | lo;
}

/* End read for CPUs without RDTSCP: serialise, then read. */
BENCH_INLINE uint64_t tsc_stop_cpuid_plain(void)
{
	return tsc_start_cpuid();
}

BENCH_INLINE uint64_t tsc_start_lfence(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\t"
			 "rdtsc"
			 : "=a"(lo), "=d"(hi)
			 :
			 : "memory");
	return (uint64_t)hi << 32 | lo;
}

BENCH_INLINE uint64_t tsc_stop_lfence(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtscp\n\t"
			 "lfence"
			 : "=a"(lo), "=d"(hi)
			 :
			 : "rcx", "memory");
	return (uint64_t)hi << 32 | lo;
}

BENCH_INLINE uint64_t tsc_stop_lfence_plain(void)
{
	return tsc_start_lfence();
}

/* Unserialised read for calibration and coarse clocks. */
BENCH_INLINE uint64_t tsc_read(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

#endif
