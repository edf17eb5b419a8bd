/*
 * Integer statistics over cycle samples.  No floating point (the kernel is
 * built -mgeneral-regs-only): fractional results are fixed point in
 * thousandths ("_m" = milli), rounded half up.  Variances are population
 * variances (divide by n), so one sample gives 0 rather than undefined.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits that keep every intermediate inside unsigned __int128. */
#define BENCH_MAX_SAMPLES   (1u << 24) /* all ensembles together */
#define BENCH_MAX_ENSEMBLES (1u << 16)
/* Per-ensemble variances (whole cycles^2) are capped here before var_of_var. */
#define BENCH_VAR_CAP ((uint64_t)1 << 40)
/*
 * Per-ensemble medians kept (for the record's "ens_medians", from which the
 * host's reports draw their intervals): the first this many ensembles.  64
 * values keep the record inside BENCH_REC_SIZE whatever their size; a run
 * of more ensembles says so in its record ("ens_medians_capped").
 */
#define BENCH_ENS_MEDIANS 64

struct bench_stats {
	uint64_t n; /* samples in all ensembles */
	uint32_t min, max;
	uint32_t p99;	  /* nearest rank: the ceil(0.99 n)-th smallest */
	int64_t median_m; /* mean of the two middle samples when n is even */
	int64_t mean_m;
	unsigned __int128 var_m;	/* over all samples */
	unsigned __int128 var_of_min_m; /* variance of the per-ensemble minima */
	unsigned __int128 var_of_var_m; /* variance of the per-ensemble variances */
	bool var_of_var_capped;		/* some ensemble variance hit BENCH_VAR_CAP */
	/* As median_m, for each of the first ens_medians = min(E, BENCH_ENS_MEDIANS). */
	uint32_t ens_medians;
	int64_t ens_median_m[BENCH_ENS_MEDIANS];
};

/* In-place heap sort: O(n log n), no recursion, no extra memory. */
void stats_sort_u32(uint32_t *a, size_t n);

/* round(num * scale / den) without libgcc's 128-bit division. */
unsigned __int128 stats_muldiv(unsigned __int128 num, uint64_t scale, uint64_t den);

/* Population variance * 1000 from n, sum and sum of squares. */
unsigned __int128 stats_var_m(uint64_t n, unsigned __int128 sum, unsigned __int128 sumsq);

/*
 * Statistics over `ensembles` consecutive blocks of `per` samples each.
 * `work` must hold 2 * ensembles uint64_t.  Sorts `s` in place (the
 * per-ensemble figures, medians included, are taken first).  Returns 0, or
 * -1 if the sizes are zero or beyond the limits above.
 */
int stats_compute(uint32_t *s, uint32_t ensembles, uint32_t per, uint64_t *work,
		  struct bench_stats *st);

#endif
