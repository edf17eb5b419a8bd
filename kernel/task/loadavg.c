/*
 * The load averages of /proc/loadavg, as Linux 6.6's kernel/sched/loadavg.c
 * computes them: every LOAD_FREQ (5 s and a tick) the number of runnable
 * tasks is folded into three exponentially decaying averages over 1, 5
 * and 15 minutes, in fixed point with 11 fraction bits.  Why keep them:
 * every load meter (uptime, top) reads them, and with several CPUs they
 * say how many were kept busy.
 */
#include "kernel/arch/timer.h"
#include "kernel/task/loadavg.h"
#include "kernel/task/task.h"

#define EXP_1  1884 /* 1/exp(5sec/1min) in fixed point */
#define EXP_5  2014 /* 1/exp(5sec/5min) */
#define EXP_15 2037 /* 1/exp(5sec/15min) */

unsigned long avenrun[3];
static uint64_t calc_load_update;

/* calc_load: a = a * exp + n * (1 - exp), rounded up while the load rises */
static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

unsigned int nr_running(void)
{
	unsigned int n = 0;

	for (int i = 0; i < NR_TASKS; i++)
		n += tasks[i].state == TASK_RUNNING;
	return n;
}

/* calc_global_load: from the boot CPU's tick; 10 ticks after each boundary, as Linux */
void calc_global_load(void)
{
	uint64_t freq = 5ULL * timer_hz() + 1; /* LOAD_FREQ */
	unsigned long active;

	if (!calc_load_update)
		calc_load_update = jiffies + freq;
	if (jiffies < calc_load_update + 10)
		return;
	active = (unsigned long)nr_running() * FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
	calc_load_update += freq;
}
