/*
 * lx_starve: processes pinned one per CPU meet at a barrier in shared
 * memory, waiting with sched_yield(), then each draws from getrandom(2)
 * in a loop.  Under Linux 6.12 every round ends in seconds at 1, 2 and 4
 * CPUs, under QEMU's deterministic clock too; a kernel lock that lets the
 * CPU that just released it take it again at once starves the others
 * (here: a yielder kept re-taking the big lock while a pinned peer spun
 * for it, so the barrier was never met).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define ROUNDS	 5
#define DRAWS	 2000
#define LIMIT_NS (60ull * 1000000000ull) /* a round that takes longer: starved */

static volatile unsigned *arrived;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void child(int cpu, unsigned k)
{
	cpu_set_t set;
	unsigned char buf[16];

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(2);
	__atomic_add_fetch(arrived, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(arrived, __ATOMIC_SEQ_CST) < k)
		sched_yield();
	for (int i = 0; i < DRAWS; i++)
		if (getrandom(buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
			_exit(3);
	_exit(0);
}

/* One round of k pinned children; 0 when all ended well within LIMIT_NS. */
static int round_of(unsigned k)
{
	pid_t pids[64];
	unsigned long long start = now_ns();
	unsigned left = k;
	int bad = 0;

	*arrived = 0;
	for (unsigned i = 0; i < k; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			child((int)i, k);
		if (pids[i] < 0)
			return -1;
	}
	while (left) {
		int st;
		pid_t p = waitpid(-1, &st, WNOHANG);

		if (p > 0) {
			left--;
			bad |= !WIFEXITED(st) || WEXITSTATUS(st);
			continue;
		}
		if (now_ns() - start > LIMIT_NS) {
			for (unsigned i = 0; i < k; i++)
				kill(pids[i], SIGKILL);
			while (wait(NULL) > 0)
				;
			return -1;
		}
		usleep(10000);
	}
	return bad ? -1 : 0;
}

int main(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char what[128];

	arrived = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (arrived == MAP_FAILED)
		return 2;
	for (unsigned k = 1; k <= 4; k *= 2) {
		int ok = 1;

		if (k > (unsigned long)ncpu)
			break;
		for (int r = 0; r < ROUNDS && ok; r++)
			ok = round_of(k) == 0;
		snprintf(what, sizeof(what),
			 "%u pinned processes meet at a sched_yield barrier and draw %d times, %d "
			 "rounds",
			 k, DRAWS, ROUNDS);
		check(ok, what);
	}
	return summary("lx_starve");
}
