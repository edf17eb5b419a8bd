/*
 * Is the TSC the same clock on every CPU?  Linux 6.6's check_tsc_warp
 * (arch/x86/kernel/tsc_sync.c): two CPUs take turns, under one spinlock,
 * reading the TSC and storing the value as "last"; a CPU that reads less
 * than the "last" the other CPU stored before it has seen time go backwards
 * across CPUs, a warp, and the difference is its size.  Each AP is checked
 * against the boot CPU in turn, both looping for 20 ms (Linux's
 * loop_timeout for CPUs in different packages; 2 ms for siblings of one
 * package, which this kernel does not tell apart) or 10 million rounds.
 *
 * Unlike Linux, a warp only is measured and reported (the boot record's
 * tsc_max_warp, a warning): this kernel neither writes IA32_TSC_ADJUST to
 * fix it nor switches clocks, and its timings all run on the boot CPU.
 */
#include <stdbool.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/tsc_sync.h"

#define WARP_TEST_MS  20
#define WARP_TEST_MAX 10000000u

static uint32_t sync_lock;
static uint64_t last_tsc, max_warp, nr_warps;
static uint32_t start_count, stop_count;

static void arch_spin_lock(uint32_t *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			cpu_relax();
}

static void arch_spin_unlock(uint32_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* Linux's rdtsc_ordered: no earlier load may pass the read. */
static uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static void check_tsc_warp(void)
{
	uint64_t start = rdtsc_ordered(), end = start + tsc_hz() / 1000 * WARP_TEST_MS;

	for (uint32_t i = 0;; i++) {
		uint64_t prev, now;

		arch_spin_lock(&sync_lock);
		prev = last_tsc;
		now = rdtsc_ordered();
		last_tsc = now;
		arch_spin_unlock(&sync_lock);
		if (!(i & 7)) {
			if (now > end || i > WARP_TEST_MAX)
				break;
			cpu_relax();
		}
		if (prev > now) {
			arch_spin_lock(&sync_lock);
			if (prev - now > max_warp)
				max_warp = prev - now;
			nr_warps++;
			arch_spin_unlock(&sync_lock);
		}
	}
}

/* Waits until *v == want, at most `wait` TSC cycles. */
static bool wait_for(uint32_t *v, uint32_t want, uint64_t wait)
{
	uint64_t start = rdtsc();

	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) != want) {
		if (rdtsc() - start > wait)
			return false;
		cpu_relax();
	}
	return true;
}

void tsc_sync_prepare(void)
{
	last_tsc = 0;
	max_warp = 0;
	nr_warps = 0;
	__atomic_store_n(&start_count, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&stop_count, 0, __ATOMIC_RELEASE);
}

int64_t tsc_sync_source(uint64_t wait)
{
	int64_t warp;

	if (!wait_for(&start_count, 1, wait))
		return -1;
	__atomic_fetch_add(&start_count, 1, __ATOMIC_ACQ_REL);
	check_tsc_warp();
	if (!wait_for(&stop_count, 1, wait))
		return -1;
	warp = nr_warps ? (int64_t)max_warp : 0;
	__atomic_fetch_add(&stop_count, 1, __ATOMIC_ACQ_REL);
	return warp;
}

int tsc_sync_target(uint64_t wait)
{
	__atomic_fetch_add(&start_count, 1, __ATOMIC_ACQ_REL);
	if (!wait_for(&start_count, 2, wait))
		return -1;
	check_tsc_warp();
	__atomic_fetch_add(&stop_count, 1, __ATOMIC_ACQ_REL);
	return wait_for(&stop_count, 2, wait) ? 0 : -1;
}
