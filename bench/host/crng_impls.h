/* bench-host's "crng" table (crng_impls.c). */
#ifndef BENCH_HOST_CRNG_IMPLS_H
#define BENCH_HOST_CRNG_IMPLS_H

#include "bench/harness.h"
#include "bench/run.h"

/*
 * chacha20-batched, then chacha20-wide once per ChaCha20 implementation
 * (chacha_impl_force), each as "cycles_per_u32_stream" (whole batches per
 * sample, refills included) and "cycles_per_byte" (4 KiB get_bytes)
 * records, chacha20-wide's also "cycles_per_byte_blocks" (chacha20_blocks()
 * of one refill's blocks: the cipher alone), of suite "crng", rng "chacha20-batched" or
 * "chacha20-wide/IMPL", with "impl", "chosen" (what CPUID picks) and "batch_words"; an
 * implementation the CPU or OS lacks gets one record with "available":false.
 * Skipped unless cfg->only is NULL or names one of the two.  Returns the
 * number of failed measurements.
 */
int host_suite_crng(const struct bench_config *cfg, struct bench_run *run);

#endif
