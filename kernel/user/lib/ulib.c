/* The user programs' C library (see ulib.h). */
#include "kernel/user/lib/ulib.h"

/*
 * One syscall instruction for the whole program (never inlined): every task
 * asleep in the kernel then shows the same user RIP, as a libc's syscall
 * stub does, which is what the attack lab's proc-leak strategy relies on.
 */
__attribute__((noinline)) long syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

long write(int fd, const void *buf, size_t n)
{
	return syscall3(__NR_write, fd, buf, n);
}

long read(int fd, void *buf, size_t n)
{
	return syscall3(__NR_read, fd, buf, n);
}

long open(const char *path, int flags)
{
	return syscall2(__NR_open, path, flags);
}

long close(int fd)
{
	return syscall1(__NR_close, fd);
}

long fork(void)
{
	return syscall0(__NR_fork);
}

long spawn(const char *name, char *const argv[])
{
	return syscall2(__NR_spawn, name, argv);
}

long wait4(int pid, int *status, int options, void *rusage)
{
	return syscall6(__NR_wait4, pid, (long)status, options, (long)rusage, 0, 0);
}

long getpid(void)
{
	return syscall0(__NR_getpid);
}

long getppid(void)
{
	return syscall0(__NR_getppid);
}

long sched_yield(void)
{
	return syscall0(__NR_sched_yield);
}

long nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall2(__NR_nanosleep, req, rem);
}

long getrandom(void *buf, size_t n, unsigned flags)
{
	return syscall3(__NR_getrandom, buf, n, flags);
}

void *brk(void *addr)
{
	return (void *)syscall1(__NR_brk, addr);
}

long mmap_anon(size_t len, int prot)
{
	return syscall6(__NR_mmap, 0, (long)len, prot, 0x22, -1, 0);
}

long munmap(void *addr, size_t len)
{
	return syscall2(__NR_munmap, addr, len);
}

uint64_t now_ns(void)
{
	struct timespec ts = {0, 0};

	syscall2(__NR_clock_gettime, 1, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (int64_t)(ms % 1000) * 1000000};

	nanosleep(&ts, 0);
}

void exit(int code)
{
	for (;;)
		syscall1(__NR_exit, code);
}

long read_file(const char *path, char *buf, long cap)
{
	long fd = open(path, 0), n, total = 0;

	if (fd < 0)
		return fd;
	while (total < cap - 1 && (n = read((int)fd, buf + total, (size_t)(cap - 1 - total))) > 0)
		total += n;
	close((int)fd);
	buf[total] = '\0';
	return total;
}

long atol(const char *s)
{
	long v = 0, sign = 1;

	if (*s == '-') {
		sign = -1;
		s++;
	}
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v * sign;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write(1, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	return n;
}

void __libc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	exit(main(argc, argv));
}
