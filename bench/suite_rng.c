/* The "rng" suite: what one random u32 costs, warm, cold and in bulk. */
#include "bench/platform.h"
#include "bench/suites.h"
#include "bench/text.h"

struct rng_ctx {
	const struct rng_variant *v;
	const struct bench_config *cfg;
};

/* Results go to a volatile sink so the calls cannot be optimised away. */
static volatile uint32_t sink;
static uint8_t bulk[BENCH_BULK_BYTES];

static void call_u32(void *arg)
{
	const struct rng_ctx *c = arg;

	sink = c->v->get_u32();
}

/*
 * BENCH_BATCH back-to-back calls per sample: resolves costs below the TSC's
 * step (26 cycles on AMD Zen), at the price of letting consecutive calls
 * overlap in the pipeline, so it is throughput, not single-call latency.
 */
static void call_u32_batch(void *arg)
{
	const struct rng_ctx *c = arg;
	uint32_t (*get)(void) = c->v->get_u32;

	for (int i = 0; i < BENCH_BATCH; i++)
		sink = get();
}

static void call_bytes(void *arg)
{
	const struct rng_ctx *c = arg;

	c->v->get_bytes(bulk, sizeof(bulk));
}

/* The cold setup: evict the program image (code, tables, RNG state). */
static void flush_images(void *arg, uint64_t sample)
{
	const struct rng_ctx *c = arg;

	(void)sample;
	for (unsigned i = 0; i < c->cfg->nflush; i++)
		bench_clflush_range(c->cfg->flush[i].lo, c->cfg->flush[i].hi);
}

/* The floor of call_u32: same wrapper and calls, nothing inside. */
static uint32_t zero_u32(void)
{
	return 0;
}

static const struct rng_variant empty_variant = {.name = "empty", .get_u32 = zero_u32};

static bool streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static uint64_t flushed_bytes(const struct bench_config *cfg)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < cfg->nflush; i++)
		n += (uint64_t)((const char *)cfg->flush[i].hi - (const char *)cfg->flush[i].lo);
	return n;
}

static void emit(const struct bench_result *res, const struct rng_variant *v, const char *metric,
		 const char *unit, const struct bench_config *cfg)
{
	char buf[BENCH_REC_SIZE];
	struct jrec r;

	bench_record_begin(&r, buf, sizeof(buf), res, "rng", v->name, metric, unit);
	jrec_bool(&r, "available", true);
	jrec_bool(&r, "secure", v->secure);
	if (res->per > 1 && !streq(metric, "cycles_per_byte"))
		jrec_u64(&r, "batch", res->per);
	if (streq(metric, "cycles_first_call")) {
		jrec_str(&r, "cold", "clflush-images");
		jrec_u64(&r, "flushed_bytes", flushed_bytes(cfg));
	}
	bench_record_emit(&r);
}

static void emit_unavailable(const struct rng_variant *v)
{
	char buf[BENCH_REC_SIZE];
	struct jrec r;

	jrec_begin(&r, buf, sizeof(buf), "bench");
	jrec_str(&r, "suite", "rng");
	jrec_str(&r, "rng", v->name);
	jrec_str(&r, "metric", "cycles_per_call");
	jrec_bool(&r, "available", false);
	jrec_bool(&r, "secure", v->secure);
	bench_emit(jrec_end(&r));
}

/* Minimum of wrapper `fn` around an empty get_u32 under `t`'s conditions, or -1. */
static int64_t floor_of(const struct bench_config *cfg, struct bench_target t, void (*fn)(void *))
{
	struct bench_config c = *cfg;
	struct rng_ctx ctx = {&empty_variant, cfg};
	struct bench_result res;

	c.overhead = 0;
	t.fn = fn;
	t.arg = &ctx;
	return bench_measure(&c, &t, &res) ? -1 : (int64_t)res.st.min;
}

static void note_failure(const struct rng_variant *v, const char *metric)
{
	struct tline l;

	tl_init(&l);
	tl_str(&l, "bench: rng ", 0);
	tl_str(&l, v->name, 0);
	tl_str(&l, " ", 0);
	tl_str(&l, metric, 0);
	tl_str(&l, ": not measured (sizes beyond the limits or no scratch memory)", 0);
	bench_emit(tl_end(&l));
}

static int measure_variant(const struct bench_config *warm, const struct bench_config *batch,
			   const struct bench_config *cold, const struct rng_variant *v,
			   struct bench_row *row)
{
	struct rng_ctx ctx = {v, warm};
	struct bench_target t = {.fn = call_u32, .arg = &ctx};
	struct bench_result res;
	int failed = 0;

	if (bench_measure(warm, &t, &res) == 0) {
		emit(&res, v, "cycles_per_call", "cycles", warm);
		row->median_m = res.st.median_m;
		row->mean_m = res.st.mean_m;
		row->min = res.st.min;
		row->p99 = res.st.p99;
	} else {
		note_failure(v, "cycles_per_call");
		failed++;
	}
	t.fn = call_u32_batch;
	if (bench_measure(batch, &t, &res) == 0) {
		res.per = BENCH_BATCH;
		emit(&res, v, "cycles_per_call_batched", "cycles", batch);
		row->batch_median_m = (res.st.median_m + BENCH_BATCH / 2) / BENCH_BATCH;
	} else {
		note_failure(v, "cycles_per_call_batched");
		failed++;
	}
	t.fn = call_u32;
	if (cold) {
		t.setup = flush_images;
		t.samples = cold->cold_samples;
		if (bench_measure(cold, &t, &res) == 0) {
			emit(&res, v, "cycles_first_call", "cycles", cold);
			row->cold_median_m = res.st.median_m;
		} else {
			note_failure(v, "cycles_first_call");
			failed++;
		}
	}
	if (v->get_bytes) {
		struct bench_target b = {.fn = call_bytes, .arg = &ctx};

		if (bench_measure(warm, &b, &res) == 0) {
			res.per = BENCH_BULK_BYTES;
			emit(&res, v, "cycles_per_byte", "cycles/byte", warm);
			row->bulk_cpb_m =
				(res.st.median_m + BENCH_BULK_BYTES / 2) / BENCH_BULK_BYTES;
		} else {
			note_failure(v, "cycles_per_byte");
			failed++;
		}
	}
	return failed;
}

/* Appends s to line (cut at size); returns the new length. */
static size_t put_str(char *line, size_t at, size_t size, const char *s)
{
	while (*s && at + 1 < size)
		line[at++] = *s++;
	line[at] = '\0';
	return at;
}

static size_t put_dec(char *line, size_t at, size_t size, unsigned v)
{
	char d[12];
	int i = (int)sizeof(d) - 1;

	d[i] = '\0';
	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10));
	return put_str(line, at, size, d + i);
}

/* A readable line per variant before its records: "[3/9] sha1-mackall ...". */
static void progress(unsigned k, unsigned n, const char *name)
{
	char line[96];
	size_t at = put_str(line, 0, sizeof(line), "[");

	at = put_dec(line, at, sizeof(line), k);
	at = put_str(line, at, sizeof(line), "/");
	at = put_dec(line, at, sizeof(line), n);
	at = put_str(line, at, sizeof(line), "] ");
	at = put_str(line, at, sizeof(line), name);
	put_str(line, at, sizeof(line), " ...");
	bench_emit(line);
}

int bench_suite_rng(const struct bench_config *cfg, const struct rng_variant *const *list,
		    const char *title, struct bench_run *run)
{
	unsigned step = 0, steps = 0;
	struct bench_config warm = *cfg, cold = *cfg, batch = *cfg;
	struct bench_target cold_t = {.setup = flush_images, .samples = cfg->cold_samples};
	struct bench_target warm_t = {0};
	unsigned first = run->nrows;
	const struct rng_variant *const *v;
	int64_t ovh;
	int failed = 0;

	for (v = list; *v && cfg->only && !streq(cfg->only, (*v)->name); v++)
		;
	if (!*v)
		return 0; /* --only picked something elsewhere: no floors needed */

	/* Each condition gets its own floor, measured with the same wrapper. */
	ovh = floor_of(cfg, warm_t, call_u32);
	if (ovh < 0)
		return (int)++run->failed;
	warm.overhead = (uint32_t)ovh;
	ovh = floor_of(cfg, warm_t, call_u32_batch);
	if (ovh < 0)
		return (int)++run->failed;
	batch.overhead = (uint32_t)ovh;
	if (cfg->nflush) {
		ovh = floor_of(cfg, cold_t, call_u32);
		if (ovh < 0)
			return (int)++run->failed;
		cold.overhead = (uint32_t)ovh;
	}

	for (v = list; *v; v++)
		steps += !cfg->only || streq(cfg->only, (*v)->name);
	for (; *list; list++) {
		const struct rng_variant *v = *list;
		struct bench_row *row;
		int f;

		if (cfg->only && !streq(cfg->only, v->name))
			continue;
		progress(++step, steps, v->name);
		row = bench_run_row(run, v->name);
		if (!row) {
			bench_emit("bench: table full, variant not measured");
			failed++;
			run->failed++;
			continue;
		}
		row->secure = v->secure;
		if (v->available && !v->available()) {
			emit_unavailable(v);
			run->unavailable++;
			continue;
		}
		row->available = true;
		f = measure_variant(&warm, &batch, cfg->nflush ? &cold : NULL, v, row);
		failed += f;
		run->failed += (unsigned)f;
		run->measured++;
	}
	if (run->nrows > first)
		bench_run_table(run, first, title);
	return failed;
}
