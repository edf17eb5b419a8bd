/* Tests of the timer, the TSC, fault handling and the command line. */
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/traps.h"
#include "kernel/arch/tsc.h"
#include "kernel/params/param.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/test/ktest.h"

/* Waits for `n` more of *counter with a TSC-based escape hatch; returns the TSC delta or 0. */
static uint64_t wait_count(volatile uint64_t *counter, uint64_t n)
{
	uint64_t start, t0, limit = tsc_hz() * 10;

	start = *counter;
	while (*counter == start)
		cpu_relax();
	start = *counter;
	t0 = rdtsc();
	while (*counter - start < n) {
		if (rdtsc() - t0 > limit)
			return 0;
		halt();
	}
	return rdtsc() - t0;
}

static enum ktest_result timer_progress(struct ktest_ctx *t)
{
	uint64_t j0 = jiffies;

	if (!wait_count(&jiffies, 10))
		return ktest_fail(t, "jiffies stuck at %lu", jiffies);
	if (jiffies - j0 < 10)
		return ktest_fail(t, "jiffies advanced by %lu only", jiffies - j0);
	return KTEST_PASS;
}
KTEST(timer_progress);

/*
 * The calibrated TSC rate agrees with the PIT-driven tick within 25 %: a sanity
 * check that survives an emulator on a loaded host delivering ticks late (or
 * late and then in a burst): any one of three windows may agree, where a
 * wrong calibration fails all three.
 */
static enum ktest_result tsc_calibration(struct ktest_ctx *t)
{
	uint64_t ticks = timer_hz() / 5 + 5, delta = 0, expect;
	int tries;

	if (tsc_hz() < 10000000ULL || tsc_hz() > 20000000000ULL)
		return ktest_fail(t, "TSC frequency %lu Hz is implausible", tsc_hz());
	expect = (uint64_t)((unsigned __int128)tsc_hz() * ticks * 1000 / timer_actual_mhz());
	for (tries = 0; tries < 3; tries++) {
		delta = wait_count(&timer_interrupts, ticks);
		if (!delta)
			return ktest_fail(t, "timer did not tick");
		if (delta >= expect - expect / 4 && delta <= expect + expect / 4)
			return KTEST_PASS;
	}
	return ktest_fail(t,
			  "%lu ticks took %lu TSC cycles (the last of 3 tries), expected %lu (%s)",
			  ticks, delta, expect, tsc_source());
}
KTEST(tsc_calibration);

/*
 * jiffies follow the clock when ticks are lost: with interrupts off for 40
 * tick periods the PIC holds one interrupt, and the tick that comes when
 * they are back on advances jiffies by the periods that passed (timer.c's
 * tick_do_update_jiffies64).  Counting interrupts, it advanced by one.
 */
static enum ktest_result jiffies_follow_clock(struct ktest_ctx *t)
{
	uint64_t period = tsc_hz() * 1000 / timer_actual_mhz(), j0, irq0, t0, elapsed;

	wait_count(&timer_interrupts, 1);
	irq_disable();
	j0 = jiffies;
	irq0 = timer_interrupts;
	t0 = rdtsc();
	while (rdtsc() - t0 < 40 * period)
		cpu_relax();
	irq_enable();
	if (!wait_count(&timer_interrupts, 1))
		return ktest_fail(t, "timer did not tick");
	elapsed = (rdtsc() - t0) / period;
	if (jiffies - j0 < 38 || jiffies - j0 > elapsed + 2)
		return ktest_fail(t,
				  "%lu tick periods, 40 with interrupts off, advanced jiffies by "
				  "%lu (%lu interrupts)",
				  elapsed, jiffies - j0, timer_interrupts - irq0);
	return KTEST_PASS;
}
KTEST(jiffies_follow_clock);

/* A kernel page fault on a probe is caught, reported as -EFAULT, and we go on. */
static enum ktest_result fault_fixup(struct ktest_ctx *t)
{
	uint64_t before = fixups_taken, v = 0;

	if (probe_read_u64((const void *)0xffffc00000200000ULL, &v) != -EFAULT)
		return ktest_fail(t, "unmapped kernel address: no -EFAULT");
	if (probe_read_u64((const void *)0x0000800000000000ULL, &v) != -EFAULT)
		return ktest_fail(t, "non-canonical address: no -EFAULT");
	if (probe_read_u64((const void *)0, &v) != -EFAULT)
		return ktest_fail(t, "NULL: no -EFAULT");
	if (fixups_taken - before != 3)
		return ktest_fail(t, "%lu fixups taken, expected 3", fixups_taken - before);
	if (probe_read_u64(&before, &v) || v != before)
		return ktest_fail(t, "valid probe failed");
	return KTEST_PASS;
}
KTEST(fault_fixup);

/* Ends the run with the exception report: run-qemu.sh must exit 3. */
static enum ktest_result fault_unhandled(struct ktest_ctx *t)
{
	(void)t;
	return *(volatile uint64_t *)0xffffc00000400000ULL ? KTEST_FAIL : KTEST_FAIL;
}
KTEST_EXPLICIT(fault_unhandled);

static enum ktest_result cmdline_errors(struct ktest_ctx *t)
{
	static const struct {
		const char *line, *must_mention;
	} bad[] = {
		{"mode=nonsense", "bench|test|shell|attack"},
		{"nokey", "key=value"},
		{"colour=blue", "unknown key 'colour'"},
		{"hz=0", "hz"},
		{"hz=99999999999", "hz"},
		{"seed=abc", "seed"},
		{"seed=zz", "seed"},
		{"rng=md6", "md4-2.6.30"},
		{"randomize_va_space=3", "0|1|2"},
		{"aslr_profile=arm", "x86_64|ia32"},
		{"samples=-1", "samples"},
	};
	char err[320];

	/* The boot's own table, checked only: nothing the running system reads changes. */
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (parse_args(bad[i].line, __params_start, __params_end, 1, err, sizeof(err)))
			return ktest_fail(t, "'%s' was accepted", bad[i].line);
		if (!strstr(err, bad[i].must_mention))
			return ktest_fail(t, "'%s': message '%s' lacks '%s'", bad[i].line, err,
					  bad[i].must_mention);
	}
	if (!parse_args("  mode=test  hz=1000 seed=00ff rng=prandom variants=md4-2.6.30,prandom",
			__params_start, __params_end, 1, err, sizeof(err)))
		return ktest_fail(t, "a valid line was rejected: %s", err);
	return KTEST_PASS;
}
KTEST(cmdline_errors);
