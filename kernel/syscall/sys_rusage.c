/*
 * getrusage(who, ru), and an IA-32 task's times(tbuf), as Linux 6.6's
 * (linux/kernel/sys.c getrusage and SYSCALL_DEFINE2(getrusage)): RUSAGE_SELF sums every thread of the
 * process, gone ones too; RUSAGE_CHILDREN the children reaped by wait and,
 * through them, theirs (cutime, cstime); RUSAGE_THREAD the caller alone.
 * The times come from the tick accounting (kernel/task/sched.c: each tick
 * is charged to user or kernel mode), so their resolution is one tick.
 * This kernel keeps no high-water RSS, no context-switch counts and no
 * per-process fault sums: those fields are zero.
 */
#include "kernel/arch/timer.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"
#include "kernel/uapi/resource.h"

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD	1

static long do_getrusage(const struct syscall_args *a, bool compat)
{
	struct task_struct *t = current;
	int who = (int)a->a0;
	uint64_t ut, st;

	switch (who) {
	case RUSAGE_SELF:
		thread_group_cputime(t, &ut, &st);
		break;
	case RUSAGE_CHILDREN:
		ut = t->signal->cutime;
		st = t->signal->cstime;
		break;
	case RUSAGE_THREAD:
		ut = t->utime;
		st = t->stime;
		break;
	default:
		return -EINVAL;
	}
	return put_rusage(a->a1, ut, st, compat);
}

long sys_getrusage(const struct syscall_args *a)
{
	return do_getrusage(a, false);
}

/* compat_sys_getrusage (6.6 linux/kernel/sys.c): i386's struct compat_rusage. */
long compat_sys_getrusage(const struct syscall_args *a)
{
	return do_getrusage(a, true);
}

/* include/linux/compat.h's struct compat_tms: four compat_clock_t (s32). */
struct compat_tms {
	int32_t tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/*
 * times(tbuf) of an IA-32 task, compat_sys_times (6.6 linux/kernel/sys.c): the
 * process's and its reaped children's CPU times (do_sys_times) in clock
 * ticks (USER_HZ, which is COMPAT_USER_HZ on x86), NULL skipping them;
 * the result is jiffies in clock ticks (compat_jiffies_to_clock_t), which
 * start five minutes before their 32-bit wrap as Linux's.  Native times
 * is not in this kernel's table.
 */
long compat_sys_times(const struct syscall_args *a)
{
	if (a->a0) {
		struct task_struct *t = current;
		struct compat_tms tms;
		uint64_t ut, st;

		thread_group_cputime(t, &ut, &st);
		tms.tms_utime = (int32_t)jiffies_to_clock_t(ut);
		tms.tms_stime = (int32_t)jiffies_to_clock_t(st);
		tms.tms_cutime = (int32_t)jiffies_to_clock_t(t->signal->cutime);
		tms.tms_cstime = (int32_t)jiffies_to_clock_t(t->signal->cstime);
		if (copy_to_user(a->a0, &tms, sizeof(tms)))
			return -EFAULT;
	}
	return (long)jiffies_to_clock_t(jiffies);
}
