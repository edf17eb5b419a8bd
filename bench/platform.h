/*
 * The 4-function platform API that bench/ needs from whoever runs it: the
 * freestanding kernel or the Linux host program (bench/host/platform_linux.c).
 * Everything else a suite needs (TSC facts, ensemble sizes, ...) travels in
 * struct bench_config, so that this interface stays small enough to port.
 */
#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* Interrupts off (kernel) / no-op on the host; returns the previous state. */
uint64_t bench_irq_save(void);
void bench_irq_restore(uint64_t flags);
/* One line of console text or one "@@ {...}" record, without a newline. */
void bench_emit(const char *line);
/*
 * Platform-owned scratch memory for samples: the same buffer is handed out
 * again on the next call (contents not kept); NULL if `bytes` is too big.
 */
void *bench_scratch(size_t bytes);

#endif
