/*
 * futex(2), get_robust_list(2) and an IA-32 task's set/get_robust_list, as
 * Linux 6.6's kernel/futex/syscalls.c: the timeout read and checked, the op
 * word decoded; the work is kernel/task/futex.c's (the lists' walk at exit
 * kernel/task/futex_exit.c's).  The native set_robust_list is in sys_linux.c.
 *
 * The PI operations (LOCK_PI, UNLOCK_PI, TRYLOCK_PI, WAIT_REQUEUE_PI,
 * CMP_REQUEUE_PI, LOCK_PI2) and FUTEX_FD (gone since 2.6.26) return ENOSYS:
 * glibc uses PI futexes only for PTHREAD_PRIO_INHERIT mutexes.
 */
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/security/ptrace.h"
#include "kernel/task/futex.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/time_types.h"

#define FUTEX_MAX_NS                                                                               \
	(1000000ULL * NSEC_PER_SEC) /* about 11 days: longer than any run, as nanosleep */

static bool futex_cmd_has_timeout(int cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_LOCK_PI || cmd == FUTEX_LOCK_PI2 ||
	       cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_WAIT_REQUEUE_PI;
}

/*
 * futex_init_timeout:
 * FUTEX_WAIT's timeout is relative, WAIT_BITSET's absolute on
 * CLOCK_MONOTONIC, or CLOCK_REALTIME with FUTEX_CLOCK_REALTIME (both count
 * from boot here, see sys_misc.c): a deadline on that clock, as Linux's
 * hrtimer (futex_setup_timer), not a count of ticks.
 */
static int futex_init_timeout(int cmd, uint64_t utime, bool time32, uint64_t *deadline)
{
	struct __kernel_timespec ts;
	int32_t ts32[2];
	uint64_t ns;

	/* futex_time32 (an IA-32 program's 240): an old_timespec32 */
	if (time32) {
		if (copy_from_user(ts32, utime, sizeof(ts32)))
			return -EFAULT;
		ts.tv_sec = ts32[0];
		ts.tv_nsec = ts32[1];
	} else if (copy_from_user(&ts, utime, sizeof(ts))) {
		return -EFAULT;
	}
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (int64_t)NSEC_PER_SEC)
		return -EINVAL; /* timespec64_valid */
	ns = (uint64_t)ts.tv_sec > FUTEX_MAX_NS / NSEC_PER_SEC
		     ? FUTEX_MAX_NS
		     : (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	if (cmd == FUTEX_WAIT) /* relative */
		ns += ktime_get_ns();
	*deadline = ns ? ns : 1; /* 0 would mean no timeout */
	return 0;
}

static long do_futex_call(const struct syscall_args *a, bool time32)
{
	uint64_t uaddr = a->a0, utime = a->a3, uaddr2 = a->a4, deadline = 0;
	int op = (int)a->a1, cmd = op & FUTEX_CMD_MASK;
	uint32_t val = (uint32_t)a->a2, val3 = (uint32_t)a->a5, val2 = (uint32_t)utime;
	unsigned flags = 0;

	if (utime && futex_cmd_has_timeout(cmd)) {
		int rc = futex_init_timeout(cmd, utime, time32, &deadline);

		if (rc)
			return rc;
	}
	/* do_futex */
	if (!(op & FUTEX_PRIVATE_FLAG))
		flags |= FLAGS_SHARED;
	if (op & FUTEX_CLOCK_REALTIME) {
		flags |= FLAGS_CLOCKRT;
		if (cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT_REQUEUE_PI &&
		    cmd != FUTEX_LOCK_PI2)
			return -ENOSYS;
	}
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		__attribute__((fallthrough));
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, flags, val, deadline, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		__attribute__((fallthrough));
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, flags, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, flags, uaddr2, (int)val, (int)val2, 0);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, flags, uaddr2, (int)val, (int)val2, &val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, flags, uaddr2, (int)val, (int)val2, val3);
	}
	return -ENOSYS;
}

long sys_futex(const struct syscall_args *a)
{
	return do_futex_call(a, false);
}

/* futex_time32 (6.6 linux/kernel/futex/syscalls.c): i386's futex, its timeout an old_timespec32. */
long sys_futex_time32(const struct syscall_args *a)
{
	return do_futex_call(a, true);
}

/*
 * Linux 6.6's get_robust_list: ESRCH, EPERM without ptrace read access, then
 * the two words; the compat one (linux/kernel/futex/syscalls.c) writes 32-bit ones
 * and reports the compat list, 12 bytes.
 */
static long do_get_robust_list(const struct syscall_args *a, bool compat)
{
	int pid = (int)a->a0;
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;
	uint64_t len = compat ? 12 : 24, head; /* sizeof(struct (compat_)robust_list_head) */
	unsigned w = compat ? 4 : 8;

	if (!p || p->state == TASK_UNUSED)
		return -ESRCH;
	if (!ptrace_may_access(p, PTRACE_MODE_READ))
		return -EPERM;
	head = compat ? p->compat_robust_list : p->robust_list;
	if (copy_to_user(a->a2, &len, w))
		return -EFAULT;
	return copy_to_user(a->a1, &head, w) ? -EFAULT : 0;
}

long sys_get_robust_list(const struct syscall_args *a)
{
	return do_get_robust_list(a, false);
}

long compat_sys_get_robust_list(const struct syscall_args *a)
{
	return do_get_robust_list(a, true);
}

/*
 * compat set_robust_list (6.6 linux/kernel/futex/syscalls.c): the head of 32-bit
 * words, walked at exit beside the native list (futex_cleanup walks both).
 */
long compat_sys_set_robust_list(const struct syscall_args *a)
{
	if (a->a1 != 12) /* sizeof(struct compat_robust_list_head) */
		return -EINVAL;
	current->compat_robust_list = a->a0;
	return 0;
}
