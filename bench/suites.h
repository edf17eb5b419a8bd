/* The benchmark suites that run the same way in the kernel and on the host. */
#ifndef BENCH_SUITES_H
#define BENCH_SUITES_H

#include "bench/harness.h"
#include "bench/run.h"
#include "rng/rng.h"

/*
 * "timer": the measurement floor, an empty function through the harness,
 * reported raw (overhead 0).  Sets cfg->overhead to its minimum for later
 * suites (the kernel's fork/spawn ones).  0 or -1.
 */
int bench_suite_timer(struct bench_config *cfg, struct bench_run *run);

/*
 * "rng": for each variant in the NULL-terminated list (rng_variants[], or
 * the host's peers) that cfg->only selects, records
 *   cycles_per_call    warm get_u32(), one call per sample, unit "cycles"
 *   cycles_per_call_batched  BENCH_BATCH calls per sample, statistics per
 *                      call: finer than the TSC step, but throughput
 *   cycles_first_call  get_u32() after CLFLUSH of every cfg->flush range
 *                      (skipped when cfg->nflush is 0)
 *   cycles_per_byte    get_bytes() of BENCH_BULK_BYTES, unit "cycles/byte",
 *                      when the variant has get_bytes
 * An unavailable variant gets one cycles_per_call record with
 * "available":false and no numbers.  Then prints the table.  Returns the
 * number of failed measurements.
 */
#define BENCH_BULK_BYTES 4096
#define BENCH_BATCH	 16
int bench_suite_rng(const struct bench_config *cfg, const struct rng_variant *const *list,
		    const char *title, struct bench_run *run);

#endif
