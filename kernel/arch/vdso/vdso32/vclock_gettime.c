/*
 * The IA-32 vDSO's clock functions (Linux 6.6's vdso32/vclock_gettime.c
 * with lib/vdso/gettimeofday.c), built with gcc -m32 from the same [vvar]
 * page and formula as the 64-bit vDSO (kernel/uapi/vvar.h): a time read
 * here and one read by a system call never disagree in order.  32-bit
 * structures: old_timespec32, an old_timeval32, a 32-bit time_t;
 * clock_gettime64 fills a __kernel_timespec.  A clock not served here falls
 * back to the system call through __kernel_vsyscall, as 6.6's
 * *_fallback do, and so returns -errno.
 *
 * No libgcc: the one 64-bit division (by NSEC_PER_SEC) is two divl.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/uapi/time_types.h"
#include "kernel/arch/vdso/vdso_common.h"
#include "kernel/uapi/vvar.h"

#define CLOCK_REALTIME	0
#define CLOCK_MONOTONIC 1
#define NSEC_PER_SEC	1000000000U

/* i386 numbers (arch/x86/entry/syscalls/syscall_32.tbl) */
#define __NR_gettimeofday    78
#define __NR_clock_gettime   265
#define __NR_clock_getres    266
#define __NR_clock_gettime64 403

struct old_timespec32 {
	int32_t tv_sec, tv_nsec;
};

struct old_timeval32 {
	int32_t tv_sec, tv_usec;
};

struct timezone_v {
	int tz_minuteswest, tz_dsttime;
};

void __kernel_vsyscall(void) __attribute__((visibility("hidden")));

/* ns / NSEC_PER_SEC and its remainder: a 64-by-32 division as two divl. */
static inline uint64_t div_ns(uint64_t ns, uint32_t *rem)
{
	uint32_t hi = (uint32_t)(ns >> 32), lo = (uint32_t)ns, qhi, qlo, r;

	qhi = hi / NSEC_PER_SEC;
	r = hi % NSEC_PER_SEC;
	__asm__("divl %4" : "=a"(qlo), "=d"(r) : "0"(lo), "1"(r), "rm"(NSEC_PER_SEC));
	*rem = r;
	return ((uint64_t)qhi << 32) | qlo;
}

/* The system call, through __kernel_vsyscall; ebx is saved by hand (it may be the PIC register). */
static long vdso32_syscall2(long nr, long a0, long a1)
{
	long ret;

	__asm__ volatile("push %%ebx\n\t"
			 "mov %2, %%ebx\n\t"
			 "call __kernel_vsyscall\n\t"
			 "pop %%ebx"
			 : "=a"(ret)
			 : "0"(nr), "g"(a0), "c"(a1)
			 : "memory", "edx");
	return ret;
}

int __vdso_clock_gettime(int clock, struct old_timespec32 *ts)
{
	uint32_t rem;
	uint64_t s;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return (int)vdso32_syscall2(__NR_clock_gettime, clock, (long)ts);
	s = div_ns(vread_ns(), &rem);
	ts->tv_sec = (int32_t)s;
	ts->tv_nsec = (int32_t)rem;
	return 0;
}

int __vdso_clock_gettime64(int clock, struct __kernel_timespec *ts)
{
	uint32_t rem;
	uint64_t s;

	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return (int)vdso32_syscall2(__NR_clock_gettime64, clock, (long)ts);
	s = div_ns(vread_ns(), &rem);
	ts->tv_sec = (int64_t)s;
	ts->tv_nsec = rem;
	return 0;
}

int __vdso_gettimeofday(struct old_timeval32 *tv, struct timezone_v *tz)
{
	uint32_t rem;
	uint64_t s;

	if (!tv) /* only the zone asked, or nothing: the system call answers */
		return (int)vdso32_syscall2(__NR_gettimeofday, (long)tv, (long)tz);
	s = div_ns(vread_ns(), &rem);
	tv->tv_sec = (int32_t)s;
	tv->tv_usec = (int32_t)(rem / 1000);
	if (tz) { /* sys_tz: never set on this kernel */
		tz->tz_minuteswest = 0;
		tz->tz_dsttime = 0;
	}
	return 0;
}

int32_t __vdso_time(int32_t *t)
{
	uint32_t rem;
	int32_t s = (int32_t)div_ns(vread_ns(), &rem);

	if (t)
		*t = s;
	return s;
}

/*
 * The resolution of the clocks read here: 1 ns, hrtimer_resolution with
 * high-resolution timers, what clock_getres (266) says; others: the call.
 */
int __vdso_clock_getres(int clock, struct old_timespec32 *res)
{
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return (int)vdso32_syscall2(__NR_clock_getres, clock, (long)res);
	if (res) {
		res->tv_sec = 0;
		res->tv_nsec = 1;
	}
	return 0;
}

long __vdso_getcpu(unsigned *cpu, unsigned *node, void *unused)
{
	(void)unused;
	vdso_read_cpunode(cpu, node);
	return 0;
}
