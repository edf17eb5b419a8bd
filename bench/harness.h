/*
 * The timing harness: E ensembles of S samples of one target, each sample
 * bracketed by serialised TSC reads (tsc.h), the measurement overhead
 * subtracted, integer statistics (stats.h), and "@@" bench records.
 *
 * Used by the suites here and by the kernel's fork/spawn suites.
 */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/cpu.h"
#include "common/jrec.h"
#include "bench/stats.h"

/* A memory range evicted before each "first call" sample. */
struct bench_range {
	const void *lo, *hi;
};

#define BENCH_MAX_RANGES 32
/* Samples run untimed before the first ensemble. */
#define BENCH_WARMUP 100

struct bench_config {
	uint32_t ensembles;    /* E */
	uint32_t samples;      /* S, per ensemble */
	uint32_t cold_samples; /* S for cache-cold measurements (each one flushes) */
	enum bench_serialise serialise;
	bool rdtscp;   /* else the end read is serialiser + RDTSC */
	bool irqs_off; /* bench_irq_save really disables interrupts */
	/* Subtracted from every sample; set by bench_calibrate(). */
	uint32_t overhead;
	/* Run only the variant/peer of this name (NULL: all). */
	const char *only;
	/* Memory images (code, data, bss) to CLFLUSH for cycles_first_call. */
	struct bench_range flush[BENCH_MAX_RANGES];
	unsigned nflush;
};

struct bench_target {
	void (*fn)(void *arg); /* the code measured, once per sample */
	void *arg;
	/*
	 * Run with interrupts enabled (e.g. fork, which sleeps and schedules);
	 * otherwise they are off from the first TSC read to the last of each
	 * sample, and pending ones are taken between samples, outside the
	 * timed region, so that the kernel never loses more than one tick.
	 */
	bool irqs_on;
	/*
	 * Optional, outside the timed region, before every sample (interrupts
	 * in their normal state): e.g. cache eviction, resetting a child.
	 */
	void (*setup)(void *arg, uint64_t sample);
	/* Samples per ensemble for this target; 0 = cfg->samples. */
	uint32_t samples;
};

struct bench_result {
	uint32_t ensembles, samples; /* samples per ensemble */
	uint32_t overhead;	     /* cycles subtracted from each sample */
	uint32_t clamped;	     /* samples below the overhead, counted as 0 */
	uint32_t saturated;	     /* samples >= 2^32 cycles, stored as 2^32-1 */
	enum bench_serialise serialise;
	bool irqs_off;
	/* Work units per sample: statistics are divided by this when emitted. */
	uint32_t per;
	struct bench_stats st;
	const uint32_t *sorted; /* st.n samples in platform scratch, until reused */
};

/* Fills cfg from CPUID facts with E=10, S=1000, cold S=25 and no overhead. */
void bench_config_init(struct bench_config *cfg, const struct bench_cpu *cpu);

/* 0, or -1 (sizes out of range / no scratch memory). */
int bench_measure(const struct bench_config *cfg, const struct bench_target *t,
		  struct bench_result *out);

/*
 * Measures the empty target and sets cfg->overhead to its minimum: the
 * fixed cost of the reads and the call, which noise can only add to, so the
 * minimum is its best estimate and subtracting it never removes real work
 * (a median would also subtract typical noise). Returns as bench_measure.
 */
int bench_calibrate(struct bench_config *cfg, struct bench_result *floor);

/* Subtracts `overhead`, clamping at 0; returns how many were clamped. */
uint32_t bench_subtract(uint32_t *s, uint64_t n, uint32_t overhead);

/*
 * Records: bench_record_begin writes type "bench" and every field
 * docs/design.md ("Log records") promises
 * (suite, rng, metric, min, median, mean, p99, max, var, ensembles,
 * samples, ens_medians) plus unit, overhead, var_of_min, var_of_var,
 * serialise, n, irqs_off; the caller may add fields with jrec_*() and then
 * calls bench_record_emit.  `buf` should hold BENCH_REC_SIZE bytes: room for
 * the largest record (BENCH_ENS_MEDIANS medians of 2^32-1 cycles, every
 * optional field; tests/bench/test_bench.c's record_worst_case_fits checks it).
 */
#define BENCH_REC_SIZE 2048
void bench_record_begin(struct jrec *r, char *buf, size_t size, const struct bench_result *res,
			const char *suite, const char *rng, const char *metric, const char *unit);
void bench_record_emit(struct jrec *r);
/* Both steps with no extra fields. */
void bench_emit_record(const struct bench_result *res, const char *suite, const char *rng,
		       const char *metric, const char *unit);

/* A milli value as a JSON number: 3 decimals while it fits, else whole. */
void bench_jrec_milli(struct jrec *r, const char *key, unsigned __int128 milli);
/* CPU fields for a boot record: cpu_vendor, cpu_model, ..., serialise. */
void bench_jrec_cpu(struct jrec *r, const struct bench_cpu *cpu, const struct bench_config *cfg);

#endif
