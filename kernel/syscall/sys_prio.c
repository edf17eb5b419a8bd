/*
 * getpriority, setpriority and IA-32's nice: Linux 6.6's kernel/sys.c and
 * linux/kernel/sched/core.c, on the nice levels of kernel/task/nice.c.  A "who"
 * names a thread (PRIO_PROCESS: find_task_by_vpid), every thread of a
 * process group (PRIO_PGRP) or of a real uid (PRIO_USER).
 */
#include "kernel/lib/errno.h"
#include "kernel/security/ptrace.h" /* capable */
#include "kernel/syscall/syscall.h"
#include "kernel/task/nice.h"
#include "kernel/task/sched_signal.h"
#include "kernel/task/task.h"

#define PRIO_PROCESS 0
#define PRIO_PGRP    1
#define PRIO_USER    2

/* Whether p is one of the tasks which and who name (who already defaulted). */
static bool prio_match(const struct task_struct *p, int which, int who)
{
	if (p->state == TASK_UNUSED || p->kthread || (p->state == TASK_ZOMBIE && p->autoreap))
		return false;
	if (which == PRIO_PGRP)
		return p->signal->pgid == who;
	return p->cred.uid == (uint32_t)who;
}

/* set_one_prio_perm: the caller's euid is p's uid or euid, or CAP_SYS_NICE. */
static bool set_one_prio_perm(const struct task_struct *p)
{
	const struct cred *c = &current->cred;

	return p->cred.uid == c->euid || p->cred.euid == c->euid || capable(CAP_SYS_NICE);
}

/* The error of the last task tried wins; the first success turns ESRCH into 0. */
static int set_one_prio(struct task_struct *p, int niceval, int error)
{
	if (!set_one_prio_perm(p))
		return -EPERM;
	if (niceval < task_nice(p) && !can_nice(p, niceval))
		return -EACCES;
	if (error == -ESRCH)
		error = 0;
	set_user_nice(p, niceval);
	return error;
}

/* who for PRIO_PROCESS: the caller's thread id; PRIO_PGRP: its group; PRIO_USER: its uid. */
static int default_who(int which, int who)
{
	if (who)
		return who;
	if (which == PRIO_PROCESS)
		return current->pid;
	return which == PRIO_PGRP ? current->signal->pgid : (int)current->cred.uid;
}

long sys_setpriority(const struct syscall_args *a)
{
	int which = (int)a->a0, who, niceval = nice_clamp((int)a->a2);
	int error = -ESRCH;

	if (which > PRIO_USER || which < PRIO_PROCESS)
		return -EINVAL;
	who = default_who(which, (int)a->a1);
	if (which == PRIO_PROCESS) {
		struct task_struct *p = find_task_by_pid(who);

		return p ? set_one_prio(p, niceval, error) : error;
	}
	for (int i = 0; i < NR_TASKS; i++)
		if (prio_match(&tasks[i], which, who))
			error = set_one_prio(&tasks[i], niceval, error);
	return error;
}

/* "40..1 instead of -20..19" (nice_to_rlimit): never negative; the highest of the tasks named. */
long sys_getpriority(const struct syscall_args *a)
{
	int which = (int)a->a0, who;
	long retval = -ESRCH;

	if (which > PRIO_USER || which < PRIO_PROCESS)
		return -EINVAL;
	who = default_who(which, (int)a->a1);
	if (which == PRIO_PROCESS) {
		struct task_struct *p = find_task_by_pid(who);

		return p ? 20 - task_nice(p) : retval;
	}
	for (int i = 0; i < NR_TASKS; i++)
		if (prio_match(&tasks[i], which, who) && 20 - task_nice(&tasks[i]) > retval)
			retval = 20 - task_nice(&tasks[i]);
	return retval;
}

/* nice(increment), i386's call 34: EPERM (not EACCES) for a lower nice without the right. */
long sys_nice(const struct syscall_args *a)
{
	int increment = (int)a->a0, nice;

	if (increment < -NICE_WIDTH)
		increment = -NICE_WIDTH;
	if (increment > NICE_WIDTH)
		increment = NICE_WIDTH;
	nice = nice_clamp(task_nice(current) + increment);
	if (increment < 0 && !can_nice(current, nice))
		return -EPERM;
	set_user_nice(current, nice);
	return 0;
}
