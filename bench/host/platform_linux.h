/* The Linux side of bench-host: the platform API plus process set-up. */
#ifndef BENCH_HOST_PLATFORM_LINUX_H
#define BENCH_HOST_PLATFORM_LINUX_H

#include <stdint.h>
#include <stdio.h>

#include "bench/harness.h"

/* Every bench_emit line also goes to `log` (may be NULL). */
void host_set_log(FILE *log);
/*
 * Gives rng/ its platform: a cached pid, jiffies counted by a SIGALRM timer
 * at `hz` (a plain load, as in the kernel, not a clock read), RDTSC cycles.
 */
int host_rng_platform(uint32_t hz);
/* Pins to `cpu` (-1: the last CPU allowed); returns the CPU or -1. */
int host_pin(int cpu);
/* SCHED_FIFO priority 1 when permitted; returns "fifo" or why not. */
const char *host_sched_fifo(void);
/* TSC rate measured against CLOCK_MONOTONIC_RAW over `ms` milliseconds. */
uint64_t host_tsc_hz(unsigned ms);
/* The PT_LOAD segments of every loaded ELF object, for the cold suite. */
unsigned host_image_ranges(struct bench_config *cfg);

#endif
