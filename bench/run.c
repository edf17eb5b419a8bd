/* Console tables and the summary record; see run.h. */
#include "common/jrec.h"
#include "bench/platform.h"
#include "bench/run.h"
#include "bench/text.h"

static bool streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

void bench_run_init(struct bench_run *run)
{
	run->nrows = 0;
	run->measured = 0;
	run->failed = 0;
	run->unavailable = 0;
}

struct bench_row *bench_run_row(struct bench_run *run, const char *name)
{
	struct bench_row *r;

	if (run->nrows >= BENCH_RUN_ROWS)
		return NULL;
	r = &run->rows[run->nrows++];
	r->name = name;
	r->available = false;
	r->secure = false;
	r->median_m = 0;
	r->mean_m = 0;
	r->batch_median_m = -1;
	r->min = 0;
	r->p99 = 0;
	r->cold_median_m = -1;
	r->bulk_cpb_m = -1;
	return r;
}

static int64_t ref_median(const struct bench_run *run)
{
	for (unsigned i = 0; i < run->nrows; i++)
		if (run->rows[i].available && streq(run->rows[i].name, BENCH_REF_RNG))
			return run->rows[i].median_m;
	return 0;
}

void bench_run_table(const struct bench_run *run, unsigned first, const char *title)
{
	int64_t ref = ref_median(run);
	struct tline l;

	tl_init(&l);
	tl_str(&l, "== ", 0);
	tl_str(&l, title, 0);
	tl_str(&l,
	       " (cycles per call, warm, one per sample; x = median / " BENCH_REF_RNG
	       "; batched = median per call of 16 back-to-back; cyc/byte from 4 KiB get_bytes)",
	       0);
	bench_emit(tl_end(&l));
	tl_init(&l);
	tl_str(&l, "rng", 30);
	tl_str(&l, "secure", 7);
	tl_str(&l, "median", -9);
	tl_str(&l, "mean", -9);
	tl_str(&l, "min", -8);
	tl_str(&l, "p99", -8);
	tl_str(&l, "x md4", -8);
	tl_str(&l, "batched", -9);
	tl_str(&l, "first-call", -12);
	tl_str(&l, "cyc/byte", -10);
	bench_emit(tl_end(&l));
	for (unsigned i = first; i < run->nrows; i++) {
		const struct bench_row *r = &run->rows[i];

		tl_init(&l);
		tl_str(&l, r->name, 30);
		tl_str(&l, r->secure ? "yes" : "no", 7);
		if (!r->available) {
			tl_str(&l, "unavailable", -9);
			bench_emit(tl_end(&l));
			continue;
		}
		tl_milli(&l, r->median_m, 1, -9);
		tl_milli(&l, r->mean_m, 1, -9);
		tl_u64(&l, r->min, -8);
		tl_u64(&l, r->p99, -8);
		if (ref > 0) {
			/* ratio in hundredths, shown "1.98x" */
			tl_milli(&l, (r->median_m * 100 + ref / 2) / ref * 10, 2, -7);
			tl_str(&l, "x", 0);
		} else {
			tl_str(&l, "-", -8);
		}
		if (r->batch_median_m >= 0)
			tl_milli(&l, r->batch_median_m, 1, -9);
		else
			tl_str(&l, "-", -9);
		if (r->cold_median_m >= 0)
			tl_milli(&l, r->cold_median_m, 1, -12);
		else
			tl_str(&l, "-", -12);
		if (r->bulk_cpb_m >= 0)
			tl_milli(&l, r->bulk_cpb_m, 3, -10);
		else
			tl_str(&l, "-", -10);
		bench_emit(tl_end(&l));
	}
}

void bench_emit_summary(const struct bench_run *run, int status)
{
	char buf[256];
	struct jrec r;

	jrec_begin(&r, buf, sizeof(buf), "summary");
	jrec_u64(&r, "passed", run->measured);
	jrec_u64(&r, "failed", run->failed);
	jrec_u64(&r, "skipped", run->unavailable);
	jrec_i64(&r, "status", status);
	bench_emit(jrec_end(&r));
}
