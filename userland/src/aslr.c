/*
 * aslr [N]: the kernel's ASLR entropy suite (root), N spawns per variant
 * and profile (0 or none: the suite's default), __NR_aslrbench_lab
 * LAB_OP_ASLR_SUITE; the `aslr` records go to the console.
 */
#include <stdlib.h>

#include "userland/lib/cmd.h"

int main(int argc, char **argv)
{
	long n = 0, rc;
	char *end;

	if (argc > 2) {
		fprintf(stderr, "aslr: usage: aslr [N]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		n = strtol(argv[1], &end, 10);
		if (errno || *end || !argv[1][0] || n < 0) {
			fprintf(stderr, "aslr: %s: not a number of spawns\n", argv[1]);
			return 2;
		}
	}
	rc = cmd_err(syscall(__NR_aslrbench_lab, LAB_OP_ASLR_SUITE, n));
	if (rc) {
		fprintf(stderr, "aslr: %s\n", strerror((int)-rc));
		return 1;
	}
	return 0;
}
