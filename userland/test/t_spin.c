/*
 * Spins in user mode until killed, without a system call, so the CPU that
 * runs it stays in ring 3 (the SMP tests look for it there).  With
 * "thread", a second thread of the same process spins too.  With
 * "getrandom", it calls getrandom(2) for 16 bytes in a loop instead.
 */
#include <pthread.h>
#include <string.h>

#include "userland/lib/aslrbench_user.h"

static volatile unsigned long counter[2];

static void *spin(void *arg)
{
	volatile unsigned long *c = arg;

	for (;;)
		(*c)++;
	return 0;
}

static void getrandom_loop(void)
{
	unsigned char buf[16];

	for (;;)
		aslrbench_sys3(SYS_getrandom, buf, sizeof(buf), 0);
}

int main(int argc, char **argv)
{
	pthread_t th;

	if (argc > 1 && !strcmp(argv[1], "getrandom"))
		getrandom_loop();
	if (argc > 1 && !strcmp(argv[1], "thread") &&
	    pthread_create(&th, 0, spin, (void *)&counter[1])) {
		printf("t_spin: FAIL: pthread_create\n");
		return 1;
	}
	spin((void *)&counter[0]);
	return 0;
}
