/* The timing harness; see harness.h. */
#include "bench/harness.h"
#include "bench/platform.h"
#include "common/tsc.h"

void bench_config_init(struct bench_config *cfg, const struct bench_cpu *cpu)
{
	cfg->ensembles = 10;
	cfg->samples = 1000;
	cfg->cold_samples = 25;
	cfg->serialise = cpu->serialise;
	cfg->rdtscp = cpu->rdtscp;
	cfg->irqs_off = true;
	cfg->overhead = 0;
	cfg->only = NULL;
	cfg->nflush = 0;
}

static inline uint32_t clamp32(uint64_t d, uint32_t *saturated)
{
	if (d >= 0xffffffffu) {
		(*saturated)++;
		return 0xffffffffu;
	}
	return (uint32_t)d;
}

/*
 * One loop per read method so that the choice is made once, not between
 * the reads.  The target is called through a pointer: the calibration
 * target goes through the same call, so its cost is part of the overhead.
 */
#define SAMPLE_LOOP(name, start, stop)                                                             \
	static void name(const struct bench_target *t, uint32_t *s, uint64_t first, uint32_t n,    \
			 uint32_t *saturated)                                                      \
	{                                                                                          \
		for (uint32_t i = 0; i < n; i++) {                                                 \
			uint64_t flags = 0, t0, t1;                                                \
                                                                                                   \
			if (t->setup)                                                              \
				t->setup(t->arg, first + i);                                       \
			if (!t->irqs_on)                                                           \
				flags = bench_irq_save();                                          \
			t0 = start();                                                              \
			t->fn(t->arg);                                                             \
			t1 = stop();                                                               \
			if (!t->irqs_on)                                                           \
				bench_irq_restore(flags);                                          \
			s[i] = clamp32(t1 - t0, saturated);                                        \
		}                                                                                  \
	}

SAMPLE_LOOP(loop_cpuid, tsc_start_cpuid, tsc_stop_cpuid)
SAMPLE_LOOP(loop_cpuid_plain, tsc_start_cpuid, tsc_stop_cpuid_plain)
SAMPLE_LOOP(loop_lfence, tsc_start_lfence, tsc_stop_lfence)
SAMPLE_LOOP(loop_lfence_plain, tsc_start_lfence, tsc_stop_lfence_plain)

uint32_t bench_subtract(uint32_t *s, uint64_t n, uint32_t overhead)
{
	uint32_t clamped = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (s[i] < overhead) {
			s[i] = 0;
			clamped++;
		} else if (s[i] != 0xffffffffu) {
			s[i] -= overhead;
		}
	}
	return clamped;
}

int bench_measure(const struct bench_config *cfg, const struct bench_target *t,
		  struct bench_result *out)
{
	uint32_t per = t->samples ? t->samples : cfg->samples, E = cfg->ensembles;
	uint64_t n = (uint64_t)E * per;
	void (*loop)(const struct bench_target *, uint32_t *, uint64_t, uint32_t, uint32_t *);
	uint32_t *s;
	uint64_t *work;

	if (!E || !per || E > BENCH_MAX_ENSEMBLES || n > BENCH_MAX_SAMPLES)
		return -1;
	/* Work area (2 * E u64) first so that it stays 8-byte aligned. */
	work = bench_scratch(2 * E * sizeof(uint64_t) + n * sizeof(uint32_t));
	if (!work)
		return -1;
	s = (uint32_t *)(work + 2 * E);

	if (cfg->serialise == BENCH_SER_LFENCE)
		loop = cfg->rdtscp ? loop_lfence : loop_lfence_plain;
	else
		loop = cfg->rdtscp ? loop_cpuid : loop_cpuid_plain;

	/*
	 * Untimed warm-up (caches, TLB, branch predictors, lazy binding on the
	 * host), so that "warm" means warm; later drift still shows in
	 * var_of_min.
	 */
	out->saturated = 0;
	loop(t, s, 0, per < BENCH_WARMUP ? per : BENCH_WARMUP, &out->saturated);
	out->saturated = 0;
	for (uint32_t e = 0; e < E; e++)
		loop(t, s + (uint64_t)e * per, (uint64_t)e * per, per, &out->saturated);

	out->ensembles = E;
	out->samples = per;
	out->overhead = cfg->overhead;
	out->clamped = bench_subtract(s, n, cfg->overhead);
	out->serialise = cfg->serialise;
	out->irqs_off = cfg->irqs_off && !t->irqs_on;
	out->per = 1;
	if (stats_compute(s, E, per, work, &out->st))
		return -1;
	out->sorted = s;
	return 0;
}

static void empty_target(void *arg)
{
	(void)arg;
	/* A compiler barrier, so that the call is not proven empty. */
	__asm__ volatile("" ::: "memory");
}

int bench_calibrate(struct bench_config *cfg, struct bench_result *floor)
{
	struct bench_target t = {.fn = empty_target};
	int rc;

	cfg->overhead = 0;
	rc = bench_measure(cfg, &t, floor);
	if (rc == 0)
		cfg->overhead = floor->st.min;
	return rc;
}

void bench_jrec_milli(struct jrec *r, const char *key, unsigned __int128 milli)
{
	if (milli <= (unsigned __int128)INT64_MAX)
		jrec_fixed(r, key, (int64_t)milli, 3);
	else
		jrec_u64(r, key, (uint64_t)stats_muldiv(milli, 1, 1000));
}

/* A statistic divided by res->per (bytes per sample, say), in milli. */
static void put_scaled(struct jrec *r, const char *key, unsigned __int128 milli, uint32_t per,
		       bool whole)
{
	if (per <= 1 && whole)
		jrec_u64(r, key, (uint64_t)milli / 1000);
	else
		bench_jrec_milli(r, key, per <= 1 ? milli : stats_muldiv(milli, 1, per));
}

/*
 * The per-ensemble medians, scaled as "median": the data a reader needs for
 * an interval (a bootstrap over ensembles); the summary figures alone hide
 * how much a median moves from one ensemble to the next.
 */
static void put_ens_medians(struct jrec *r, const struct bench_result *res, uint32_t per)
{
	const struct bench_stats *st = &res->st;
	int64_t v[BENCH_ENS_MEDIANS];
	uint32_t n = st->ens_medians <= BENCH_ENS_MEDIANS ? st->ens_medians : BENCH_ENS_MEDIANS;

	if (!n)
		return;
	for (uint32_t e = 0; e < n; e++)
		v[e] = per <= 1 ? st->ens_median_m[e]
				: (int64_t)stats_muldiv((unsigned __int128)st->ens_median_m[e], 1,
							per);
	jrec_fixed_array(r, "ens_medians", v, n, 3);
	if (n < res->ensembles)
		jrec_bool(r, "ens_medians_capped", true);
}

void bench_record_begin(struct jrec *r, char *buf, size_t size, const struct bench_result *res,
			const char *suite, const char *rng, const char *metric, const char *unit)
{
	const struct bench_stats *st = &res->st;
	uint32_t per = res->per ? res->per : 1;
	uint64_t per2 = (uint64_t)per * per;

	jrec_begin(r, buf, size, "bench");
	jrec_str(r, "suite", suite);
	jrec_str(r, "rng", rng);
	jrec_str(r, "metric", metric);
	jrec_str(r, "unit", unit);
	put_scaled(r, "min", (unsigned __int128)st->min * 1000, per, true);
	put_scaled(r, "median", (unsigned __int128)st->median_m, per, false);
	put_scaled(r, "mean", (unsigned __int128)st->mean_m, per, false);
	put_scaled(r, "p99", (unsigned __int128)st->p99 * 1000, per, true);
	put_scaled(r, "max", (unsigned __int128)st->max * 1000, per, true);
	/* Variances scale with per^2. */
	bench_jrec_milli(r, "var", per2 > 1 ? stats_muldiv(st->var_m, 1, per2) : st->var_m);
	jrec_u64(r, "ensembles", res->ensembles);
	jrec_u64(r, "samples", res->samples);
	jrec_u64(r, "n", st->n);
	jrec_u64(r, "overhead", res->overhead);
	jrec_str(r, "overhead_method", "min");
	bench_jrec_milli(r, "var_of_min",
			 per2 > 1 ? stats_muldiv(st->var_of_min_m, 1, per2) : st->var_of_min_m);
	/* Per-ensemble variances scale with per^2, their variance with per^4. */
	bench_jrec_milli(r, "var_of_var",
			 per2 > 1 ? stats_muldiv(stats_muldiv(st->var_of_var_m, 1, per2), 1, per2)
				  : st->var_of_var_m);
	if (st->var_of_var_capped)
		jrec_bool(r, "var_of_var_capped", true);
	if (res->per > 1)
		jrec_u64(r, "per_sample", res->per);
	jrec_str(r, "serialise", bench_serialise_name(res->serialise));
	jrec_bool(r, "irqs_off", res->irqs_off);
	jrec_u64(r, "clamped", res->clamped);
	if (res->saturated)
		jrec_u64(r, "saturated", res->saturated);
	put_ens_medians(r, res, per);
}

void bench_record_emit(struct jrec *r)
{
	bench_emit(jrec_end(r));
}

void bench_emit_record(const struct bench_result *res, const char *suite, const char *rng,
		       const char *metric, const char *unit)
{
	char buf[BENCH_REC_SIZE];
	struct jrec r;

	bench_record_begin(&r, buf, sizeof(buf), res, suite, rng, metric, unit);
	bench_record_emit(&r);
}

void bench_jrec_cpu(struct jrec *r, const struct bench_cpu *cpu, const struct bench_config *cfg)
{
	jrec_str(r, "cpu_vendor", cpu->vendor);
	jrec_str(r, "cpu_model", cpu->brand);
	jrec_u64(r, "cpu_family", cpu->family);
	jrec_u64(r, "cpu_model_id", cpu->model);
	jrec_u64(r, "cpu_stepping", cpu->stepping);
	jrec_bool(r, "invariant_tsc", cpu->invariant_tsc);
	jrec_bool(r, "hypervisor", cpu->hypervisor);
	jrec_bool(r, "rdtscp", cpu->rdtscp);
	jrec_u64(r, "tsc_step", cpu->tsc_step);
	jrec_u64(r, "tsc_hz_cpuid", cpu->tsc_hz_cpuid);
	jrec_str(r, "tsc_hz_source", cpu->tsc_hz_source);
	jrec_str(r, "serialise", bench_serialise_name(cfg->serialise));
	jrec_bool(r, "irqs_off", cfg->irqs_off);
	jrec_u64(r, "ensembles", cfg->ensembles);
	jrec_u64(r, "samples", cfg->samples);
}
