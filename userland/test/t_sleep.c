/*
 * Sleeps for argv[1] milliseconds (default 200, at most 10 s), then exits 0.
 * The cap: the fuzzer execs this with whatever bytes its scratch holds as
 * argv[1], and a run of digits there once slept a child for 11 days (the
 * 10^6 s nanosleep clamp), which the fuzz watchdog took for a kernel hang.
 */
#include "userland/lib/aslrbench_user.h"

#define MAX_MS 10000

int main(int argc, char **argv)
{
	unsigned long ms = argc > 1 ? (unsigned long)atol(argv[1]) : 200;

	sleep_ms(ms > MAX_MS ? MAX_MS : (unsigned)ms);
	return 0;
}
