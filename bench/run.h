/*
 * What one benchmark run has measured so far: the rows of the console
 * tables (kept so that later suites, e.g. the host's peers, can be shown
 * relative to md4-2.6.30) and the counts for the summary record.
 */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stdbool.h>
#include <stdint.h>

#define BENCH_RUN_ROWS 48
#define BENCH_REF_RNG  "md4-2.6.30" /* the 2009 baseline every table compares with */

struct bench_row {
	const char *name;
	bool available, secure;
	int64_t median_m; /* warm cycles per call */
	int64_t mean_m;
	int64_t batch_median_m; /* per call, BENCH_BATCH calls per sample; -1 if none */
	uint32_t min, p99;
	int64_t cold_median_m; /* first call after a flush; -1 if not measured */
	int64_t bulk_cpb_m;    /* get_bytes cycles per byte; -1 if none */
};

struct bench_run {
	struct bench_row rows[BENCH_RUN_ROWS];
	unsigned nrows;
	unsigned measured;    /* targets measured */
	unsigned failed;      /* measurements that could not run (no scratch, ...) */
	unsigned unavailable; /* variants the CPU/platform lacks */
};

void bench_run_init(struct bench_run *run);
/* A new row (zeroed, name set), or NULL when the table is full. */
struct bench_row *bench_run_row(struct bench_run *run, const char *name);
/* Prints rows [first, nrows) as a table relative to BENCH_REF_RNG. */
void bench_run_table(const struct bench_run *run, unsigned first, const char *title);
/* "@@ {"type":"summary",...}" with passed/failed/skipped and status. */
void bench_emit_summary(const struct bench_run *run, int status);

#endif
