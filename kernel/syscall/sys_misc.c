/* sched_yield, nanosleep, clock_gettime, gettimeofday, time and getrandom. */
#include "kernel/arch/timer.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/lib/compiler.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/char/random.h"
#include "kernel/lib/string.h"
#include "rng/util.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/time_types.h"

#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#define GRND_INSECURE 4

long sys_sched_yield(const struct syscall_args *a)
{
	(void)a;
	schedule();
	return 0;
}

/*
 * Named as Linux's, so /proc/<pid>/wchan shows what a sleeper waits in.
 * Its own field is the channel: no wake_up() ends it early, a signal does.
 */
uint64_t do_nanosleep(uint64_t deadline_ns)
{
	while (!deadline_passed(deadline_ns)) {
		uint64_t now = ktime_get_ns();

		if (signal_pending(current))
			return deadline_ns > now ? deadline_ns - now : 1;
		sleep_on_interruptible(&current->sleep_until, jiffies_for_deadline(deadline_ns),
				       (const void *)do_nanosleep);
	}
	return 0;
}

/*
 * A sleep a signal ended: the time left goes to *rem (if given), and the
 * call returns -ERESTARTNOHAND, which a handler turns into EINTR as Linux's
 * -ERESTART_RESTARTBLOCK (nanosleep is never restarted after a handler).
 * Linux restarts with the time left when no handler runs; here a signal
 * without a handler kills or was dropped when sent, so that case does not
 * arise (see signal_deliver.c).
 */
long nanosleep_interrupted(uint64_t left_ns, uint64_t urem)
{
	struct __kernel_timespec rem = {(int64_t)(left_ns / NSEC_PER_SEC),
					(int64_t)(left_ns % NSEC_PER_SEC)};

	if (urem && copy_to_user(urem, &rem, sizeof(rem)))
		return -EFAULT;
	return -ERESTARTNOHAND;
}

/* i386's old_timespec32 and old_timeval32 (include/vdso/time32.h): 32-bit fields. */
struct old_timespec32 {
	int32_t tv_sec, tv_nsec;
};

static int get_timespec(uint64_t uts, bool ia32, struct __kernel_timespec *ts)
{
	struct old_timespec32 t;

	if (!ia32)
		return copy_from_user(ts, uts, sizeof(*ts));
	if (copy_from_user(&t, uts, sizeof(t)))
		return -EFAULT;
	ts->tv_sec = t.tv_sec;
	ts->tv_nsec = t.tv_nsec;
	return 0;
}

static int put_timespec(uint64_t uts, bool ia32, uint64_t ns, uint64_t div)
{
	struct __kernel_timespec ts = {(int64_t)(ns / NSEC_PER_SEC),
				       (int64_t)(ns % NSEC_PER_SEC / div)};
	struct old_timespec32 t = {(int32_t)ts.tv_sec, (int32_t)ts.tv_nsec};

	return ia32 ? copy_to_user(uts, &t, sizeof(t)) : copy_to_user(uts, &ts, sizeof(ts));
}

/* Linux's hrtimer_nanosleep: a deadline on CLOCK_MONOTONIC, not a count of ticks. */
static long do_nanosleep_call(const struct syscall_args *a, bool ia32)
{
	struct __kernel_timespec ts;
	uint64_t ns, left;

	if (get_timespec(a->a0, ia32, &ts))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (int64_t)NSEC_PER_SEC)
		return -EINVAL;
	if ((uint64_t)ts.tv_sec > 1000000)
		ts.tv_sec = 1000000; /* about 11 days: longer than any run */
	ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	if (!ns)
		return 0;
	left = do_nanosleep(ktime_get_ns() + ns);
	if (left && ia32)
		return a->a1 && put_timespec(a->a1, true, left, 1) ? -EFAULT : -ERESTARTNOHAND;
	return left ? nanosleep_interrupted(left, a->a1) : 0;
}

long sys_nanosleep(const struct syscall_args *a)
{
	return do_nanosleep_call(a, false);
}

/* nanosleep_time32 (6.6 linux/kernel/time/hrtimer.c): old_timespec32 in and out. */
long sys_nanosleep_time32(const struct syscall_args *a)
{
	return do_nanosleep_call(a, true);
}

/* clock_gettime32 (6.6 linux/kernel/time/posix-timers.c): the time in an old_timespec32. */
long sys_clock_gettime32(const struct syscall_args *a)
{
	if (a->a0 > 1)
		return -EINVAL;
	return put_timespec(a->a1, true, ktime_get_ns(), 1) ? -EFAULT : 0;
}

/* compat_sys_gettimeofday (6.6 linux/kernel/time/time.c): an old_timeval32; the zone as native. */
long compat_sys_gettimeofday(const struct syscall_args *a)
{
	int tz[2] = {0, 0};

	if (a->a0 && put_timespec(a->a0, true, ktime_get_ns(), 1000))
		return -EFAULT;
	if (a->a1 && copy_to_user(a->a1, tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

/* time32 (6.6 linux/kernel/time/time.c): an old_time32_t, 32 bits, stored and returned. */
long sys_time32(const struct syscall_args *a)
{
	int32_t s = (int32_t)(ktime_get_ns() / NSEC_PER_SEC);

	if (a->a0 && copy_to_user(a->a0, &s, sizeof(s)))
		return -EFAULT;
	return s;
}

/*
 * The CPU-time clocks (Linux's posix-cpu-timers.c): CLOCK_PROCESS_CPUTIME_ID
 * and CLOCK_THREAD_CPUTIME_ID, and the ids clock_getcpuclockid and
 * pthread_getcpuclockid make, ~pid << 3 | per-thread (4) | PROF, VIRT or
 * SCHED.  A thread's clock is readable within its own group, a process's by
 * anyone (pid_for_clock).  This kernel counts CPU time in ticks (the tick
 * charges the task it interrupts), so these clocks advance a tick at a time.
 */
#define CPUCLOCK_PERTHREAD 4
#define CPUCLOCK_VIRT	   1
#define CPUCLOCK_SCHED	   2
#define CPUCLOCK_MAX	   3

static int64_t cpu_clock_id(int64_t clk)
{
	if (clk == 2)			    /* CLOCK_PROCESS_CPUTIME_ID */
		return -8 | CPUCLOCK_SCHED; /* MAKE_PROCESS_CPUCLOCK(0, SCHED): ~0 << 3 */
	if (clk == 3)			    /* CLOCK_THREAD_CPUTIME_ID */
		return -8 | CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED;
	return clk;
}

/* The task whose time clock clk reads, as pid_for_clock; NULL: EINVAL. */
static struct task_struct *cpu_clock_task(int64_t clk)
{
	int pid = (int)~(clk >> 3);
	bool thread = clk & CPUCLOCK_PERTHREAD;
	struct task_struct *t;

	if ((clk & 3) >= CPUCLOCK_MAX)
		return 0;
	if (pid == 0)
		return thread ? current : current->group_leader;
	t = find_task_by_pid(pid);
	if (!t)
		return 0;
	if (thread)
		return same_thread_group(t, current) ? t : 0;
	if (t == current)
		return t->group_leader;
	return thread_group_leader(t) ? t : 0;
}

/* CLOCK_REALTIME and CLOCK_MONOTONIC (both from boot here), or a CPU-time clock; -EINVAL. */
static int clock_read_ns(int64_t clk, uint64_t *ns)
{
	struct task_struct *t;
	uint64_t ut, st;

	if (clk == 0 || clk == 1) {
		*ns = ktime_get_ns();
		return 0;
	}
	clk = cpu_clock_id(clk);
	if (clk >= 0 || !(t = cpu_clock_task(clk)))
		return -EINVAL;
	if (clk & CPUCLOCK_PERTHREAD) {
		ut = READ_ONCE(t->utime); /* its CPU's tick writes them lockless */
		st = READ_ONCE(t->stime);
	} else {
		thread_group_cputime(t, &ut, &st);
	}
	*ns = ((clk & 3) == CPUCLOCK_VIRT ? ut : ut + st) * NSEC_PER_SEC / timer_hz();
	return 0;
}

/*
 * CLOCK_REALTIME (0) and CLOCK_MONOTONIC (1) both count from boot here.
 * These three calls and the vDSO's functions read one clock, ktime_get_ns
 * (kernel/arch/tsc.c): a vDSO time read between two system calls lies
 * between their results.  The vDSO hands every other clock to this call.
 */
long sys_clock_gettime(const struct syscall_args *a)
{
	int64_t clk = (int64_t)(int32_t)a->a0;
	uint64_t ns;
	struct __kernel_timespec ts;
	int rc;

	/* entered without the big lock (NONE in the table); the CPU-time clocks read other tasks */
	if (clk != 0 && clk != 1)
		syscall_lock_kernel();
	if ((rc = clock_read_ns(clk, &ns)))
		return rc;
	ts = (struct __kernel_timespec){(int64_t)(ns / NSEC_PER_SEC), (int64_t)(ns % NSEC_PER_SEC)};
	/* the copy takes the lock if it needs it (a page to populate, a bad pointer) */
	return syscall_copy_to_user(a->a1, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * clock_getres(clock, res), 6.6's posix_get_hrtimer_res: the clocks above
 * are read in nanoseconds (the TSC), so 1 ns, hrtimer_resolution with
 * high-resolution timers; NULL res only checks the clock.  The IA-32 vDSO's
 * __vdso_clock_getres gives the same.
 */
static long do_clock_getres(const struct syscall_args *a, bool ia32)
{
	int64_t clk = (int64_t)(int32_t)a->a0;
	uint64_t ns;

	if (clock_read_ns(clk, &ns))
		return -EINVAL;
	/* a CPU-time clock moves a tick at a time here (Linux's SCHED clocks say 1 ns) */
	ns = clk == 0 || clk == 1 ? 1 : (NSEC_PER_SEC + timer_hz() - 1) / timer_hz();
	return a->a1 && put_timespec(a->a1, ia32, ns, 1) ? -EFAULT : 0;
}

long sys_clock_getres(const struct syscall_args *a)
{
	return do_clock_getres(a, false);
}

/* clock_getres_time32 (6.6 linux/kernel/time/posix-timers.c): i386's 266, an old_timespec32. */
long sys_clock_getres_time32(const struct syscall_args *a)
{
	return do_clock_getres(a, true);
}

/* gettimeofday(tv, tz): either may be NULL; the zone is sys_tz, never set here: zero. */
long sys_gettimeofday(const struct syscall_args *a)
{
	uint64_t ns = ktime_get_ns();
	struct __kernel_timespec tv = {(int64_t)(ns / NSEC_PER_SEC),
				       (int64_t)(ns % NSEC_PER_SEC / 1000)};
	int tz[2] = {0, 0};

	if (a->a0 && copy_to_user(a->a0, &tv, sizeof(tv)))
		return -EFAULT;
	if (a->a1 && copy_to_user(a->a1, tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

/* time(tloc): the seconds, also stored at tloc when it is not NULL. */
long sys_time(const struct syscall_args *a)
{
	int64_t s = (int64_t)(ktime_get_ns() / NSEC_PER_SEC);

	if (a->a0 && copy_to_user(a->a0, &s, sizeof(s)))
		return -EFAULT;
	return s;
}

/* import_ubuf's cap on one read: MAX_RW_COUNT, INT_MAX & PAGE_MASK */
#define MAX_RW_COUNT	0x7ffff000UL
#define GETRANDOM_SMALL 256 /* a read drawn whole before it is copied */

/*
 * The bytes of a read of len <= GETRANDOM_SMALL, as 6.12 draws them: the
 * state's key words for len <= 32, else whole blocks (the last cut).
 */
static void getrandom_small(uint8_t *buf, uint64_t len)
{
	uint32_t state[16];

	getrandom_begin(state);
	if (len <= 32)
		memcpy(buf, &state[4], len);
	for (uint64_t off = 0; len > 32 && off < len; off += 64) {
		uint8_t block[64];

		getrandom_block(state, block);
		memcpy(buf + off, block, len - off < 64 ? len - off : 64);
		rng_memzero_explicit(block, sizeof(block));
	}
	getrandom_end(state);
}

/*
 * Linux 6.12's get_random_bytes_user for longer reads, under the lock:
 * block after block of one state, a copy that faults ends the read with
 * what was copied up to the faulting byte; a signal ends it at a page
 * boundary.  The blocks are copied four at a time: each copy looks up the
 * destination's page, which cost 150 instructions a block when done per
 * block (Linux's copy_to_iter costs less); 256 divides a page, so the
 * page boundaries where a signal is looked for are the same.
 */
#define GETRANDOM_CHUNK 256
static long getrandom_long(uint64_t ubuf, uint64_t len)
{
	uint32_t state[16];
	uint8_t block[GETRANDOM_CHUNK];
	uint64_t done = 0;

	getrandom_begin(state);
	while (done < len) {
		uint64_t n = len - done < sizeof(block) ? len - done : sizeof(block), left;

		for (uint64_t off = 0; off < n; off += 64)
			getrandom_block(state, block + off);
		left = copy_to_user_partial(ubuf + done, block, n);
		done += n - left;
		if (left || done == len)
			break;
		if (done % PAGE_SIZE == 0) {
			if (signal_pending(current))
				break;
			cond_resched();
		}
	}
	rng_memzero_explicit(block, sizeof(block));
	getrandom_end(state);
	return done ? (long)done : -EFAULT;
}

/*
 * getrandom always draws from the ChaCha20 CRNG, as Linux 5.18+ does; the
 * variant selected with rng= is what get_random_int() (ASLR, canaries)
 * uses, not what user space asks for.  Its keystream, cap, errors and
 * partial copies are Linux 6.12's.
 */
long sys_getrandom(const struct syscall_args *a)
{
	uint8_t buf[GETRANDOM_SMALL];
	uint64_t len = a->a1 > MAX_RW_COUNT ? MAX_RW_COUNT : a->a1, left;

	if (a->a2 & ~(uint64_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE) ||
	    ((a->a2 & GRND_RANDOM) && (a->a2 & GRND_INSECURE)))
		return -EINVAL;
	if (!access_ok(a->a0, len))
		return -EFAULT;
	if (!len)
		return 0;
	if (len > GETRANDOM_SMALL) {
		syscall_lock_kernel();
		return getrandom_long(a->a0, len);
	}
	/*
	 * Without the kernel lock (syscall.c): the bytes are drawn once, so a
	 * copy that needs the lock (a page to fault in) copies the same ones
	 * and the CRNG's output does not depend on which way the call went.
	 */
	getrandom_small(buf, len);
	if (kernel_locked() || copy_to_user_nofault(a->a0, buf, len)) {
		syscall_lock_kernel();
		left = copy_to_user_partial(a->a0, buf, len);
		len = left == len ? 0 : len - left;
	}
	rng_memzero_explicit(buf, sizeof(buf));
	return len ? (long)len : -EFAULT;
}
