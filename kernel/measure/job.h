#ifndef KERNEL_MEASURE_JOB_H
#define KERNEL_MEASURE_JOB_H

#include <stdbool.h>
#include <stdint.h>

struct bench_run;

/* mode=bench: the suites suite= selects ("" = all), then the run ends. */
__attribute__((noreturn)) void job_bench(void);

/* The headline table on the screen (kernel/measure/summary_screen.c); no-op without fbcon. */
void bench_summary_screen(const struct bench_run *run, const char *const *names,
			  const int64_t *fork_share_m, unsigned n, bool emulated);

#endif
