/* Sleeps in the kernel until the running test releases it (mode=test only), then exits 0. */
#include "userland/lib/aslrbench_user.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return syscall(__NR_aslrbench_test, ASLRBENCH_TEST_PARK) == 0 ? 0 : 1;
}
