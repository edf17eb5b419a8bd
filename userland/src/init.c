/*
 * init (pid 1): asks the kernel for the job the command line names.
 *
 * In mode=shell it runs busybox's sh (/bin/sh) and, as a real init does, reaps every
 * child it is given: the shell and the orphans reparented to it, which
 * would otherwise stay zombies holding a task slot and a kernel stack.
 *
 * `init reap PROG [ARG...]` (the orphan_reap test) runs the same loop as a
 * child subreaper (prctl PR_SET_CHILD_SUBREAPER, Linux 3.4) so the kernel
 * hands it PROG's orphans; it exits with the number of other children it
 * reaped.
 */
#include "userland/lib/aslrbench_user.h"

/* Waits for any child until `pid` itself is reaped; the number of others reaped. */
static long reap_until(long pid)
{
	long got, others = 0;
	int status;

	while ((got = waitpid(-1, &status, 0)) > 0 && got != pid)
		others++;
	/* Whatever is already dead when the program ends goes too. */
	while (waitpid(-1, &status, WNOHANG) > 0)
		others++;
	return others;
}

int main(int argc, char **argv)
{
	long rc;

	if (argc >= 3 && !strcmp(argv[1], "reap")) {
		long pid;

		syscall(__NR_prctl, PR_SET_CHILD_SUBREAPER, 1);
		pid = spawn(argv[2], argv + 2);
		if (pid < 0) {
			printf("init: cannot start %s (%ld)\n", argv[2], pid);
			return 255;
		}
		return (int)reap_until(pid);
	}
	rc = syscall(__NR_aslrbench_job);
	if (rc < 0)
		rc = -errno; /* printed as the kernel returned it */
	if (rc == 1) {	     /* mode=shell: run the shell, power off when it ends */
		/*
		 * busybox's ash as a login shell (-sh reads /etc/profile).  As
		 * sysvinit and busybox init do, init first leads a session and
		 * process group of its own (Linux's pid 1 starts in 0's): the
		 * console's foreground group (1) is then the shell's, which
		 * ash's job control checks before it takes the terminal.
		 */
		char *sh_argv[] = {"-sh", 0};
		long pid;

		setsid();
		pid = spawn("/bin/sh", sh_argv);
		if (pid > 0)
			reap_until(pid);
		else
			printf("init: cannot start /bin/sh (%ld)\n", pid);
		syscall(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
			LINUX_REBOOT_CMD_POWER_OFF);
	}
	printf("init: the job returned %ld\n", rc);
	return 1;
}
