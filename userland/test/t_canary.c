/* Asks the kernel to overflow a stack buffer on its behalf (mode=test only). */
#include "userland/lib/aslrbench_user.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	syscall(__NR_aslrbench_test, ASLRBENCH_TEST_SMASH_STACK);
	printf("t_canary: FAIL: the overflow went unnoticed\n");
	return 1;
}
