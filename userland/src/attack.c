/*
 * attack [STRATEGY] [VARIANT]: one attack-lab cell (20 trials, with and
 * without the /proc fix) run by the kernel (__NR_aslrbench_lab
 * LAB_OP_RUN_CELL, root only); its records go to the console.  The default
 * strategy is proc-leak, the default variant the one selected now.
 */
#include <fcntl.h>

#include "userland/lib/cmd.h"

int main(int argc, char **argv)
{
	char cur[40] = "chacha20-batched";
	int fd = open("/proc/sys/kernel/rng_variant", O_RDONLY);
	long rc;

	if (argc > 3) {
		fprintf(stderr, "attack: usage: attack [STRATEGY] [VARIANT]\n");
		return 2;
	}
	if (fd >= 0) {
		ssize_t n = read(fd, cur, sizeof(cur) - 1);

		cur[n > 0 ? n - 1 : 0] = '\0';
		close(fd);
	}
	rc = cmd_err(syscall(__NR_aslrbench_lab, LAB_OP_RUN_CELL, argc > 1 ? argv[1] : "proc-leak",
			     argc > 2 ? argv[2] : cur));
	if (rc) {
		fprintf(stderr,
			"attack: %s (strategies: proc-leak pid-jiffies-collision state-replay "
			"brute-force)\n",
			strerror((int)-rc));
		return 1;
	}
	return 0;
}
