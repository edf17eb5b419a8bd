/*
 * What the project's programs (userland/, built with musl) share: musl's
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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * A system call as the kernel returns it: the value, or -errno on failure
 * (musl's syscall(2) returns -1 and sets errno).  The test programs compare
 * the kernel's answers with Linux's -E values, so they make the calls they
 * test through sys() rather than through libc wrappers that may pick
 * another system call (musl's stat is fstatat, its nanosleep
 * clock_nanosleep on some configurations) or check arguments themselves.
 * All of them go through the one syscall instruction of musl's syscall(),
 * so every task asleep in a sys() shows the same user RIP in
 * /proc/PID/stat, which the attack lab's proc-leak strategy relies on.
 */
static inline long aslrbench_sysret(long r)
{
	return r == -1 ? -errno : r;
}
/*
 * syscall(2) is variadic: every argument is made a long here, as a
 * prototype would, so an int -1 reaches the kernel as -1, not 0xffffffff.
 */
#define sys(...)				      ASLRBENCH_SYS_N(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)(__VA_ARGS__)
#define ASLRBENCH_SYS_N(nr, a, b, c, d, e, f, n, ...) aslrbench_sys##n
#define aslrbench_sys0(nr)			      aslrbench_sysret(syscall(nr))
#define aslrbench_sys1(nr, a)			      aslrbench_sysret(syscall(nr, (long)(a)))
#define aslrbench_sys2(nr, a, b)		      aslrbench_sysret(syscall(nr, (long)(a), (long)(b)))
#define aslrbench_sys3(nr, a, b, c)		      aslrbench_sysret(syscall(nr, (long)(a), (long)(b), (long)(c)))
#define aslrbench_sys4(nr, a, b, c, d)                                                             \
	aslrbench_sysret(syscall(nr, (long)(a), (long)(b), (long)(c), (long)(d)))
#define aslrbench_sys5(nr, a, b, c, d, e)                                                          \
	aslrbench_sysret(syscall(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e)))
#define aslrbench_sys6(nr, a, b, c, d, e, f)                                                       \
	aslrbench_sysret(                                                                          \
		syscall(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f)))

/* spawn(2) of this kernel: a fresh process running the program at path; the pid or -errno. */
static inline long spawn(const char *path, char *const argv[])
{
	return sys(__NR_spawn, path, argv);
}

/* A whole (small) file into buf, NUL-terminated; its length or -errno. */
static inline long read_file(const char *path, char *buf, long cap)
{
	long fd = sys(__NR_open, path, O_RDONLY), n, total = 0;

	if (fd < 0)
		return fd;
	while (total < cap - 1 && (n = sys(__NR_read, fd, buf + total, cap - 1 - total)) > 0)
		total += n;
	sys(__NR_close, fd);
	buf[total] = '\0';
	return total;
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
