/*
 * Integer statistics for the ASLR suite (see stats.h for the definitions).
 *
 * log2: the classic bit-by-bit method.  v is normalised to y in [1, 2) in
 * Q62; squaring y doubles its logarithm, so each squaring that lands at or
 * above 2 yields the next fractional bit 1 (and y is halved).  32 squarings
 * give 32 exact fractional bits (truncated; each squaring rounds y down by
 * less than 2^-62, far below the 2^-32 kept).
 *
 * exp(-a): a = n + f with n an integer and f in [0, 1); e^-f by its Taylor
 * series (alternating, 24 terms, |error| < 1/24! ~ 1.6e-24) in Q62 with
 * 128-bit intermediates, times e^-1 (the same series at f = 1) n times.
 * Below 2^-62 (a > 43) the result is 0.
 *
 * Chi-square p-value.  For an odd number of degrees of freedom df = 2m + 1
 * the distribution function has a closed series (Abramowitz & Stegun
 * 26.4.4 with 26.2.11): with t = sqrt(x) and phi the standard normal density,
 *
 *     P(X <= x) = 2 Phi(t) - 1 - 2 phi(t) sum_{k=1..m} t^(2k-1) / (2k-1)!!
 *               = sum_{k >= m+1} b_k,   b_k = 2 phi(t) t^(2k-1) / (2k-1)!!
 *
 * because 2 Phi(t) - 1 = 2 phi(t) sum_{k >= 1} t^(2k-1) / (2k-1)!! for all t.
 * Every b_k lies in (0, 1], and
 *
 *     ln b_k = ln(2 / sqrt(2 pi)) - x/2 + (k - 1/2) ln x - ln((2k-1)!!)
 *
 * is computed in Q32 (ln from log2 times ln 2, ln (2k-1)!! accumulated term
 * by term), then b_k = exp(ln b_k) in Q62.  The sum runs from k = m + 1 until
 * the terms have started to fall (2k + 1 > x) and dropped below 2^-40;
 * p = 1 - sum.  There is no approximation in the method (no Wilson-Hilferty,
 * no table): the error is the fixed-point rounding, dominated by the
 * accumulated truncation of ln (2k-1)!! (about 1.6e-10 per factor), i.e. a
 * relative error of about m * 1.6e-10 in the terms: below 1e-6 absolute for
 * df up to 2^12, below 2e-5 for df up to 2^16 (checked on the host against
 * mpmath's regularised incomplete gamma at p = 0.001 .. 0.999, df = 1 .. 65535).
 * Far in the upper tail (x > df + 40 sqrt(2 df) + 200, i.e. beyond 28
 * standard deviations) p is returned as 0 without summing.
 * The suite always uses k = a power of two bins, so df = k - 1 is odd.
 */
#include "kernel/measure/aslr_stats.h"

#define Q32		       (1ULL << 32)
#define Q62		       (1ULL << 62)
#define LN2_Q62		       3196577161300663808ULL /* ln 2 * 2^62 */
#define LN_2_OVER_SQRT_2PI_Q32 (-969766475LL)	      /* ln(2 / sqrt(2 pi)) * 2^32 */

typedef unsigned __int128 u128;
typedef __int128 s128;

int64_t aslr_log2_q32(uint64_t v)
{
	uint64_t y, frac = 0;
	int n = 63;

	if (!v)
		return 0;
	while (!(v >> n))
		n--;
	y = n <= 62 ? v << (62 - n) : v >> 1; /* y in [2^62, 2^63): [1, 2) in Q62 */
	for (int i = 0; i < 32; i++) {
		y = (uint64_t)(((u128)y * y) >> 62);
		frac <<= 1;
		if (y >= (1ULL << 63)) {
			y >>= 1;
			frac |= 1;
		}
	}
	return ((int64_t)n << 32) | (int64_t)frac;
}

/* e^-f in Q62 for f in [0, 1] given in Q32 (f <= 2^32). */
static uint64_t exp_neg_frac_q62(uint64_t f)
{
	s128 term = (s128)Q62, sum = (s128)Q62;

	for (int k = 1; k <= 24; k++) {
		term = (term * (s128)f) / ((s128)k << 32);
		sum += (k & 1) ? -term : term;
	}
	return sum < 0 ? 0 : (uint64_t)sum;
}

uint64_t aslr_exp_neg_q62(uint64_t a_q32)
{
	static uint64_t e1; /* e^-1 in Q62 */
	uint64_t n = a_q32 >> 32, r;

	if (n > 43)
		return 0;
	if (!e1)
		e1 = exp_neg_frac_q62(Q32);
	r = exp_neg_frac_q62(a_q32 & (Q32 - 1));
	while (n--)
		r = (uint64_t)(((u128)r * e1) >> 62);
	return r;
}

/* ln of a positive Q32 number, in Q32. */
static int64_t ln_q32(uint64_t x_q32)
{
	int64_t l2 = aslr_log2_q32(x_q32) - ((int64_t)32 << 32);

	return (int64_t)(((s128)l2 * (s128)LN2_Q62) >> 62);
}

/* ln of a positive integer, in Q32. */
static int64_t ln_int_q32(uint64_t v)
{
	return (int64_t)(((s128)aslr_log2_q32(v) * (s128)LN2_Q62) >> 62);
}

static void sift_down(uint64_t *v, uint32_t root, uint32_t n)
{
	for (;;) {
		uint32_t c = 2 * root + 1;
		uint64_t t;

		if (c >= n)
			return;
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[root] >= v[c])
			return;
		t = v[root];
		v[root] = v[c];
		v[c] = t;
		root = c;
	}
}

void aslr_sort_u64(uint64_t *v, uint32_t n)
{
	if (n < 2)
		return;
	for (uint32_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (uint32_t end = n - 1; end > 0; end--) {
		uint64_t t = v[0];

		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

uint32_t aslr_distinct_sorted(const uint64_t *v, uint32_t n)
{
	uint32_t d = n ? 1 : 0;

	for (uint32_t i = 1; i < n; i++)
		d += v[i] != v[i - 1];
	return d;
}

uint32_t aslr_bits_changed(const uint64_t *v, uint32_t n)
{
	uint64_t changed = 0;
	uint32_t bits = 0;

	for (uint32_t i = 1; i < n; i++)
		changed |= v[i] ^ v[0];
	for (; changed; changed &= changed - 1)
		bits++;
	return bits;
}

/*
 * H = -sum (c/n) log2 (c/n) = log2 n - (1/n) sum c log2 c over the runs of
 * equal values (counts c).  Never more than log2 n: n samples cannot show
 * more than n distinct values.
 */
int64_t aslr_entropy_milli_sorted(const uint64_t *v, uint32_t n)
{
	u128 s = 0;
	int64_t h;
	uint32_t run = 1;

	if (n < 2)
		return 0;
	for (uint32_t i = 1; i <= n; i++) {
		if (i < n && v[i] == v[i - 1]) {
			run++;
			continue;
		}
		s += (u128)run * (uint64_t)aslr_log2_q32(run);
		run = 1;
	}
	h = aslr_log2_q32(n) - (int64_t)(s / n);
	if (h < 0)
		h = 0;
	return (int64_t)(((u128)h * 1000 + (Q32 >> 1)) >> 32);
}

uint64_t aslr_chi2_q32(const uint32_t *counts, uint32_t k, uint32_t n)
{
	u128 sq = 0, num;

	if (!n)
		return 0;
	for (uint32_t i = 0; i < k; i++)
		sq += (u128)counts[i] * counts[i];
	num = (u128)k * sq - (u128)n * n; /* >= 0 by Cauchy-Schwarz */
	return (uint64_t)((num << 32) / n);
}

static uint64_t isqrt(uint64_t v)
{
	uint64_t r = 0;

	for (uint64_t b = 1ULL << 31; b; b >>= 1)
		if ((r + b) * (r + b) <= v)
			r += b;
	return r;
}

uint64_t aslr_chi2_sf_q62(uint64_t x_q32, uint32_t df)
{
	uint32_t m;
	uint64_t sum = 0;
	int64_t lx, dfact = 0, base;

	if (!(df & 1))
		return UINT64_MAX;
	if (!x_q32)
		return Q62;
	if ((x_q32 >> 32) > df + 40 * isqrt(2ULL * df) + 200)
		return 0;
	m = (df - 1) / 2;
	lx = ln_q32(x_q32);
	base = LN_2_OVER_SQRT_2PI_Q32 - (int64_t)(x_q32 >> 1);
	for (uint32_t j = 1; j <= m + 1; j++) /* ln (2m+1)!! */
		dfact += ln_int_q32(2 * j - 1);
	for (uint64_t k = m + 1;; k++) {
		int64_t l = base + (int64_t)(2 * k - 1) * (lx / 2) - dfact;
		uint64_t b = l >= 0 ? Q62 : aslr_exp_neg_q62((uint64_t)-l);

		sum += b;
		if (sum >= Q62)
			return 0;
		/* past the peak (terms now fall) and negligible: done */
		if (2 * k + 1 > (x_q32 >> 32) + 1 && b < (Q62 >> 40))
			break;
		dfact += ln_int_q32(2 * k + 1);
	}
	return Q62 - sum;
}
