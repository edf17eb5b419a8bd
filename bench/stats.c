/* Integer statistics; see stats.h for the conventions. */
#include "bench/stats.h"

static void sift_down(uint32_t *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		uint32_t t;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

void stats_sort_u32(uint32_t *a, size_t n)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (i = n - 1; i > 0; i--) {
		uint32_t t = a[0];

		a[0] = a[i];
		a[i] = t;
		sift_down(a, 0, i);
	}
}

/*
 * Shift-subtract long division: __int128 '/' would call libgcc's __udivti3,
 * which the kernel does not link.  Only a handful of calls per measurement.
 */
static unsigned __int128 udiv128(unsigned __int128 num, uint64_t den, uint64_t *rem)
{
	unsigned __int128 q = 0;
	unsigned __int128 r = 0;

	for (int i = 127; i >= 0; i--) {
		r = r << 1 | (uint64_t)((num >> i) & 1);
		if (r >= den) {
			r -= den;
			q |= (unsigned __int128)1 << i;
		}
	}
	*rem = (uint64_t)r;
	return q;
}

unsigned __int128 stats_muldiv(unsigned __int128 num, uint64_t scale, uint64_t den)
{
	uint64_t rem;
	unsigned __int128 q;

	if (!den)
		return 0;
	/* num * scale must not wrap: callers keep num < 2^118, scale <= 1000. */
	q = udiv128(num * scale, den, &rem);
	/* Half up: compare 2*rem with den without overflowing rem. */
	if (rem >= den - rem)
		q++;
	return q;
}

unsigned __int128 stats_var_m(uint64_t n, unsigned __int128 sum, unsigned __int128 sumsq)
{
	unsigned __int128 num;

	if (n == 0)
		return 0;
	/* n*sumsq - sum^2 = n^2 * variance, never negative (Cauchy-Schwarz). */
	num = (unsigned __int128)n * sumsq - sum * sum;
	/* n^2 fits in 64 bits because n <= BENCH_MAX_SAMPLES. */
	return stats_muldiv(num, 1000, n * n);
}

static uint64_t round_whole(unsigned __int128 milli)
{
	uint64_t rem;
	unsigned __int128 q = udiv128(milli + 500, 1000, &rem);

	return q > BENCH_VAR_CAP ? BENCH_VAR_CAP : (uint64_t)q;
}

/* Median * 1000 of n sorted samples: the mean of the two middle ones when n is even. */
static int64_t sorted_median_m(const uint32_t *s, uint64_t n)
{
	if (n & 1)
		return (int64_t)s[n / 2] * 1000;
	return ((int64_t)s[n / 2 - 1] + s[n / 2]) * 500;
}

int stats_compute(uint32_t *s, uint32_t ensembles, uint32_t per, uint64_t *work,
		  struct bench_stats *st)
{
	uint64_t n = (uint64_t)ensembles * per, *mins = work, *vars = work + ensembles;
	unsigned __int128 sum = 0, sumsq = 0, msum = 0, msq = 0, vsum = 0, vsq = 0;

	if (!ensembles || !per || ensembles > BENCH_MAX_ENSEMBLES || n > BENCH_MAX_SAMPLES)
		return -1;
	st->var_of_var_capped = false;
	st->ens_medians = ensembles < BENCH_ENS_MEDIANS ? ensembles : BENCH_ENS_MEDIANS;
	for (uint32_t e = 0; e < ensembles; e++) {
		uint32_t *b = s + (uint64_t)e * per;
		unsigned __int128 esum = 0, esq = 0;
		uint32_t emin = b[0];

		for (uint32_t i = 0; i < per; i++) {
			esum += b[i];
			esq += (uint64_t)b[i] * b[i];
			if (b[i] < emin)
				emin = b[i];
		}
		sum += esum;
		sumsq += esq;
		mins[e] = emin;
		/* Whole cycles^2, capped, so that their squares stay in range. */
		vars[e] = round_whole(stats_var_m(per, esum, esq));
		if (vars[e] == BENCH_VAR_CAP)
			st->var_of_var_capped = true;
		msum += mins[e];
		msq += (unsigned __int128)mins[e] * mins[e];
		vsum += vars[e];
		vsq += (unsigned __int128)vars[e] * vars[e];
		/* The sums above are taken; the block's order no longer matters. */
		if (e < st->ens_medians) {
			stats_sort_u32(b, per);
			st->ens_median_m[e] = sorted_median_m(b, per);
		}
	}
	st->n = n;
	st->mean_m = (int64_t)stats_muldiv(sum, 1000, n);
	st->var_m = stats_var_m(n, sum, sumsq);
	st->var_of_min_m = stats_var_m(ensembles, msum, msq);
	st->var_of_var_m = stats_var_m(ensembles, vsum, vsq);

	stats_sort_u32(s, n);
	st->min = s[0];
	st->max = s[n - 1];
	st->median_m = sorted_median_m(s, n);
	st->p99 = s[(99 * n + 99) / 100 - 1];
	return 0;
}
