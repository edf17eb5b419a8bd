/*
 * The wait of wait4 and waitid (Linux 6.6's do_wait with struct wait_opts,
 * linux/kernel/exit.c: wait_consider_task, wait_task_zombie, wait_task_stopped,
 * wait_task_continued): which children (one pid, a process group, any),
 * which states (WEXITED, WSTOPPED alias WUNTRACED, WCONTINUED), WNOHANG,
 * and WNOWAIT (report, leave the state to be reported again).  A stop and
 * a continue are each reported once: the report consumes the stop signal
 * (group_exit_code) or SIGNAL_STOP_CONTINUED.
 *
 * sleep_interrupted() is where the sleeps of waitid (here) and poll/select
 * (kernel/syscall/sys_poll.c) learn that a signal is pending, to return
 * Linux's restart codes (EINTR once a handler ran).
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/lib/errno.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"

/* A signal the task does not block ends these sleeps (TASK_INTERRUPTIBLE). */
bool sleep_interrupted(void)
{
	return signal_pending(current);
}

static bool eligible(const struct wait_opts *wo, const struct task_struct *c)
{
	switch (wo->type) {
	case WAIT_PID:
		return c->pid == wo->id;
	case WAIT_PGID:
		return c->signal->pgid == wo->id;
	default:
		return true;
	}
}

/* getrusage(p, RUSAGE_BOTH)'s times: p's threads and the children it reaped. */
static void rusage_both(struct wait_opts *wo, const struct task_struct *c)
{
	thread_group_cputime(c, &wo->utime, &wo->stime);
	wo->utime += c->signal->cutime;
	wo->stime += c->signal->cstime;
}

static long wait_task_zombie(struct wait_opts *wo, struct task_struct *c)
{
	int code = task_exit_status(c);
	struct signal_struct *psig = current->signal;

	wo->pid = c->pid;
	wo->uid = c->cred.uid;
	wo->exit_code = code;
	if (!(code & 0x7f)) {
		wo->why = CLD_EXITED;
		wo->status = (code >> 8) & 0xff;
	} else {
		wo->why = (code & 0x80) ? CLD_DUMPED : CLD_KILLED;
		wo->status = code & 0x7f;
	}
	rusage_both(wo, c);
	if (!(wo->options & WNOWAIT)) {
		/* The parent's cutime/cstime keep the child's and its children's. */
		psig->cutime += wo->utime;
		psig->cstime += wo->stime;
		free_task(c);
	}
	return wo->pid;
}

/* wait_task_stopped (not ptraced): a completed group stop not yet reported. */
static long wait_task_stopped(struct wait_opts *wo, struct task_struct *c)
{
	struct signal_struct *sig = c->signal;
	int code;

	if (!(wo->options & WSTOPPED) || !(sig->flags & SIGNAL_STOP_STOPPED))
		return 0;
	code = sig->group_exit_code;
	if (!code)
		return 0;
	if (!(wo->options & WNOWAIT))
		sig->group_exit_code = 0;
	wo->pid = c->pid;
	wo->uid = c->cred.uid;
	wo->exit_code = (code << 8) | 0x7f;
	wo->why = CLD_STOPPED;
	wo->status = code;
	rusage_both(wo, c);
	return wo->pid;
}

static long wait_task_continued(struct wait_opts *wo, struct task_struct *c)
{
	struct signal_struct *sig = c->signal;

	if (!(wo->options & WCONTINUED) || !(sig->flags & SIGNAL_STOP_CONTINUED))
		return 0;
	if (!(wo->options & WNOWAIT))
		sig->flags &= ~SIGNAL_STOP_CONTINUED;
	wo->pid = c->pid;
	wo->uid = c->cred.uid;
	wo->exit_code = 0xffff;
	wo->why = CLD_CONTINUED;
	wo->status = SIGCONT;
	rusage_both(wo, c);
	return wo->pid;
}

/*
 * do_wait_thread (Linux 6.6): tsk's children in their list's order, the
 * oldest first; a reaped or released one leaves the list, so the next
 * link is read first.  The pid reported, or 0 (*have_child: one could
 * still report).
 */
static long do_wait_thread(struct wait_opts *wo, struct task_struct *tsk, bool *have_child)
{
	struct list_head *l = tsk->children.next, *next;

	for (; l != &tsk->children; l = next) {
		struct task_struct *c = task_of_sibling(l);
		long pid;

		next = l->next;
		if (!wait_eligible_child(c, wo->options | __WALL))
			continue;
		/* Not a child to wait for any more (Linux's exit_signal = -1 release). */
		if (c->state == TASK_ZOMBIE && c->autoreap) {
			free_task(c);
			continue;
		}
		if (!wait_eligible_child(c, wo->options) || !eligible(wo, c))
			continue;
		/*
		 * A zombie without WEXITED is nothing to wait for, as
		 * wait_consider_task (wait_task_zombie returns 0 before
		 * notask_error is cleared): WSTOPPED alone on zombies is ECHILD.
		 * A live child can still stop, continue or exit; a zombie
		 * leader with threads left can still stop too.
		 */
		if (wait_zombie_ready(c)) {
			if (!(wo->options & WEXITED))
				continue;
			return wait_task_zombie(wo, c);
		}
		*have_child = true;
		pid = wait_task_stopped(wo, c);
		if (!pid)
			pid = wait_task_continued(wo, c);
		if (pid)
			return pid;
	}
	return 0;
}

/*
 * The children of the caller, then of each other thread of its group
 * (while_each_thread), unless __WNOTHREAD.
 */
static long do_wait_threads(struct wait_opts *wo, bool *have_child)
{
	struct task_struct *me = current, *p;
	long pid = do_wait_thread(wo, me, have_child);
	int i = 0;

	if (wo->options & __WNOTHREAD)
		return pid;
	while (!pid && (p = next_other_thread(me, &i)))
		pid = do_wait_thread(wo, p, have_child);
	return pid;
}

long do_waitid(struct wait_opts *wo)
{
	struct task_struct *me = current;

	kernel_lock_assert_held("do_waitid");
	for (;;) {
		bool have_child = false;
		long pid;

		release_dead_tasks();
		pid = do_wait_threads(wo, &have_child);
		if (pid)
			return pid;
		if (!have_child)
			return -ECHILD;
		if (wo->options & WNOHANG)
			return 0;
		/* Linux's do_wait: -ERESTARTSYS, EINTR once a handler without SA_RESTART ran. */
		if (sleep_interrupted())
			return -ERESTARTSYS;
		sleep_on_interruptible(me->signal, 0, (const void *)do_wait); /* wchan do_wait */
	}
}
