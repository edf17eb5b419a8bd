/*
 * TSC frequency.  Every cycle figure is reported in TSC ticks; converting
 * to time needs the frequency, so take it from CPUID where the CPU states
 * it and otherwise measure it against PIT channel 2 (a fixed 1.193182 MHz
 * clock that needs no interrupts), median of three 50 ms windows.
 */
#include "common/cpu.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/uapi/vvar.h"

#define CAL_TICKS 59659 /* 50 ms of PIT input clock */

static uint64_t hz;
static const char *source = "none";
/* The time clock: ns = (tsc * clock_mult) >> CLOCK_SHIFT, as the vDSO computes it. */
#define CLOCK_SHIFT 32
static uint64_t clock_mult;

static uint64_t measure_once(void)
{
	uint64_t flags = irq_save(), t0, t1;

	t0 = rdtsc();
	pit_delay_ticks(CAL_TICKS);
	t1 = rdtsc();
	irq_restore(flags);
	return (t1 - t0) * PIT_HZ / CAL_TICKS;
}

void tsc_init(void)
{
	struct bench_cpu c;
	uint64_t m[3], t;

	bench_cpu_detect(&c);
	if (c.tsc_hz_cpuid) {
		hz = c.tsc_hz_cpuid;
		source = c.tsc_hz_source;
		goto clock;
	}
	for (int i = 0; i < 3; i++)
		m[i] = measure_once();
	/* Median of three. */
	if (m[0] > m[1]) {
		t = m[0];
		m[0] = m[1];
		m[1] = t;
	}
	if (m[1] > m[2]) {
		t = m[1];
		m[1] = m[2];
		m[2] = t;
	}
	if (m[0] > m[1]) {
		t = m[0];
		m[0] = m[1];
		m[1] = t;
	}
	hz = m[1];
	source = "pit";
clock:
	/* 10^9 << 32 fits 64 bits for any rate of 1 Hz and more */
	clock_mult = hz ? (uint64_t)(((unsigned __int128)1000000000ULL << CLOCK_SHIFT) / hz) : 0;
}

uint64_t tsc_hz(void)
{
	return hz;
}

const char *tsc_source(void)
{
	return source;
}

uint64_t tsc_to_ns(uint64_t cycles)
{
	return hz ? (uint64_t)((unsigned __int128)cycles * 1000000000ULL / hz) : 0;
}

void tsc_clock_params(uint64_t *mult, uint32_t *shift)
{
	*mult = clock_mult;
	*shift = CLOCK_SHIFT;
}

/*
 * CLOCK_MONOTONIC (and REALTIME: both count from the TSC's reset here), in
 * nanoseconds: the clock of clock_gettime, gettimeofday, time and the vDSO,
 * which reads the same mult and shift from its [vvar] page.  lfence orders
 * the read after every earlier instruction, as Linux's rdtsc_ordered().
 */
uint64_t ktime_get_ns(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return vvar_cycles_to_ns(((uint64_t)hi << 32) | lo, clock_mult, CLOCK_SHIFT);
}
