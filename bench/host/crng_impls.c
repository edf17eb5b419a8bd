/*
 * crng_impls.c - the "crng" table of bench-host: chacha20-batched beside
 * chacha20-wide under every ChaCha20 implementation this CPU can run, in
 * cycles per u32 with the refills included.
 *
 * Why: the rng suite's batched column times 16 calls per sample and reports
 * the median, so for a batch of hundreds of words the typical sample holds
 * no refill and the figure is the cost of handing out a word, not of making
 * it.  Here every sample is CRNG_STREAM_CALLS calls, a whole number of
 * batches of both variants (24 words, CRNG_WIDE_BATCH_WORDS words), so
 * each sample pays for exactly the refills its words needed.  The floor (the
 * same loop around an empty function) is subtracted, as in the rng suite.
 */
#include <stdio.h>
#include <string.h>

#include "bench/host/crng_impls.h"
#include "bench/platform.h"
#include "bench/suites.h"
#include "bench/text.h"
#include "rng/chacha20_batched.h"

/* 12 batches of chacha20-wide, 124 of chacha20-batched */
#define CRNG_STREAM_CALLS (12 * CRNG_WIDE_BATCH_WORDS)
_Static_assert(CRNG_STREAM_CALLS % CRNG_BATCH_WORDS == 0,
	       "a sample must hold whole batches of both variants");
#define CRNG_BLOCKS_BYTES (CRNG_WIDE_BATCH_BLOCKS * CHACHA_BLOCK_SIZE)
_Static_assert(CRNG_BLOCKS_BYTES <= BENCH_BULK_BYTES, "the blocks fit the bulk buffer");

static volatile uint32_t sink;
static uint8_t bulk[BENCH_BULK_BYTES];
static uint32_t (*stream_get)(void);
static void (*bulk_get)(void *, size_t);

static void call_stream(void *arg)
{
	uint32_t (*get)(void) = stream_get;

	(void)arg;
	for (int i = 0; i < CRNG_STREAM_CALLS; i++)
		sink = get();
}

static void call_bulk(void *arg)
{
	(void)arg;
	bulk_get(bulk, sizeof(bulk));
}

/* the cipher alone: one refill's blocks, no key erasure, no batch */
static void call_blocks(void *arg)
{
	static uint32_t state[CHACHA_STATE_WORDS] = {
		0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u, 1, 2, 3, 4, 5, 6, 7, 8};

	(void)arg;
	chacha20_blocks(state, bulk, CRNG_WIDE_BATCH_BLOCKS);
}

static uint32_t zero_u32(void)
{
	return 0;
}

static void emit_line(const char *name, const char *impl, unsigned batch, const char *rest,
		      const struct bench_result *u32, const struct bench_result *bytes,
		      const struct bench_result *blocks)
{
	struct tline l;

	tl_init(&l);
	tl_str(&l, name, 22);
	tl_str(&l, impl, 8);
	tl_u64(&l, batch, -6);
	if (u32) {
		tl_milli(&l, u32->st.median_m / CRNG_STREAM_CALLS, 2, -9);
		tl_milli(&l, u32->st.mean_m / CRNG_STREAM_CALLS, 2, -9);
		tl_milli(&l, (int64_t)u32->st.min * 1000 / CRNG_STREAM_CALLS, 2, -9);
		tl_milli(&l, (int64_t)u32->st.p99 * 1000 / CRNG_STREAM_CALLS, 2, -9);
	} else {
		tl_str(&l, "-", -9);
		tl_str(&l, "-", -9);
		tl_str(&l, "-", -9);
		tl_str(&l, "-", -9);
	}
	if (bytes)
		tl_milli(&l, bytes->st.median_m / BENCH_BULK_BYTES, 3, -10);
	else
		tl_str(&l, "-", -10);
	if (blocks)
		tl_milli(&l, blocks->st.median_m / CRNG_BLOCKS_BYTES, 3, -10);
	else
		tl_str(&l, "-", -10);
	if (rest) {
		tl_str(&l, "  ", 0);
		tl_str(&l, rest, 0);
	}
	bench_emit(tl_end(&l));
}

static void record(const struct bench_result *res, const char *rng, const char *metric,
		   const char *unit, const char *impl, bool chosen, unsigned batch)
{
	char buf[BENCH_REC_SIZE];
	struct jrec r;

	bench_record_begin(&r, buf, sizeof(buf), res, "crng", rng, metric, unit);
	jrec_bool(&r, "available", true);
	jrec_bool(&r, "secure", true);
	jrec_str(&r, "impl", impl);
	jrec_bool(&r, "chosen", chosen);
	jrec_u64(&r, "batch_words", batch);
	bench_record_emit(&r);
}

static void record_unavailable(const char *rng, const char *impl)
{
	char buf[BENCH_REC_SIZE];
	struct jrec r;

	jrec_begin(&r, buf, sizeof(buf), "bench");
	jrec_str(&r, "suite", "crng");
	jrec_str(&r, "rng", rng);
	jrec_str(&r, "metric", "cycles_per_u32_stream");
	jrec_bool(&r, "available", false);
	jrec_str(&r, "impl", impl);
	bench_emit(jrec_end(&r));
}

/* One row: 0, or 1 when a measurement could not run. */
static int measure_row(const struct bench_config *stream, const struct bench_config *warm,
		       const struct rng_variant *v, const char *rng, const char *impl, bool chosen,
		       unsigned batch)
{
	struct bench_target t = {.fn = call_stream};
	struct bench_result u32, bytes, blocks;
	/* chacha20-batched's refills call chacha20_block(): wide/scalar's cipher row */
	bool cipher = strcmp(rng, "chacha20-batched") != 0;
	int failed = 0;

	stream_get = v->get_u32;
	bulk_get = v->get_bytes;
	if (bench_measure(stream, &t, &u32) == 0) {
		u32.per = CRNG_STREAM_CALLS;
		record(&u32, rng, "cycles_per_u32_stream", "cycles", impl, chosen, batch);
	} else {
		failed = 1;
	}
	t.fn = call_bulk;
	if (bench_measure(warm, &t, &bytes) == 0) {
		bytes.per = BENCH_BULK_BYTES;
		record(&bytes, rng, "cycles_per_byte", "cycles/byte", impl, chosen, batch);
	} else {
		failed = 1;
	}
	t.fn = call_blocks;
	if (cipher && bench_measure(warm, &t, &blocks) == 0) {
		blocks.per = CRNG_BLOCKS_BYTES;
		record(&blocks, rng, "cycles_per_byte_blocks", "cycles/byte", impl, chosen, batch);
	} else if (cipher) {
		failed = 1;
	}
	emit_line(rng, impl, batch, chosen ? "(chosen by CPUID)" : NULL, failed ? NULL : &u32,
		  failed ? NULL : &bytes, failed || !cipher ? NULL : &blocks);
	return failed;
}

int host_suite_crng(const struct bench_config *cfg, struct bench_run *run)
{
	const struct rng_variant *batched = rng_find("chacha20-batched");
	const struct rng_variant *wide = rng_find("chacha20-wide");
	struct bench_config stream = *cfg, warm = *cfg;
	struct bench_target t = {.fn = call_stream};
	struct bench_result floor;
	enum chacha_impl chosen = chacha_impl_active();
	char name[48];
	int failed = 0;

	if (cfg->only && strcmp(cfg->only, "chacha20-batched") &&
	    strcmp(cfg->only, "chacha20-wide"))
		return 0;
	if (!batched || !wide)
		return 1;
	/* the floor of each loop, as the rng suite measures its own */
	stream.overhead = warm.overhead = 0;
	stream_get = zero_u32;
	if (bench_measure(&stream, &t, &floor))
		return 1;
	stream.overhead = floor.st.min;
	warm.overhead = cfg->overhead;

	bench_emit("== crng (cycles per u32 over samples of whole batches, refills included, "
		   "floor subtracted; cyc/byte from 4 KiB get_bytes; blocks: cycles/byte of "
		   "chacha20_blocks() alone, one refill's 16 blocks; one implementation of "
		   "ChaCha20 per row)");
	bench_emit("rng                   impl     batch   median     mean      min      p99  "
		   "cyc/byte    blocks");
	failed += measure_row(&stream, &warm, batched, batched->name, "scalar", false,
			      CRNG_BATCH_WORDS);
	for (int i = 0; i < CHACHA_NR_IMPLS; i++) {
		enum chacha_impl impl = (enum chacha_impl)i;

		snprintf(name, sizeof(name), "%s/%s", wide->name, chacha_impl_name(impl));
		if (!chacha_impl_force(impl)) {
			record_unavailable(name, chacha_impl_name(impl));
			emit_line(name, chacha_impl_name(impl), CRNG_WIDE_BATCH_WORDS,
				  "(this CPU or OS lacks it)", NULL, NULL, NULL);
			run->unavailable++;
			continue;
		}
		failed += measure_row(&stream, &warm, wide, name, chacha_impl_name(impl),
				      impl == chosen, CRNG_WIDE_BATCH_WORDS);
		run->measured++;
	}
	chacha_impl_force(CHACHA_NR_IMPLS);
	run->failed += (unsigned)failed;
	return failed;
}
