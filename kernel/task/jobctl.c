/*
 * Job control: a thread group stops and continues as one, after Linux
 * 6.6's kernel/signal.c (prepare_signal's stop and SIGCONT rules,
 * do_signal_stop, task_participate_group_stop, do_notify_parent_cldstop,
 * exit_signals) and linux/kernel/exit.c (will_become_orphaned_pgrp,
 * kill_orphaned_pgrp).  The stop is a state of the whole group:
 * SIGNAL_STOP_STOPPED once every live thread is in TASK_STOPPED, with the
 * stop signal in group_exit_code until a wait consumes it.
 *
 * Linux drops the siglock around the orphan check and marks a dequeued stop
 * signal (JOBCTL_STOP_DEQUEUED) so that a SIGCONT posted meanwhile cancels
 * the stop; here nothing runs between the dequeue and do_signal_stop (the
 * kernel is not preemptible and that path does not sleep), so the mark has
 * nothing to tell apart and is left out.
 */
#include "kernel/lib/compiler.h"
#include "kernel/arch/cpu.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"

#define SIG_KERNEL_STOP_MASK                                                                       \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

static bool live_thread(const struct task_struct *t)
{
	return t->state != TASK_UNUSED && t->state != TASK_ZOMBIE;
}

/* signal_set_stop_flags: the stop state bits replaced, the others kept. */
static void signal_set_stop_flags(struct signal_struct *sig, unsigned int flags)
{
	sig->flags = (sig->flags & ~SIGNAL_STOP_MASK) | flags;
}

/* task_clear_jobctl_pending(t, JOBCTL_STOP_PENDING): CONSUME goes with it. */
static void task_clear_stop_pending(struct task_struct *t)
{
	t->jobctl &= ~(JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME | JOBCTL_STOP_SIGMASK);
}

void prepare_signal_jobctl(int sig, struct task_struct *p)
{
	struct signal_struct *signal = p->signal;

	if (sigmask(sig) & SIG_KERNEL_STOP_MASK) {
		/* A stop signal: SIGCONT leaves every queue. */
		signal->shared_pending.signal &= ~sigmask(SIGCONT);
		for (int i = 0; i < NR_TASKS; i++)
			if (tasks[i].state != TASK_UNUSED && tasks[i].signal == signal)
				tasks[i].pending.signal &= ~sigmask(SIGCONT);
	} else if (sig == SIGCONT) {
		unsigned int why = 0;

		/* Every stop signal leaves every queue, every thread runs again. */
		signal->shared_pending.signal &= ~SIG_KERNEL_STOP_MASK;
		for (int i = 0; i < NR_TASKS; i++) {
			struct task_struct *t = &tasks[i];

			if (t->state == TASK_UNUSED || t->signal != signal)
				continue;
			t->pending.signal &= ~SIG_KERNEL_STOP_MASK;
			task_clear_stop_pending(t);
			wake_up_stopped(t);
		}
		/*
		 * The parent hears CLD_CONTINUED if the group was stopped; a
		 * stop still in progress is reported as done (CLD_STOPPED), as
		 * if the CLD_CONTINUED after it were merged away.  The first
		 * thread back in get_signal sends it.
		 */
		if (signal->flags & SIGNAL_STOP_STOPPED)
			why = SIGNAL_CLD_CONTINUED;
		else if (signal->group_stop_count)
			why = SIGNAL_CLD_STOPPED;
		if (why) {
			signal_set_stop_flags(signal, why | SIGNAL_STOP_CONTINUED);
			signal->group_stop_count = 0;
			signal->group_exit_code = 0;
		}
	}
}

/*
 * do_notify_parent_cldstop(tsk, false, why): SIGCHLD to the leader's
 * parent unless it ignores SIGCHLD or set SA_NOCLDSTOP; its waiters are
 * woken either way.  si_utime/si_stime are the leader's own (task_cputime).
 */
void do_notify_parent_cldstop(struct task_struct *tsk, int why)
{
	struct task_struct *leader = tsk->group_leader, *parent = leader->parent;
	struct ksiginfo info = {.signo = SIGCHLD, .code = why, .pid = leader->pid};
	const struct kernel_sigaction *ka;

	if (!parent)
		return;
	info.uid = leader->cred.uid;
	info.utime = (int64_t)READ_ONCE(leader->utime);
	info.stime = (int64_t)READ_ONCE(leader->stime);
	info.status = why == CLD_CONTINUED ? SIGCONT : leader->signal->group_exit_code & 0x7f;
	ka = &parent->sighand->action[SIGCHLD - 1];
	if (ka->handler != SIG_IGN_HANDLER && !(ka->flags & SA_NOCLDSTOP))
		do_send_sig_info(SIGCHLD, &info, parent, PIDTYPE_TGID);
	/* __wake_up_parent: the parent group's waiters, and kernel code waiting on the task */
	wake_up(parent);
	wake_up(parent->signal);
}

/* task_set_jobctl_pending: not for a thread that is exiting or being killed. */
static bool task_set_stop_pending(struct task_struct *t, int signr)
{
	if (!live_thread(t) || fatal_signal_pending(t))
		return false;
	t->jobctl = (t->jobctl & ~JOBCTL_STOP_SIGMASK) | JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME |
		    (unsigned long)signr;
	return true;
}

/*
 * task_participate_group_stop: t's part of the stop is done; true when it
 * was the last and the stop is a fresh one (the parent is to hear it).
 */
static bool task_participate_group_stop(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;
	bool consume = (t->jobctl & JOBCTL_STOP_CONSUME) != 0;

	task_clear_stop_pending(t);
	if (!consume)
		return false;
	if (sig->group_stop_count > 0)
		sig->group_stop_count--;
	if (!sig->group_stop_count && !(sig->flags & SIGNAL_STOP_STOPPED)) {
		signal_set_stop_flags(sig, SIGNAL_STOP_STOPPED);
		return true;
	}
	return false;
}

bool do_signal_stop(int signr)
{
	struct task_struct *me = current, *t;
	struct signal_struct *sig = me->signal;
	uint64_t flags;
	bool notify;

	if (!(me->jobctl & JOBCTL_STOP_PENDING)) {
		if ((sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exit_task)
			return false;
		/* A second stop signal while stopped keeps the first one's code. */
		if (!(sig->flags & SIGNAL_STOP_STOPPED))
			sig->group_exit_code = signr;
		sig->group_stop_count = 0;
		if (task_set_stop_pending(me, signr))
			sig->group_stop_count++;
		for (int i = 0; i < NR_TASKS; i++) {
			t = &tasks[i];
			if (t == me || t->signal != sig || t->state == TASK_STOPPED)
				continue;
			if (task_set_stop_pending(t, signr)) {
				sig->group_stop_count++;
				signal_wake_up(t, false);
			}
		}
	}
	notify = task_participate_group_stop(me);
	if (notify)
		do_notify_parent_cldstop(me, CLD_STOPPED);
	/* Now it does not run again until SIGCONT or SIGKILL wakes it. */
	flags = irq_save();
	me->state = TASK_STOPPED;
	me->sleep_chan = 0;
	me->sleep_until = 0;
	me->wchan = (const void *)do_signal_stop;
	schedule();
	irq_restore(flags);
	return true;
}

void exit_signals(struct task_struct *t)
{
	if ((t->jobctl & JOBCTL_STOP_PENDING) && task_participate_group_stop(t))
		do_notify_parent_cldstop(t, CLD_STOPPED);
	t->jobctl = 0;
}

/*
 * will_become_orphaned_pgrp (exit.c): a process group is orphaned when no
 * member (but `ignored`, and processes gone or whose parent is init) has a
 * parent in another group of the same session, the link a job-control
 * shell gives its jobs.  Only leaders are members, as PIDTYPE_PGID lists.
 */
static bool will_become_orphaned_pgrp(int pgrp, const struct task_struct *ignored)
{
	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_struct *p = &tasks[i], *parent = p->parent;

		if (p->state == TASK_UNUSED || p->kthread || !thread_group_leader(p) ||
		    p->signal->pgid != pgrp || p == ignored)
			continue;
		if ((p->state == TASK_ZOMBIE && thread_group_empty(p)) || !parent ||
		    parent->tgid == 1)
			continue;
		if (parent->signal->pgid != pgrp && parent->signal->sid == p->signal->sid)
			return false;
	}
	return true;
}

bool is_current_pgrp_orphaned(void)
{
	return will_become_orphaned_pgrp(current->signal->pgid, 0);
}

static bool has_stopped_jobs(int pgrp)
{
	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_struct *p = &tasks[i];

		if (p->state != TASK_UNUSED && !p->kthread && thread_group_leader(p) &&
		    p->signal->pgid == pgrp && (p->signal->flags & SIGNAL_STOP_STOPPED))
			return true;
	}
	return false;
}

/*
 * kill_orphaned_pgrp: POSIX's rule that a process group left orphaned with a
 * stopped member gets SIGHUP then SIGCONT (nothing would ever continue it).
 * parent NULL: tsk exits, its own group may lose its link; else tsk is a
 * child of the exiting parent, its group may.
 */
void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent)
{
	int pgrp = tsk->signal->pgid;
	const struct task_struct *ignored = tsk;

	if (!parent)
		parent = tsk->parent;
	else
		ignored = 0;
	if (!parent || parent->kthread)
		return;
	if (parent->signal->pgid != pgrp && parent->signal->sid == tsk->signal->sid &&
	    will_become_orphaned_pgrp(pgrp, ignored) && has_stopped_jobs(pgrp)) {
		kill_pgrp(pgrp, SIGHUP);
		kill_pgrp(pgrp, SIGCONT);
	}
}
