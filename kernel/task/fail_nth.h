/*
 * Allocation-failure injection, Linux's interface (4.13, lib/fault-inject.c
 * should_fail_ex): a task writes N to /proc/self/fail-nth and its N-th
 * allocation from then on fails; reading the file gives what is left (0
 * once the failure was injected).  The page allocator and the file cache
 * are the fault sites; task slots and address spaces each take a page
 * (kernel stack, PML4), so they fail there.
 */
#ifndef KERNEL_MM_FAIL_NTH_H
#define KERNEL_MM_FAIL_NTH_H

#include <stdbool.h>

/* Counts one allocation of the current task; true when it must fail. */
bool should_fail_alloc(void);

#endif
