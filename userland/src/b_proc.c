/*
 * Times process operations from ring 3, as a user (or lmbench's lat_proc)
 * would see them:  b_proc cpuid|lfence ENSEMBLES SAMPLES fork|spawn
 *   fork   fork(); the child exits at once; wait4
 *   spawn  spawn("/bin/t_nop"); wait4
 * with the serialised TSC reads of common/tsc.h around each, plus as many
 * empty measurements (the floor).  Raw samples go to the kernel.
 */
#include "common/tsc.h"
#include "userland/lib/aslrbench_user.h"

#define MAX_N 4096

static uint32_t floor_s[MAX_N], timed[MAX_N];

static uint64_t t_start(int lfence)
{
	return lfence ? tsc_start_lfence() : tsc_start_cpuid();
}

static uint64_t t_stop(int lfence)
{
	return lfence ? tsc_stop_lfence() : tsc_stop_cpuid();
}

static long once(int spawn_it)
{
	int status;
	long pid = spawn_it ? spawn("/bin/t_nop", 0) : sys(__NR_fork);

	if (pid == 0)
		exit(0);
	if (pid < 0)
		return pid;
	return sys(__NR_wait4, (int)pid, &status, 0, 0) == pid && status == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int lfence, spawn_it;
	long e, s, n;

	if (argc != 5) {
		printf("usage: b_proc cpuid|lfence ENSEMBLES SAMPLES fork|spawn\n");
		return 2;
	}
	lfence = !strcmp(argv[1], "lfence");
	e = atol(argv[2]);
	s = atol(argv[3]);
	n = e * s;
	spawn_it = !strcmp(argv[4], "spawn");
	if (e <= 0 || s <= 0 || n > MAX_N)
		return 2;
	for (long i = 0; i < 3; i++) /* warm-up: page tables, caches */
		if (once(spawn_it))
			return 1;
	for (long i = 0; i < n; i++) {
		uint64_t t0 = t_start(lfence), t1 = t_stop(lfence);

		floor_s[i] = (uint32_t)(t1 - t0);
	}
	for (long i = 0; i < n; i++) {
		uint64_t t0 = t_start(lfence);

		if (once(spawn_it))
			return 1;
		uint64_t t1 = t_stop(lfence);

		timed[i] = t1 - t0 > 0xffffffffULL ? 0xffffffffu : (uint32_t)(t1 - t0);
	}
	if (sys(__NR_bench_submit, 0, floor_s, n) || sys(__NR_bench_submit, 1, timed, n))
		return 1;
	return 0;
}
