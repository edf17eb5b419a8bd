/*
 * rt_sigaction and rt_sigprocmask, honestly partial: the action and the mask
 * are stored, checked and reported back as Linux does (fork copies them,
 * exec resets caught signals), but no signal is delivered yet: a fault still
 * kills the task directly (kernel/task/fault.c).
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"

#define SIGKILL_NR  9
#define SIGSTOP_NR  19
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define UNBLOCKABLE ((1ULL << (SIGKILL_NR - 1)) | (1ULL << (SIGSTOP_NR - 1)))

long sys_rt_sigaction(const struct syscall_args *a)
{
	int sig = (int)a->a0;
	struct k_sigaction act, *slot;

	if (a->a3 != sizeof(uint64_t) || sig < 1 || sig > NSIG_LINUX)
		return -EINVAL;
	slot = &current->sigaction[sig - 1];
	if (a->a1 && (sig == SIGKILL_NR || sig == SIGSTOP_NR))
		return -EINVAL;
	if (a->a1 && copy_from_user(&act, a->a1, sizeof(act)))
		return -EFAULT;
	if (a->a2 && copy_to_user(a->a2, slot, sizeof(*slot)))
		return -EFAULT;
	if (a->a1) {
		act.mask &= ~UNBLOCKABLE;
		*slot = act;
	}
	return 0;
}

long sys_rt_sigprocmask(const struct syscall_args *a)
{
	struct task_struct *t = current;
	uint64_t set, old = t->sigmask;

	if (a->a3 != sizeof(uint64_t))
		return -EINVAL;
	if (a->a1) {
		if (copy_from_user(&set, a->a1, sizeof(set)))
			return -EFAULT;
		set &= ~UNBLOCKABLE;
		switch (a->a0) {
		case SIG_BLOCK:
			t->sigmask |= set;
			break;
		case SIG_UNBLOCK:
			t->sigmask &= ~set;
			break;
		case SIG_SETMASK:
			t->sigmask = set;
			break;
		default:
			return -EINVAL;
		}
	}
	if (a->a2 && copy_to_user(a->a2, &old, sizeof(old))) {
		t->sigmask = old;
		return -EFAULT;
	}
	return 0;
}
