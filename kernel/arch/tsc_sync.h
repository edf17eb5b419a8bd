#ifndef KERNEL_ARCH_TSC_SYNC_H
#define KERNEL_ARCH_TSC_SYNC_H

#include <stdint.h>

/*
 * The TSC warp test between the boot CPU (source) and one AP (target), as
 * Linux 6.6's arch/x86/kernel/tsc_sync.c; both sides call in, in either
 * order.  `wait` bounds every rendezvous (TSC cycles).  The source returns
 * the largest warp seen in cycles (0: none), or -1 when the target did not
 * take part in time; the target returns 0, or -1 when it gave up waiting.
 * The boot CPU calls tsc_sync_prepare before it starts each AP (no other
 * CPU is in the test then: an AP that failed it has been sent INIT).
 */
void tsc_sync_prepare(void);
int64_t tsc_sync_source(uint64_t wait);
int tsc_sync_target(uint64_t wait);

#endif
