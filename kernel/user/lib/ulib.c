/* The built-in shell's C library (see ulib.h). */
#include "kernel/user/lib/ulib.h"

/*
 * One syscall instruction for the whole program (never inlined): every task
 * asleep in the kernel then shows the same user RIP, as a libc's syscall
 * stub does.
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

void exit(int code)
{
	for (;;)
		syscall1(__NR_exit, code);
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
