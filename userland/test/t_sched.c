/*
 * Preemption: a child spins in user mode for a second; the parent, which
 * only sleeps briefly, must get the CPU back long before the spinner ends.
 */
#include "userland/lib/aslrbench_user.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	int status;
	long pid = fork(), early;

	if (pid == 0) {
		uint64_t end = now_ns() + 1000000000ULL;

		while (now_ns() < end)
			;
		_exit(0);
	}
	if (pid < 0) {
		printf("t_sched: FAIL: fork %ld\n", (long)-errno);
		return 1;
	}
	for (int i = 0; i < 5; i++)
		sleep_ms(10);
	early = waitpid((pid_t)pid, &status, WNOHANG);
	waitpid((pid_t)pid, &status, 0);
	if (early != 0) {
		printf("t_sched: FAIL: the spinner finished before the sleeper ran again\n");
		return 1;
	}
	return 0;
}
