/*
 * The built-in shell's C library (kernel/user/sh.c, until branch userland
 * replaces it with busybox sh): only the calls sh makes.  Every other
 * program of kernel/user/ is built with musl (aslrbench_user.h); this
 * directory goes with sh.  Freestanding.
 */
#ifndef USER_ULIB_H
#define USER_ULIB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/string.h"	   /* the kernel's own string functions, shared */
#include "kernel/lib/vsprintf.h"   /* and its printf formatter */
#include "kernel/lib/errno.h"	   /* Linux's values, as the kernel returns them */
#include "kernel/uapi/aslrbench.h" /* system calls and their values */

long syscall6(long nr, long a, long b, long c, long d, long e, long f);
#define syscall0(n)	     syscall6(n, 0, 0, 0, 0, 0, 0)
#define syscall1(n, a)	     syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define syscall2(n, a, b)    syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define syscall3(n, a, b, c) syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* Thin wrappers: return the kernel's value, -errno on failure (no errno variable). */
long write(int fd, const void *buf, size_t n);
long read(int fd, void *buf, size_t n);
long open(const char *path, int flags);
long close(int fd);
long fork(void);
long spawn(const char *name, char *const argv[]);
long wait4(int pid, int *status, int options, void *rusage);
__attribute__((noreturn)) void exit(int code);

long atol(const char *s);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int main(int argc, char **argv);

#endif
