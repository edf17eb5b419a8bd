/*
 * What the project's programs (kernel/user/, built with musl) share: musl's
 * headers, the kernel's own system calls through syscall(2) with the
 * numbers of kernel/uapi/aslrbench.h, and three small time helpers.  Not a
 * libc: every other call is musl's (-1 and errno on failure).
 */
#ifndef KERNEL_USER_ASLRBENCH_USER_H
#define KERNEL_USER_ASLRBENCH_USER_H

/*
 * First: the uapi header defines Linux's numbers too (O_*, __NR_*, ...);
 * musl's system headers, included after it, redefine them with the same
 * values without a warning.
 */
#include "kernel/uapi/aslrbench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* spawn(2) of this kernel: a fresh process running the program at path. */
static inline long spawn(const char *path, char *const argv[])
{
	return syscall(__NR_spawn, path, argv);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts = {0, 0};

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline void sleep_ms(unsigned ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, 0);
}

/*
 * stdout line-buffered even when it is not a terminal: each line is one
 * write(2), as the output of the hand-written libc these programs used was,
 * so the console and the logs interleave lines the same way, and no line is
 * lost or printed twice when a program forks or is killed.
 */
__attribute__((constructor)) static void aslrbench_stdio_init(void)
{
	setvbuf(stdout, 0, _IOLBF, 0);
}

#endif
