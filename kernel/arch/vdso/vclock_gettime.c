/*
 * The vDSO: a real ELF shared object mapped into every process (read and
 * execute, the same physical page for all), announced by AT_SYSINFO_EHDR.
 * libc finds these functions by name and version (LINUX_2.6) and calls them
 * instead of the system call, as on Linux (arch/x86/vdso/vclock_gettime.c
 * and vgetcpu.c of 2.6.29).
 *
 * Ring-3 code, built -fPIC -nostdlib -shared with vdso.lds: no libc, no
 * relocations, no writable data.  The time comes from the [vvar] page the
 * kernel maps right after this object (kernel/uapi/vvar.h): the same TSC
 * formula the kernel's clock_gettime, gettimeofday and time use.  A clock
 * this file does not serve falls back to the real system call, as 2.6.29's
 * vdso_fallback_gettime does, and so returns -errno.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/uapi/aslrbench.h" /* the fallbacks' numbers */
#include "kernel/uapi/time_types.h"
#include "kernel/arch/vdso/vdso_common.h"
#include "kernel/uapi/vvar.h"

#define CLOCK_REALTIME	0
#define CLOCK_MONOTONIC 1
#define NSEC_PER_SEC	1000000000ULL

struct timezone_v {
	int tz_minuteswest, tz_dsttime;
};

static long vdso_syscall2(long nr, long a0, long a1)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a0), "S"(a1)
			 : "rcx", "r11", "memory");
	return ret;
}

int __vdso_clock_gettime(int clock, struct __kernel_timespec *ts)
{
	uint64_t ns;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return (int)vdso_syscall2(__NR_clock_gettime, clock, (long)ts);
	ns = vread_ns();
	ts->tv_sec = (int64_t)(ns / NSEC_PER_SEC);
	ts->tv_nsec = (int64_t)(ns % NSEC_PER_SEC);
	return 0;
}
int clock_gettime(int clock, struct __kernel_timespec *ts)
	__attribute__((weak, alias("__vdso_clock_gettime")));

int __vdso_gettimeofday(struct __kernel_old_timeval *tv, struct timezone_v *tz)
{
	uint64_t ns;

	if (!tv) /* only the zone asked, or nothing: the system call answers */
		return (int)vdso_syscall2(__NR_gettimeofday, (long)tv, (long)tz);
	ns = vread_ns();
	tv->tv_sec = (int64_t)(ns / NSEC_PER_SEC);
	tv->tv_usec = (int64_t)(ns % NSEC_PER_SEC / 1000);
	if (tz) { /* sys_tz: never set on this kernel */
		tz->tz_minuteswest = 0;
		tz->tz_dsttime = 0;
	}
	return 0;
}
int gettimeofday(struct __kernel_old_timeval *tv, struct timezone_v *tz)
	__attribute__((weak, alias("__vdso_gettimeofday")));

int64_t __vdso_time(int64_t *t)
{
	int64_t s = (int64_t)(vread_ns() / NSEC_PER_SEC);

	if (t)
		*t = s;
	return s;
}
int64_t time(int64_t *t) __attribute__((weak, alias("__vdso_time")));

/* getcpu without a system call (vdso_common.h) */
long __vdso_getcpu(unsigned *cpu, unsigned *node, void *unused)
{
	(void)unused;
	vdso_read_cpunode(cpu, node);
	return 0;
}
long getcpu(unsigned *cpu, unsigned *node, void *unused)
	__attribute__((weak, alias("__vdso_getcpu")));
