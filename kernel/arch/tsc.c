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

#define CAL_TICKS 59659 /* 50 ms of PIT input clock */

static uint64_t hz;
static const char *source = "none";

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
		return;
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
