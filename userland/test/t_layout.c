/*
 * t_layout: forks one child that sleeps 200 ms, so the kernel can compare
 * the parent's and the child's layouts (test aslr_fork_inherits: fork keeps
 * the parent's layout, only spawn re-randomises).  Exits 0 when the child did.
 */
#include "userland/lib/aslrbench_user.h"

int main(int argc, char **argv)
{
	int status = 0;
	long pid;

	(void)argc;
	(void)argv;
	pid = fork();
	if (pid < 0) {
		printf("t_layout: FAIL: fork (got %ld)\n", (long)-errno);
		return 1;
	}
	if (pid == 0) {
		sleep_ms(200);
		_exit(0);
	}
	if (waitpid((pid_t)pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 2;
	return 0;
}
