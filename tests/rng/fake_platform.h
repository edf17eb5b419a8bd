/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment the host RNG tests inject through rng_set_platform():
 * a pid, jiffies and a cycle counter the tests set, HZ 100, and one seed.
 * setup() puts every test back at the same starting point.
 */
#ifndef TESTS_RNG_FAKE_PLATFORM_H
#define TESTS_RNG_FAKE_PLATFORM_H

#include <stdint.h>

#include "rng/rng.h"

static uint32_t t_pid = 1000;
static uint64_t t_jiffies = 5000, t_cycles = 123456789;
static unsigned int t_cpu; /* the CPU that draws */

static uint32_t f_pid(void)
{
	return t_pid;
}

static uint64_t f_jiffies(void)
{
	return t_jiffies;
}

static uint64_t f_cycles(void)
{
	return t_cycles;
}

static unsigned int f_cpu(void)
{
	return t_cpu;
}

static const struct rng_platform fake = {
	.current_pid = f_pid,
	.jiffies = f_jiffies,
	.get_cycles = f_cycles,
	.hz = 100,
	.cpu_id = f_cpu,
};

static const char seed[] = "aslrbench-test-seed";

static void setup(void)
{
	t_pid = 1000;
	t_jiffies = 5000;
	t_cycles = 123456789;
	t_cpu = 0;
	rng_set_platform(&fake);
}

#endif
