#ifndef KERNEL_BENCH_JOB_H
#define KERNEL_BENCH_JOB_H

#include <stdint.h>

/* mode=bench: the suites suite= selects ("" = all), then the run ends. */
__attribute__((noreturn)) void job_bench(void);

/* Where fork records the cycles of its get_random_int() call, while a fork suite runs. */
extern uint32_t *fork_rng_samples;
extern uint32_t fork_rng_count, fork_rng_cap;

#endif
