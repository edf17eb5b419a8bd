/*
 * The ring-3 half of mode=bench suite=scale, one per CPU, pinned by the
 * suite, until killed:
 *   b_scale        draws from the variant the suite measures, 64 values a
 *                  call (rng_draw); the suite counts the draws per CPU
 *   b_scale fork   forks a child that exits at once, and waits for it
 *   b_scale exec   forks a child that execs t_nop, and waits for it
 * Until every one has started, rng_draw says EAGAIN and they wait; fork
 * and exec draw once to learn that the run has begun (the suite counts
 * their forks from the kernel's total).
 */
#include <string.h>

#include "userland/lib/aslrbench_user.h"

static long draw(uint32_t *v, long n)
{
	long r;

	while ((r = sys(__NR_rng_draw, n, v)) == -EAGAIN) /* the suite is starting the others */
		sleep_ms(1);
	return r;
}

static int fork_loop(int exec)
{
	char *argv[] = {"t_nop", 0}, *envp[] = {0};
	int status;

	for (;;) {
		long pid = sys(__NR_fork);

		if (pid == 0) {
			if (exec)
				sys(__NR_execve, "/bin/t_nop", argv, envp);
			_exit(exec ? 1 : 0);
		}
		if (pid < 0 || sys(__NR_wait4, (int)pid, &status, 0, 0) != pid || status)
			return 1;
	}
}

int main(int argc, char **argv)
{
	uint32_t v[64];

	if (argc > 1 && strcmp(argv[1], "fork") && strcmp(argv[1], "exec")) {
		printf("b_scale: usage: b_scale [fork|exec]\n");
		return 2;
	}
	if (argc > 1)
		return draw(v, 1) == 1 ? fork_loop(!strcmp(argv[1], "exec")) : 1;
	while (draw(v, 64) == 64)
		;
	return 1;
}
