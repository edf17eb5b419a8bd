/*
 * waitid's wait (Linux 6.6's do_wait with struct wait_opts, kernel/exit.c):
 * which children (one pid, a process group, any), which states (WEXITED;
 * WSTOPPED and WCONTINUED are accepted but match nothing, since no task
 * here is ever stopped or continued), WNOHANG, and WNOWAIT (report a
 * zombie, leave it to be reaped).  wait4 keeps do_wait (exit.c).
 *
 * sleep_interrupted() is where the sleeps of waitid (here) and poll/select
 * (kernel/syscall/sys_poll.c) learn that a signal is pending, to return
 * Linux's restart codes (EINTR once a handler ran).
 */
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

long do_waitid(struct wait_opts *wo)
{
	struct task_struct *me = current;

	for (;;) {
		bool have_child = false;

		release_dead_tasks();
		for (int i = 0; i < NR_TASKS; i++) {
			struct task_struct *c = &tasks[i];

			if (!wait_eligible_child(c, wo->options) || !eligible(wo, c))
				continue;
			if (c->state == TASK_ZOMBIE && c->autoreap) {
				free_task(c); /* released at exit: nobody waits for it */
				continue;
			}
			/*
			 * A live child can still exit: something to wait for.  A
			 * zombie without WEXITED is not, as Linux 6.6's
			 * wait_consider_task (wait_task_zombie returns 0 before
			 * notask_error is cleared): WSTOPPED alone on zombies is ECHILD.
			 */
			if (!wait_zombie_ready(c)) {
				have_child = true;
				continue;
			}
			if (!(wo->options & WEXITED))
				continue;
			wo->pid = c->pid;
			wo->uid = c->cred.uid;
			wo->exit_code = task_exit_status(c);
			wo->utime = c->utime + c->signal->utime; /* every thread's */
			wo->stime = c->stime + c->signal->stime;
			if (!(wo->options & WNOWAIT))
				free_task(c);
			return wo->pid;
		}
		if (!have_child)
			return -ECHILD;
		if (wo->options & WNOHANG)
			return 0;
		/* Linux's do_wait: -ERESTARTSYS, EINTR once a handler without SA_RESTART ran. */
		if (sleep_interrupted())
			return -ERESTARTSYS;
		sleep_on_interruptible(me->signal, 0, (const void *)do_waitid);
	}
}
