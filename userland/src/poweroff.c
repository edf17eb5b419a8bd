/*
 * poweroff: ends the run at once with reboot(2) LINUX_REBOOT_CMD_POWER_OFF
 * (root: CAP_SYS_BOOT, EPERM otherwise, as Linux).  Not busybox's poweroff,
 * which asks init with SIGUSR2 and leaves the work to busybox init; the
 * project's init only reaps.
 */
#include "userland/lib/cmd.h"

int main(int argc, char **argv)
{
	long rc;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "poweroff: usage: poweroff\n");
		return 2;
	}
	sync();
	rc = cmd_err(syscall(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
			     LINUX_REBOOT_CMD_POWER_OFF, 0));
	fprintf(stderr, "poweroff: %s\n", strerror((int)-rc));
	return 1;
}
