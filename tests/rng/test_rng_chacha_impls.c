/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_rng_chacha_impls.c - every implementation of chacha20_blocks()
 * (scalar, SSE2, SSSE3, AVX2, AVX-512F) gives the same bytes, alone and
 * behind chacha20-wide, for many lengths and call sequences; the choice
 * among them fails safe.  Plain TAP: an implementation this CPU (or its OS)
 * lacks is reported "# SKIP", never as a pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng/chacha20_batched.h"
#include "rng/chacha20_simd.h"
#include "rng/rng.h"
#include "rng/variants.h"

static int tests, failures;

/* @impl CHACHA_NR_IMPLS: a test of the choice itself */
static void result(int ok, const char *what, enum chacha_impl impl, const char *detail)
{
	printf("%s %d - %s %s%s%s\n", ok ? "ok" : "not ok", ++tests,
	       impl == CHACHA_NR_IMPLS ? "impl" : chacha_impl_name(impl), what, detail ? ": " : "",
	       detail ? detail : "");
	if (!ok)
		failures++;
}

static void skip(const char *what, enum chacha_impl impl, const char *why)
{
	printf("ok %d - %s %s # SKIP %s\n", ++tests, chacha_impl_name(impl), what, why);
}

static uint64_t xs = 0x9e3779b97f4a7c15ull;

static uint32_t xrand(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return (uint32_t)(xs >> 11);
}

/* ---- chacha20_blocks(): every count 0..40 from three starting counters ------- */
#define MAX_BLOCKS 40

static int blocks_match(char *why, size_t whylen)
{
	static uint8_t a[MAX_BLOCKS * 64 + 1], b[MAX_BLOCKS * 64 + 1];
	static const uint32_t starts[] = {0, 0xfffffff3u, 0x12345678u};
	uint32_t s1[16], s2[16];
	size_t n, i, k;

	for (k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
		for (n = 0; n <= MAX_BLOCKS; n++) {
			for (i = 0; i < 16; i++)
				s1[i] = s2[i] = xrand();
			s1[12] = s2[12] = starts[k];
			/* a guard byte after the output: nothing is written past it */
			a[n * 64] = b[n * 64] = 0xa5;
			chacha20_blocks(s1, a, n);
			for (i = 0; i < n; i++)
				chacha20_block(s2, b + 64 * i);
			if (memcmp(a, b, n * 64 + 1) || memcmp(s1, s2, sizeof(s1))) {
				snprintf(why, whylen, "%zu blocks from counter %#x differ", n,
					 starts[k]);
				return 0;
			}
		}
	}
	return 1;
}

/* ---- chacha20-wide: one scripted sequence of u32 and byte requests ---------- */
#define STREAM_BYTES (1u << 20)

/*
 * Runs of get_u32() that end inside, at and across refills, and get_bytes()
 * of every length 0..300 then random ones up to 5000, interleaved, after a
 * reseed half way: the whole output, in order, into @out.
 */
static size_t wide_stream(uint8_t *out)
{
	const struct rng_variant *v = rng_find("chacha20-wide");
	uint64_t saved = xs;
	size_t at = 0, len;
	uint32_t w, runs = 0;

	xs = 42; /* the same script for every implementation */
	v->init("impl-test-seed", 14);
	while (at + 5000 + 4 * 600 <= STREAM_BYTES) {
		uint32_t k = runs < 8 ? (runs * 31) % 600 : xrand() % 600;

		for (; k; k--) {
			w = v->get_u32();
			memcpy(out + at, &w, 4);
			at += 4;
		}
		len = runs <= 300 ? runs : xrand() % 5000;
		v->get_bytes(out + at, len);
		at += len;
		if (++runs == 200)
			crng_wide_reseed("halfway", 7);
	}
	xs = saved;
	return at;
}

/* ---- the choice: made-up CPUs ------------------------------------------------- */
#define ECX_SSSE3   (1u << 9)
#define ECX_OSXSAVE (1u << 27)
#define ECX_AVX	    (1u << 28)
#define EBX_AVX2    (1u << 5)
#define EBX_AVX512F (1u << 16)
#define BIT(i)	    (1u << (i))

static void test_facts(void)
{
	static const struct {
		const char *what;
		struct chacha_cpu_facts f;
		unsigned int want;
	} cases[] = {
		{"x86_64 baseline", {0, 0, 0}, 0},
		{"SSSE3 only", {ECX_SSSE3, 0, 0}, BIT(CHACHA_IMPL_SSSE3)},
		/* CR4.OSXSAVE clear: XCR0 is never trusted, whatever it holds */
		{"no OSXSAVE",
		 {ECX_SSSE3 | ECX_AVX, EBX_AVX2 | EBX_AVX512F, 0xe7},
		 BIT(CHACHA_IMPL_SSSE3)},
		{"XCR0 without YMM",
		 {ECX_SSSE3 | ECX_OSXSAVE | ECX_AVX, EBX_AVX2 | EBX_AVX512F, 0x03},
		 BIT(CHACHA_IMPL_SSSE3)},
		{"XCR0 without SSE", {ECX_OSXSAVE | ECX_AVX, EBX_AVX2, 0x05}, 0},
		{"no AVX bit", {ECX_SSSE3 | ECX_OSXSAVE, EBX_AVX2, 0x07}, BIT(CHACHA_IMPL_SSSE3)},
		{"AVX2",
		 {ECX_SSSE3 | ECX_OSXSAVE | ECX_AVX, EBX_AVX2, 0x07},
		 BIT(CHACHA_IMPL_SSSE3) | BIT(CHACHA_IMPL_AVX2)},
		{"AVX-512F, XCR0 without ZMM",
		 {ECX_SSSE3 | ECX_OSXSAVE | ECX_AVX, EBX_AVX2 | EBX_AVX512F, 0x27},
		 BIT(CHACHA_IMPL_SSSE3) | BIT(CHACHA_IMPL_AVX2)},
		{"AVX-512F without AVX2",
		 {ECX_SSSE3 | ECX_OSXSAVE | ECX_AVX, EBX_AVX512F, 0xe7},
		 BIT(CHACHA_IMPL_SSSE3)},
		{"AVX-512F",
		 {ECX_SSSE3 | ECX_OSXSAVE | ECX_AVX, EBX_AVX2 | EBX_AVX512F, 0xe7},
		 BIT(CHACHA_IMPL_SSSE3) | BIT(CHACHA_IMPL_AVX2) | BIT(CHACHA_IMPL_AVX512F)},
	};
	const unsigned int always = BIT(CHACHA_IMPL_SCALAR) | BIT(CHACHA_IMPL_SSE2);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int got = chacha_impls_from_facts(&cases[i].f);
		char d[96];

		snprintf(d, sizeof(d), "%s: mask %#x, want %#x", cases[i].what, got,
			 cases[i].want | always);
		result(got == (cases[i].want | always), "choice from CPUID/XCR0", CHACHA_NR_IMPLS,
		       d);
	}
}

/* ---- the choice: platforms that save less than the CPU has ------------------- */
static bool fake_begin(void)
{
	return true;
}

static void fake_end(void)
{
}

/* a region already open: simd_begin refuses, as kernel_fpu_begin() does when nested */
static unsigned int busy_begins, busy_ends;

static bool busy_begin(void)
{
	busy_begins++;
	return false;
}

static void busy_end(void)
{
	busy_ends++;
}

static void test_simd_refused(void)
{
	static const struct rng_platform busy = {.hz = 100,
						 .simd_begin = busy_begin,
						 .simd_end = busy_end,
						 .simd_xfeatures = RNG_USER_SIMD_XFEATURES};
	enum chacha_impl impl;
	char why[128];
	int ok;

	rng_set_platform(&busy);
	impl = chacha_impl_active();
	snprintf(why, sizeof(why), "%s active, every region refused", chacha_impl_name(impl));
	ok = blocks_match(why, sizeof(why));
	result(ok, "blocks match when simd_begin refuses", impl, why);
	/* no region may be closed, or run, that was not opened */
	snprintf(why, sizeof(why), "%u refused begins, %u ends", busy_begins, busy_ends);
	result(busy_begins > 0 && busy_ends == 0, "runs no SIMD region that simd_begin refused",
	       impl, why);
	rng_set_platform(NULL);
}

static void test_platform_gate(void)
{
	/* the kernel's: kernel_fpu_begin() saves what FXSAVE covers */
	static const struct rng_platform fxsave_only = {
		.hz = 100, .simd_begin = fake_begin, .simd_end = fake_end};
	static const struct rng_platform ymm = {.hz = 100,
						.simd_begin = fake_begin,
						.simd_end = fake_end,
						.simd_xfeatures =
							XFEATURE_MASK_FPSSE | XFEATURE_MASK_YMM};
	static const struct rng_platform no_simd = {.hz = 100};
	struct chacha_cpu_facts f;
	unsigned int cpu;

	chacha_cpu_facts_read(&f);
	cpu = chacha_impls_from_facts(&f);
	if (!(cpu & BIT(CHACHA_IMPL_AVX2))) {
		skip("withheld by a platform that saves SSE only", CHACHA_IMPL_AVX2,
		     "this CPU/OS has no AVX2: nothing to withhold");
	} else {
		rng_set_platform(&fxsave_only);
		result(!chacha_impl_usable(CHACHA_IMPL_AVX2) &&
			       !chacha_impl_usable(CHACHA_IMPL_AVX512F) &&
			       !chacha_impl_force(CHACHA_IMPL_AVX2) &&
			       chacha_impl_active() < CHACHA_IMPL_AVX2,
		       "withheld by a platform that saves SSE only", CHACHA_IMPL_AVX2, NULL);
	}
	if (!(cpu & BIT(CHACHA_IMPL_AVX512F))) {
		skip("withheld by a platform that saves YMM but not ZMM", CHACHA_IMPL_AVX512F,
		     "this CPU/OS has no AVX-512F: nothing to withhold");
	} else {
		rng_set_platform(&ymm);
		result(!chacha_impl_usable(CHACHA_IMPL_AVX512F) &&
			       chacha_impl_active() == CHACHA_IMPL_AVX2,
		       "withheld by a platform that saves YMM but not ZMM", CHACHA_IMPL_AVX512F,
		       NULL);
	}
	rng_set_platform(&no_simd);
	result(chacha_impl_active() == CHACHA_IMPL_SSE2 && !chacha_impl_usable(CHACHA_IMPL_SSSE3),
	       "is all a platform without simd_begin gets", CHACHA_IMPL_SSE2, NULL);
	rng_set_platform(NULL);
}

int main(void)
{
	static uint8_t ref[STREAM_BYTES], got[STREAM_BYTES];
	size_t ref_len = 0;
	char why[128];
	int i;

	rng_set_platform(NULL); /* the host's: every width the CPU has */
	test_facts();
	test_platform_gate();
	test_simd_refused();
	for (i = 0; i < CHACHA_NR_IMPLS; i++) {
		enum chacha_impl impl = (enum chacha_impl)i;
		size_t len;
		int ok;

		if (!chacha_impl_force(impl)) {
			skip("blocks match the scalar blocks", impl, "this CPU/OS lacks it");
			skip("chacha20-wide stream matches the scalar one", impl,
			     "this CPU/OS lacks it");
			continue;
		}
		if (chacha_impl_active() != impl) {
			result(0, "is the active implementation once forced", impl, NULL);
			continue;
		}
		snprintf(why, sizeof(why), "0..%d blocks, 3 counters", MAX_BLOCKS);
		ok = blocks_match(why, sizeof(why));
		result(ok, "blocks match the scalar blocks", impl, why);
		len = wide_stream(impl == CHACHA_IMPL_SCALAR ? ref : got);
		if (impl == CHACHA_IMPL_SCALAR) {
			ref_len = len;
			result(len > STREAM_BYTES / 2, "chacha20-wide stream (the reference)", impl,
			       NULL);
		} else {
			snprintf(why, sizeof(why), "%zu bytes", len);
			result(len == ref_len && !memcmp(ref, got, len),
			       "chacha20-wide stream matches the scalar one", impl, why);
		}
	}
	chacha_impl_force(CHACHA_NR_IMPLS);
	printf("1..%d\n", tests);
	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
