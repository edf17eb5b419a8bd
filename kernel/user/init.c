/* init (pid 1): asks the kernel for the job the command line names. */
#include "kernel/user/lib/ulib.h"

int main(int argc, char **argv)
{
	long rc;

	(void)argc;
	(void)argv;
	rc = syscall0(__NR_aslrbench_job);
	printf("init: the job returned %ld\n", rc);
	return 1;
}
