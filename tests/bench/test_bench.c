/*
 * Host tests for bench/: statistics, overhead subtraction, JSON records and
 * the harness loop, with a fake platform (captured output, counted irq
 * calls).  Nothing here depends on how fast anything runs.  TAP on stdout.
 *
 * Why one file over 500 lines: it is one host test program, and every case
 * shares the fake platform and output capture defined at its top.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/harness.h"
#include "bench/platform.h"
#include "bench/run.h"
#include "bench/text.h"

/* ---- fake platform ---- */
static char last[BENCH_REC_SIZE + 64], all[16384];
static unsigned emitted, irq_saves, irq_restores;
static size_t scratch_limit = 1 << 20;

uint64_t bench_irq_save(void)
{
	irq_saves++;
	return 0x200;
}

void bench_irq_restore(uint64_t flags)
{
	ck_assert_uint_eq(flags, 0x200);
	irq_restores++;
}

void bench_emit(const char *line)
{
	snprintf(last, sizeof(last), "%s", line);
	if (strlen(all) + strlen(line) + 2 < sizeof(all)) {
		strcat(all, line);
		strcat(all, "\n");
	}
	emitted++;
}

void *bench_scratch(size_t bytes)
{
	static uint64_t buf[(1 << 20) / 8];

	return bytes <= scratch_limit ? buf : NULL;
}

static void reset(void)
{
	last[0] = all[0] = '\0';
	emitted = irq_saves = irq_restores = 0;
	scratch_limit = 1 << 20;
}

static void stats_of(const uint32_t *in, uint32_t E, uint32_t S, struct bench_stats *st)
{
	static uint32_t s[4096];
	static uint64_t work[2 * 4096];

	ck_assert_uint_le((uint64_t)E * S, 4096);
	memcpy(s, in, sizeof(uint32_t) * E * S);
	ck_assert_int_eq(stats_compute(s, E, S, work, st), 0);
	for (uint32_t i = 1; i < E * S; i++)
		ck_assert_uint_le(s[i - 1], s[i]);
}

/* ---- statistics ---- */
START_TEST(stats_odd)
{
	const uint32_t a[] = {5, 1, 3};
	struct bench_stats st;

	stats_of(a, 1, 3, &st);
	ck_assert_uint_eq(st.n, 3);
	ck_assert_uint_eq(st.min, 1);
	ck_assert_uint_eq(st.max, 5);
	ck_assert_uint_eq(st.p99, 5);
	ck_assert_int_eq(st.median_m, 3000);
	ck_assert_int_eq(st.mean_m, 3000);
	ck_assert_uint_eq((uint64_t)st.var_m, 2667); /* 8/3 */
	ck_assert_uint_eq((uint64_t)st.var_of_min_m, 0);
	ck_assert_uint_eq((uint64_t)st.var_of_var_m, 0);
}
END_TEST

START_TEST(stats_even_ensembles)
{
	/* ensembles {1,3} and {2,6}: minima 1,2; variances 1,4 */
	const uint32_t a[] = {1, 3, 2, 6};
	struct bench_stats st;

	stats_of(a, 2, 2, &st);
	ck_assert_uint_eq(st.min, 1);
	ck_assert_uint_eq(st.max, 6);
	ck_assert_int_eq(st.median_m, 2500);
	ck_assert_int_eq(st.mean_m, 3000);
	ck_assert_uint_eq((uint64_t)st.var_m, 3500);
	ck_assert_uint_eq((uint64_t)st.var_of_min_m, 250);
	ck_assert_uint_eq((uint64_t)st.var_of_var_m, 2250);
	ck_assert(!st.var_of_var_capped);
}
END_TEST

START_TEST(stats_ensemble_medians)
{
	/* ensembles {9,1,5} {2,8,4} {7,7,3}: medians 5, 4, 7, in run order */
	const uint32_t a[] = {9, 1, 5, 2, 8, 4, 7, 7, 3};
	/* ensembles {1,3} {6,2}: even blocks, the mean of the middle two */
	const uint32_t b[] = {1, 3, 6, 2};
	struct bench_stats st;

	stats_of(a, 3, 3, &st);
	ck_assert_uint_eq(st.ens_medians, 3);
	ck_assert_int_eq(st.ens_median_m[0], 5000);
	ck_assert_int_eq(st.ens_median_m[1], 4000);
	ck_assert_int_eq(st.ens_median_m[2], 7000);
	ck_assert_int_eq(st.median_m, 5000); /* the whole run's, unchanged */
	stats_of(b, 2, 2, &st);
	ck_assert_uint_eq(st.ens_medians, 2);
	ck_assert_int_eq(st.ens_median_m[0], 2000);
	ck_assert_int_eq(st.ens_median_m[1], 4000);
}
END_TEST

START_TEST(stats_ensemble_medians_capped)
{
	static uint32_t a[(BENCH_ENS_MEDIANS + 6) * 2];
	struct bench_stats st;

	for (uint32_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		a[i] = i; /* ensemble e is {2e, 2e+1}: median 2e + 0.5 */
	stats_of(a, BENCH_ENS_MEDIANS + 6, 2, &st);
	ck_assert_uint_eq(st.ens_medians, BENCH_ENS_MEDIANS);
	ck_assert_int_eq(st.ens_median_m[0], 500);
	ck_assert_int_eq(st.ens_median_m[BENCH_ENS_MEDIANS - 1],
			 (2 * (BENCH_ENS_MEDIANS - 1)) * 1000 + 500);
}
END_TEST

START_TEST(stats_rounding)
{
	const uint32_t a[] = {1, 1, 2}, b[] = {1, 2, 2}, c[] = {0, 0, 1};
	static uint32_t d[2000];
	struct bench_stats st;

	stats_of(a, 1, 3, &st);
	ck_assert_int_eq(st.mean_m, 1333);
	stats_of(b, 1, 3, &st);
	ck_assert_int_eq(st.mean_m, 1667);
	stats_of(c, 1, 3, &st);
	ck_assert_uint_eq((uint64_t)st.var_m, 222); /* 2/9 */
	/* exactly half a milli rounds up: 1/2000 = 0.0005 */
	memset(d, 0, sizeof(d));
	d[1234] = 1;
	stats_of(d, 1, 2000, &st);
	ck_assert_int_eq(st.mean_m, 1);
	ck_assert_int_eq(st.median_m, 0);
}
END_TEST

START_TEST(stats_p99_nearest_rank)
{
	uint32_t a[200];
	struct bench_stats st;

	for (uint32_t i = 0; i < 200; i++)
		a[i] = 200 - i; /* 200..1, reversed */
	stats_of(a, 1, 100, &st);
	ck_assert_uint_eq(st.p99, 199); /* values 101..200: the 99th smallest */
	stats_of(a, 1, 200, &st);
	ck_assert_uint_eq(st.p99, 198);
	stats_of(a, 2, 5, &st);
	ck_assert_uint_eq(st.p99, 200); /* n=10: ceil(9.9) = 10th */
}
END_TEST

START_TEST(stats_sort_random)
{
	static uint32_t a[5000];
	uint64_t sum = 0, sum2 = 0;

	srand(42);
	for (int i = 0; i < 5000; i++)
		a[i] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
	a[17] = 0;
	a[18] = UINT32_MAX;
	for (int i = 0; i < 5000; i++)
		sum += a[i];
	stats_sort_u32(a, 5000);
	for (int i = 0; i < 5000; i++)
		sum2 += a[i];
	ck_assert_uint_eq(sum, sum2);
	for (int i = 1; i < 5000; i++)
		ck_assert_uint_le(a[i - 1], a[i]);
	stats_sort_u32(a, 0);
	stats_sort_u32(a, 1);
}
END_TEST

START_TEST(stats_limits)
{
	uint32_t s[4] = {0};
	uint64_t w[8];
	struct bench_stats st;

	ck_assert_int_eq(stats_compute(s, 0, 4, w, &st), -1);
	ck_assert_int_eq(stats_compute(s, 1, 0, w, &st), -1);
	ck_assert_int_eq(stats_compute(s, BENCH_MAX_ENSEMBLES + 1, 1, w, &st), -1);
	ck_assert_int_eq(stats_compute(s, 1, BENCH_MAX_SAMPLES + 1, w, &st), -1);
}
END_TEST

START_TEST(stats_muldiv_matches_native)
{
	srand(7);
	for (int i = 0; i < 2000; i++) {
		unsigned __int128 num = ((unsigned __int128)(uint64_t)rand() << 64 |
					 (uint64_t)rand() << 31 | (uint64_t)rand()) >>
					(i % 20);
		uint64_t den = ((uint64_t)rand() << 20 | (uint64_t)rand()) + 1;
		unsigned __int128 exact = num * 1000 / den, rem = num * 1000 % den;

		if (2 * rem >= den)
			exact++;
		ck_assert(stats_muldiv(num, 1000, den) == exact);
	}
	ck_assert(stats_muldiv(5, 1, 0) == 0);
}
END_TEST

START_TEST(stats_extremes)
{
	/* Saturated samples stay in range: variance of {0, 2^32-1}. */
	const uint32_t a[] = {0, UINT32_MAX};
	struct bench_stats st;
	unsigned __int128 expect = (unsigned __int128)UINT32_MAX * UINT32_MAX * 250;

	stats_of(a, 1, 2, &st);
	ck_assert(st.var_m == expect);
	stats_of(a, 2, 1, &st);
	ck_assert(st.var_of_min_m == expect);
}
END_TEST

/* ---- overhead ---- */
START_TEST(overhead_clamps)
{
	uint32_t s[] = {5, 10, 3, 0, UINT32_MAX};

	ck_assert_uint_eq(bench_subtract(s, 5, 5), 2);
	ck_assert_uint_eq(s[0], 0);
	ck_assert_uint_eq(s[1], 5);
	ck_assert_uint_eq(s[2], 0);
	ck_assert_uint_eq(s[3], 0);
	ck_assert_uint_eq(s[4], UINT32_MAX); /* saturated stays saturated */
	ck_assert_uint_eq(bench_subtract(s, 5, 0), 0);
}
END_TEST

/* ---- jrec ---- */
START_TEST(jrec_escaping)
{
	char buf[256];
	struct jrec r;

	jrec_begin(&r, buf, sizeof(buf), "t");
	jrec_str(&r, "k", "a\"b\\c\n\x01\x7f\xc3\xa9");
	jrec_bool(&r, "b", false);
	ck_assert_str_eq(jrec_end(&r),
			 "@@ {\"type\":\"t\",\"k\":\"a\\\"b\\\\c\\u000a\\u0001\\u007f\xc3\xa9\","
			 "\"b\":false}");
}
END_TEST

START_TEST(jrec_truncation)
{
	char buf[48];
	struct jrec r;
	const char *s;

	jrec_begin(&r, buf, sizeof(buf), "bench");
	jrec_u64(&r, "a", 1);
	jrec_str(&r, "long", "0123456789012345678901234567890123456789");
	jrec_u64(&r, "b", 2);
	s = jrec_end(&r);
	ck_assert_str_eq(s, "@@ {\"type\":\"bench\",\"a\":1,\"truncated\":true}");
	ck_assert_uint_lt(strlen(s), sizeof(buf));
}
END_TEST

START_TEST(jrec_fixed_point)
{
	char n[48];

	ck_assert_str_eq((n[fmt_fixed(n, 12345, 3)] = 0, n), "12.345");
	ck_assert_str_eq((n[fmt_fixed(n, -1234, 3)] = 0, n), "-1.234");
	ck_assert_str_eq((n[fmt_fixed(n, -5, 3)] = 0, n), "-0.005");
	ck_assert_str_eq((n[fmt_fixed(n, 0, 3)] = 0, n), "0.000");
	ck_assert_str_eq((n[fmt_fixed(n, 7, 0)] = 0, n), "7");
	ck_assert_str_eq((n[fmt_fixed(n, INT64_MIN, 3)] = 0, n), "-9223372036854775.808");
	ck_assert_str_eq((n[fmt_u64(n, UINT64_MAX)] = 0, n), "18446744073709551615");
}
END_TEST

START_TEST(jrec_milli_big)
{
	char buf[128];
	struct jrec r;

	jrec_begin(&r, buf, sizeof(buf), "t");
	bench_jrec_milli(&r, "a", 1500);
	/* 9223372036854776.807 rounds to a whole number */
	bench_jrec_milli(&r, "b", (unsigned __int128)INT64_MAX + 1000);
	ck_assert_str_eq(jrec_end(&r), "@@ {\"type\":\"t\",\"a\":1.500,\"b\":9223372036854777}");
}
END_TEST

START_TEST(text_columns)
{
	struct tline l;

	tl_init(&l);
	tl_str(&l, "ab", 4);
	tl_u64(&l, 7, -3);
	tl_milli(&l, 1250, 1, -6);
	tl_milli(&l, 1249, 2, -5);
	ck_assert_str_eq(tl_end(&l), "ab    7   1.3 1.25");
}
END_TEST

/* ---- records from a fake measurement ---- */
static void fake_result(struct bench_result *res, const uint32_t *s, uint32_t E, uint32_t S)
{
	memset(res, 0, sizeof(*res));
	stats_of(s, E, S, &res->st);
	res->ensembles = E;
	res->samples = S;
	res->overhead = 26;
	res->serialise = BENCH_SER_LFENCE;
	res->per = 1;
}

START_TEST(record_has_design_fields)
{
	static const char *const keys[] = {
		"type",	     "suite",	"rng",	    "metric",	   "min",
		"median",    "mean",	"p99",	    "max",	   "var",
		"ensembles", "samples", "overhead", "var_of_min",  "var_of_var",
		"serialise", "unit",	"irqs_off", "ens_medians",
	};
	const uint32_t a[] = {1, 3, 2, 6};
	struct bench_result res;
	char pat[64];

	reset();
	fake_result(&res, a, 2, 2);
	bench_emit_record(&res, "rng", "md4-2.6.30", "cycles_per_call", "cycles");
	ck_assert_uint_eq(emitted, 1);
	ck_assert(strncmp(last, "@@ {\"type\":\"bench\"", 18) == 0);
	ck_assert_int_eq(last[strlen(last) - 1], '}');
	ck_assert_ptr_null(strstr(last, "truncated"));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(pat, sizeof(pat), "\"%s\":", keys[i]);
		ck_assert_msg(strstr(last, pat), "missing %s in %s", keys[i], last);
	}
	ck_assert_ptr_nonnull(strstr(last, "\"min\":1,"));
	ck_assert_ptr_nonnull(strstr(last, "\"median\":2.500,"));
	ck_assert_ptr_nonnull(strstr(last, "\"var\":3.500,"));
	ck_assert_ptr_nonnull(strstr(last, "\"var_of_var\":2.250,"));
	ck_assert_ptr_nonnull(strstr(last, "\"serialise\":\"lfence\""));
	ck_assert_ptr_nonnull(strstr(last, "\"suite\":\"rng\",\"rng\":\"md4-2.6.30\""));
	/* one median per ensemble ({1,3} and {2,6}), scaled as "median" */
	ck_assert_ptr_nonnull(strstr(last, "\"ens_medians\":[2.000,4.000]"));
	ck_assert_ptr_null(strstr(last, "ens_medians_capped"));
}
END_TEST

/*
 * The largest record the kernel writes must fit BENCH_REC_SIZE whole: the
 * most per-ensemble medians, every one 2^32-1 cycles (14 characters), the
 * variances as large as they get, every optional field of the harness, the
 * rng suite's and the fork suite's extras.
 */
START_TEST(record_worst_case_fits)
{
	static uint32_t a[(BENCH_ENS_MEDIANS + 1) * 3];
	struct bench_result res;
	struct jrec r;
	char buf[BENCH_REC_SIZE];
	const char *line;

	for (uint32_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		a[i] = i % 3 == 0 ? 0 : UINT32_MAX; /* {0, max, max}: median max */
	reset();
	fake_result(&res, a, BENCH_ENS_MEDIANS + 1, 3);
	res.overhead = UINT32_MAX;
	res.clamped = UINT32_MAX;
	res.saturated = UINT32_MAX;
	res.st.var_of_var_capped = true;
	res.st.var_of_min_m = res.st.var_m;
	res.st.var_of_var_m = res.st.var_m;
	bench_record_begin(&r, buf, sizeof(buf), &res, "spawn", "chacha20-batched",
			   "cycles_per_call_batched", "cycles");
	jrec_bool(&r, "available", true);
	jrec_bool(&r, "secure", true);
	jrec_u64(&r, "batch", UINT32_MAX);
	jrec_str(&r, "cold", "clflush-images");
	jrec_u64(&r, "flushed_bytes", UINT64_MAX);
	bench_jrec_milli(&r, "rng_share_pct", (unsigned __int128)INT64_MAX);
	bench_jrec_milli(&r, "rng_cycles_median", (unsigned __int128)INT64_MAX);
	bench_record_emit(&r);
	line = last;
	ck_assert_msg(!strstr(line, "truncated"), "%zu bytes, truncated: %s", strlen(line), line);
	ck_assert_ptr_nonnull(strstr(line, "\"ens_medians\":[4294967295.000,"));
	ck_assert_ptr_nonnull(strstr(line, "\"ens_medians_capped\":true"));
	ck_assert_ptr_nonnull(strstr(line, "\"rng_cycles_median\":"));
	ck_assert_int_eq(line[strlen(line) - 1], '}');
}
END_TEST

START_TEST(record_per_byte_scaling)
{
	const uint32_t a[] = {4096, 8192};
	struct bench_result res;

	reset();
	fake_result(&res, a, 1, 2);
	res.per = 4096;
	bench_emit_record(&res, "rng", "x", "cycles_per_byte", "cycles/byte");
	ck_assert_ptr_nonnull(strstr(last, "\"min\":1.000,\"median\":1.500,\"mean\":1.500,"
					   "\"p99\":2.000,\"max\":2.000,\"var\":0.250,"));
	ck_assert_ptr_nonnull(strstr(last, "\"per_sample\":4096"));
	ck_assert_ptr_nonnull(strstr(last, "\"ens_medians\":[1.500]"));
}
END_TEST

/* ---- the harness loop with the fake platform ---- */
struct counter {
	unsigned calls, setups;
	uint64_t last_sample;
};

static void count_fn(void *arg)
{
	((struct counter *)arg)->calls++;
}

static void count_setup(void *arg, uint64_t sample)
{
	struct counter *c = arg;

	c->setups++;
	c->last_sample = sample;
}

static void test_cfg(struct bench_config *cfg)
{
	struct bench_cpu cpu;

	bench_cpu_detect(&cpu);
	bench_config_init(cfg, &cpu);
	cfg->ensembles = 3;
	cfg->samples = 200;
}

START_TEST(measure_counts)
{
	struct bench_config cfg;
	struct counter c = {0};
	struct bench_target t = {.fn = count_fn, .arg = &c, .setup = count_setup};
	struct bench_result res;

	reset();
	test_cfg(&cfg);
	ck_assert_int_eq(bench_measure(&cfg, &t, &res), 0);
	ck_assert_uint_eq(res.st.n, 600);
	ck_assert_uint_eq(c.calls, 600 + BENCH_WARMUP);
	ck_assert_uint_eq(c.setups, 600 + BENCH_WARMUP);
	ck_assert_uint_eq(c.last_sample, 599);
	ck_assert_uint_eq(irq_saves, 600 + BENCH_WARMUP);
	ck_assert_uint_eq(irq_restores, irq_saves);
	ck_assert(res.irqs_off);
	ck_assert_uint_le(res.st.min, res.st.p99);
	ck_assert_uint_le(res.st.p99, res.st.max);

	/* fork-like targets keep interrupts on: no irq calls at all */
	reset();
	t.irqs_on = true;
	t.samples = 7;
	ck_assert_int_eq(bench_measure(&cfg, &t, &res), 0);
	ck_assert_uint_eq(irq_saves, 0);
	ck_assert_uint_eq(res.samples, 7);
	ck_assert_uint_eq(res.st.n, 21);
	ck_assert(!res.irqs_off);
}
END_TEST

START_TEST(measure_overhead_clamped)
{
	struct bench_config cfg;
	struct counter c = {0};
	struct bench_target t = {.fn = count_fn, .arg = &c};
	struct bench_result res;

	reset();
	test_cfg(&cfg);
	cfg.overhead = UINT32_MAX - 1; /* more than any real sample */
	ck_assert_int_eq(bench_measure(&cfg, &t, &res), 0);
	ck_assert_uint_eq(res.clamped, 600);
	ck_assert_uint_eq(res.st.max, 0);
	ck_assert_int_eq(res.st.mean_m, 0);
	/* calibration sets the overhead to the floor's minimum */
	ck_assert_int_eq(bench_calibrate(&cfg, &res), 0);
	ck_assert_uint_eq(cfg.overhead, res.st.min);
}
END_TEST

START_TEST(measure_errors)
{
	struct bench_config cfg;
	struct counter c = {0};
	struct bench_target t = {.fn = count_fn, .arg = &c};
	struct bench_result res;

	reset();
	test_cfg(&cfg);
	scratch_limit = 100;
	ck_assert_int_eq(bench_measure(&cfg, &t, &res), -1);
	scratch_limit = 1 << 20;
	cfg.ensembles = 0;
	ck_assert_int_eq(bench_measure(&cfg, &t, &res), -1);
	ck_assert_uint_eq(c.calls, 0);
}
END_TEST

START_TEST(table_and_summary)
{
	struct bench_run run;
	struct bench_row *r;

	reset();
	bench_run_init(&run);
	r = bench_run_row(&run, BENCH_REF_RNG);
	r->available = true;
	r->median_m = 100000;
	r = bench_run_row(&run, "sha1-mackall");
	r->available = true;
	r->median_m = 250000;
	r = bench_run_row(&run, "rdrand");
	run.measured = 2;
	run.unavailable = 1;
	bench_run_table(&run, 0, "rng");
	ck_assert_ptr_nonnull(strstr(all, "2.50x"));
	ck_assert_ptr_nonnull(strstr(all, "1.00x"));
	ck_assert_ptr_nonnull(strstr(all, "unavailable"));
	bench_emit_summary(&run, 0);
	ck_assert_str_eq(
		last,
		"@@ {\"type\":\"summary\",\"passed\":2,\"failed\":0,\"skipped\":1,\"status\":0}");
}
END_TEST

START_TEST(cpu_detect_sane)
{
	struct bench_cpu cpu;

	bench_cpu_detect(&cpu);
	ck_assert_uint_eq(strlen(cpu.vendor), 12);
	ck_assert(cpu.tsc_hz_source != NULL);
	ck_assert(cpu.clflush); /* every x86_64 CPU has it */
}
END_TEST

static Suite *bench_suite(void)
{
	Suite *s = suite_create("bench");
	TCase *tc = tcase_create("bench");

	tcase_add_test(tc, stats_odd);
	tcase_add_test(tc, stats_even_ensembles);
	tcase_add_test(tc, stats_ensemble_medians);
	tcase_add_test(tc, stats_ensemble_medians_capped);
	tcase_add_test(tc, stats_rounding);
	tcase_add_test(tc, stats_p99_nearest_rank);
	tcase_add_test(tc, stats_sort_random);
	tcase_add_test(tc, stats_limits);
	tcase_add_test(tc, stats_muldiv_matches_native);
	tcase_add_test(tc, stats_extremes);
	tcase_add_test(tc, overhead_clamps);
	tcase_add_test(tc, jrec_escaping);
	tcase_add_test(tc, jrec_truncation);
	tcase_add_test(tc, jrec_fixed_point);
	tcase_add_test(tc, jrec_milli_big);
	tcase_add_test(tc, text_columns);
	tcase_add_test(tc, record_has_design_fields);
	tcase_add_test(tc, record_per_byte_scaling);
	tcase_add_test(tc, record_worst_case_fits);
	tcase_add_test(tc, measure_counts);
	tcase_add_test(tc, measure_overhead_clamped);
	tcase_add_test(tc, measure_errors);
	tcase_add_test(tc, table_and_summary);
	tcase_add_test(tc, cpu_detect_sane);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bench_suite());
	int failed;

	/* TAP ("ok N - ...") on stdout; check's own report stays quiet. */
	setenv("CK_TAP_LOG_FILE_NAME", "-", 1);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
