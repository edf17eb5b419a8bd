/*
 * run PROG [ARGS]: runs a program as a child and reports how it ended, as
 * the old built-in shell's `run` did.  PROG is resolved as execve resolves
 * it (no PATH search): a path in the file system, else a built-in program's
 * name (ours or a Linux one, e.g. busybox, lx_musl).
 */
#include <sys/wait.h>

#include "userland/lib/cmd.h"

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "run: usage: run PROGRAM [ARGS...]\n");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		extern char **environ;

		execve(argv[1], argv + 1, environ);
		printf("run: %s: %s\n", argv[1], strerror(errno));
		fflush(stdout);
		_exit(127);
	}
	if (pid < 0) {
		printf("run: fork: %s\n", strerror(errno));
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFSIGNALED(status))
		printf("run: %s killed by signal %d\n", argv[1], WTERMSIG(status));
	else if (WEXITSTATUS(status) && WEXITSTATUS(status) != 127)
		printf("run: %s exited %d\n", argv[1], WEXITSTATUS(status));
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
