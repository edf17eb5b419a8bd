/*
 * getrusage(who, ru), as Linux 6.6's (kernel/sys.c getrusage and
 * SYSCALL_DEFINE2(getrusage)): RUSAGE_SELF sums every thread of the
 * process, gone ones too; RUSAGE_CHILDREN the children reaped by wait and,
 * through them, theirs (cutime, cstime); RUSAGE_THREAD the caller alone.
 * The times come from the tick accounting (kernel/task/sched.c: each tick
 * is charged to user or kernel mode), so their resolution is one tick.
 * This kernel keeps no high-water RSS, no context-switch counts and no
 * per-process fault sums: those fields are zero.
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"
#include "kernel/uapi/resource.h"

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD	1

long sys_getrusage(const struct syscall_args *a)
{
	struct task_struct *t = current;
	int who = (int)a->a0;
	uint64_t ut, st;
	struct linux_rusage ru;

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
	rusage_from_ticks(&ru, ut, st);
	return copy_to_user(a->a1, &ru, sizeof(ru)) ? -EFAULT : 0;
}
