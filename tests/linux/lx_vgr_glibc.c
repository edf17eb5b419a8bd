/*
 * lx_vgr_glibc: a dynamic glibc program whose getrandom() and arc4random()
 * calls glibc 2.41 serves from the vDSO (Linux 6.11's __vdso_getrandom)
 * without a system call.  Run by tests/sh/vgetrandom.sh against Debian
 * 13's glibc, under aslrbench aslr_rules=6.x and under Linux 6.12, both
 * booted --deterministic: there rdtsc counts guest instructions, the
 * counter this program reads.
 *
 * Neither kernel counts a task's system calls where user space can read
 * it, so the test is by cost: a getrandom(2) of 4 bytes costs about 2,000
 * instructions in both, the vDSO path about 100 and its refill about
 * 1,100.  Every one of 1,000 calls of each function must cost less than
 * the cheapest of ten direct getrandom(2) calls measured in the same run:
 * a call that entered the kernel for getrandom would cost at least that.
 * A crng reseed during a round makes one call fetch a key by system call,
 * so a round may be repeated (three at most).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lx_check.h"

#define CALLS 1000

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* the calls of one round costing at least limit ticks, and the round's mean (in *mean) */
static int round_getrandom(uint64_t limit, uint64_t *mean, uint64_t *max)
{
	uint64_t total = 0;
	int over = 0;
	uint32_t v;

	*max = 0;
	for (int i = 0; i < CALLS; i++) {
		uint64_t t = ticks(), d;
		ssize_t n = getrandom(&v, sizeof(v), 0);

		d = ticks() - t;
		if (n != sizeof(v))
			over++;
		total += d;
		over += d >= limit;
		*max = d > *max ? d : *max;
	}
	*mean = total / CALLS;
	return over;
}

static int round_arc4random(uint64_t limit, uint64_t *mean, uint64_t *max)
{
	uint64_t total = 0;
	int over = 0;
	volatile uint32_t sink;

	*max = 0;
	for (int i = 0; i < CALLS; i++) {
		uint64_t t = ticks(), d;

		sink = arc4random();
		d = ticks() - t;
		total += d;
		over += d >= limit;
		*max = d > *max ? d : *max;
	}
	(void)sink;
	*mean = total / CALLS;
	return over;
}

int main(void)
{
	uint64_t sys = ~0ULL, mean = 0, max = 0;
	uint32_t v;
	int over = -1;
	char what[160];

	check(getauxval(AT_SYSINFO_EHDR) != 0, "AT_SYSINFO_EHDR is given");
	/* the first calls map glibc's states and fetch their keys: system calls */
	for (int i = 0; i < 64; i++) {
		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			check(0, "getrandom returns 4");
		(void)arc4random();
	}
	for (int i = 0; i < 10; i++) {
		uint64_t t = ticks(), d;

		syscall(SYS_getrandom, &v, sizeof(v), 0);
		d = ticks() - t;
		sys = d < sys ? d : sys;
	}
	printf("getrandom(2) of 4 bytes: %llu ticks at least\n", (unsigned long long)sys);
	for (int r = 0; r < 3 && over; r++)
		over = round_getrandom(sys, &mean, &max);
	snprintf(what, sizeof(what),
		 "%d getrandom() calls of 4 bytes make no system call (mean %llu, max %llu ticks; "
		 "%d at getrandom(2)'s cost)",
		 CALLS, (unsigned long long)mean, (unsigned long long)max, over);
	check(over == 0, what);
	over = -1;
	for (int r = 0; r < 3 && over; r++)
		over = round_arc4random(sys, &mean, &max);
	snprintf(what, sizeof(what),
		 "%d arc4random() calls make no system call (mean %llu, max %llu ticks; %d at "
		 "getrandom(2)'s cost)",
		 CALLS, (unsigned long long)mean, (unsigned long long)max, over);
	check(over == 0, what);
	return summary("lx_vgr_glibc");
}
