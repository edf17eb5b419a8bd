/*
 * Integer statistics for the ASLR suite: distinct values, bits that change,
 * the Shannon estimate and a chi-square uniformity test with its p-value.
 *
 * The kernel has no floating point (-mgeneral-regs-only), so everything is
 * fixed point: "Q32" means value * 2^32 in an integer, "Q62" value * 2^62.
 * The file includes only <stdint.h> so the same code can be checked on a
 * host against a floating-point reference.
 */
#ifndef KERNEL_MEASURE_ASLR_STATS_H
#define KERNEL_MEASURE_ASLR_STATS_H

#include <stdint.h>

/* log2(v) in Q32 for v >= 1, truncated (error < 2^-31); 0 for v = 0. */
int64_t aslr_log2_q32(uint64_t v);

/* e^-a in Q62 for a >= 0 given in Q32 (relative error ~1e-17; 0 below 2^-62). */
uint64_t aslr_exp_neg_q62(uint64_t a_q32);

/* In-place ascending sort (heapsort: no recursion, no allocation). */
void aslr_sort_u64(uint64_t *v, uint32_t n);

/* Number of distinct values of a sorted array. */
uint32_t aslr_distinct_sorted(const uint64_t *v, uint32_t n);

/* popcount of the OR over (v[i] XOR v[0]): how many bit positions ever change. */
uint32_t aslr_bits_changed(const uint64_t *v, uint32_t n);

/*
 * Plug-in Shannon entropy of the empirical distribution of a sorted array,
 * -sum p log2 p with p = count / n, in thousandths of a bit (rounded).
 */
int64_t aslr_entropy_milli_sorted(const uint64_t *v, uint32_t n);

/*
 * Pearson's statistic over k bins holding n observations in all, expected
 * n/k each: sum (o - n/k)^2 / (n/k) = (k * sum o^2 - n^2) / n, in Q32.
 */
uint64_t aslr_chi2_q32(const uint32_t *counts, uint32_t k, uint32_t n);

/*
 * P(X >= x) for X chi-square with df degrees of freedom, df odd (k a power
 * of two gives df = k - 1), x in Q32; the result in Q62.  Exact series, see
 * stats.c; absolute error below 1e-6 for df <= 4095, 2e-5 for df <= 65535.
 * Returns UINT64_MAX for an even df.
 */
uint64_t aslr_chi2_sf_q62(uint64_t x_q32, uint32_t df);

#endif
