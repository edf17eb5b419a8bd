/* Sleeps for argv[1] milliseconds (default 200), then exits 0. */
#include "kernel/user/aslrbench_user.h"

int main(int argc, char **argv)
{
	sleep_ms(argc > 1 ? (unsigned)atol(argv[1]) : 200);
	return 0;
}
