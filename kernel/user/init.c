/* init (pid 1): asks the kernel for the job the command line names. */
#include "kernel/user/lib/ulib.h"

int main(int argc, char **argv)
{
	long rc;

	(void)argc;
	(void)argv;
	rc = syscall0(__NR_aslrbench_job);
	if (rc == 1) { /* mode=shell: run the shell, power off when it ends */
		int status;
		long pid = spawn("sh", 0);

		if (pid > 0)
			wait4((int)pid, &status, 0, 0);
		else
			printf("init: cannot start sh (%ld)\n", pid);
		syscall6(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
			 LINUX_REBOOT_CMD_POWER_OFF, 0, 0, 0);
	}
	printf("init: the job returned %ld\n", rc);
	return 1;
}
