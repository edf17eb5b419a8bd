/* What CPUID says about the CPU and its time-stamp counter. */
#ifndef COMMON_CPU_H
#define COMMON_CPU_H

#include <stdbool.h>
#include <stdint.h>

enum bench_serialise {
	BENCH_SER_CPUID,  /* Paoloni: CPUID;RDTSC ... RDTSCP;CPUID (Intel) */
	BENCH_SER_LFENCE, /* LFENCE;RDTSC ... RDTSCP;LFENCE (AMD) */
};

struct bench_cpu {
	char vendor[13]; /* "GenuineIntel", "AuthenticAMD", ... */
	char brand[49];	 /* 0x80000002..4, leading blanks stripped */
	uint32_t family, model, stepping;
	bool invariant_tsc; /* 0x80000007 EDX[8] */
	bool hypervisor;    /* 1:ECX[31] */
	bool rdtscp;	    /* 0x80000001 EDX[27] */
	bool clflush;	    /* 1:EDX[19] */
	/* Nominal TSC frequency from CPUID, 0 if it does not say. */
	uint64_t tsc_hz_cpuid;
	/* "cpuid15", "cpuid16", "hypervisor" (0x40000010) or "none". */
	const char *tsc_hz_source;
	enum bench_serialise serialise; /* recommended for this vendor */
	/*
	 * Usual step between back-to-back RDTSCs: the counter's resolution or
	 * the cost of a read, whichever is larger (AMD Zen ticks by tens of
	 * cycles at the 100 MHz reference clock).  Single samples are quantised
	 * to it; means stay unbiased as calls are not phase-locked to ticks.
	 * 0 if it is 256 or more.
	 */
	uint32_t tsc_step;
};

void bench_cpu_detect(struct bench_cpu *c);
const char *bench_serialise_name(enum bench_serialise s);
/* Write back and evict every cache line of [lo, hi) (CLFLUSH + MFENCE). */
void bench_clflush_range(const void *lo, const void *hi);

#endif
