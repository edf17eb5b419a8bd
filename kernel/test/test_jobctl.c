/*
 * Job control from the kernel's side (kernel/task/jobctl.c): a stopped task
 * stays stopped through what ends other sleeps (a wake_up of the channel it
 * slept on, its timer), SIGCONT continues it, and the SIGKILL the kernel
 * itself sends with send_sig (the fuzzer's end of a stuck program) ends a
 * stopped one.  The ring-3 side is tests/linux/lx_jobctl.c.
 */
#include "kernel/arch/timer.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/test/ktest.h"

static void sleep_ms(unsigned ms)
{
	sleep_until(jiffies + (uint64_t)ms * timer_hz() / 1000 + 1, (const void *)sleep_ms);
}

/* Waits up to 2 s for the task to be in state s. */
static bool reaches(const struct task_struct *p, enum task_state s)
{
	for (int i = 0; i < 200 && p->state != s; i++)
		sleep_ms(10);
	return p->state == s;
}

static enum ktest_result jobctl_stop_holds(struct ktest_ctx *t)
{
	char *argv[] = {"t_sleep", "300"};
	long pid = spawn_prog("t_sleep", 2, argv);
	struct task_struct *p;
	const void *chan;
	int status = -1;

	if (pid < 0)
		return ktest_fail(t, "spawn t_sleep: %ld", pid);
	p = find_task_by_pid((int)pid);
	for (int i = 0; p && i < 200 && !(p->state == TASK_INTERRUPTIBLE && p->wchan); i++)
		sleep_ms(10);
	if (!p || p->state != TASK_INTERRUPTIBLE)
		return ktest_fail(t, "t_sleep never slept");
	chan = p->sleep_chan;
	do_send_sig_info(SIGSTOP, 0, p, PIDTYPE_TGID);
	if (!reaches(p, TASK_STOPPED))
		return ktest_fail(t, "SIGSTOP: state %d, not stopped", p->state);
	if (!(p->signal->flags & SIGNAL_STOP_STOPPED) || p->signal->group_exit_code != SIGSTOP)
		return ktest_fail(t, "group flags 0x%x code %d", p->signal->flags,
				  p->signal->group_exit_code);
	/* Past its 300 ms: neither the channel nor the timer may wake it. */
	wake_up(chan);
	wake_up(p);
	sleep_ms(500);
	if (p->state != TASK_STOPPED)
		return ktest_fail(t, "a stopped task was woken (state %d)", p->state);
	do_send_sig_info(SIGCONT, 0, p, PIDTYPE_TGID);
	if (do_wait((int)pid, 0, &status, 0, 0) != pid || status != W_EXITCODE(0))
		return ktest_fail(t, "continued, t_sleep ended with status 0x%x", status);
	return KTEST_PASS;
}
KTEST(jobctl_stop_holds);

static enum ktest_result jobctl_kill_stopped(struct ktest_ctx *t)
{
	char *argv[] = {"t_sleep", "5000"};
	long pid = spawn_prog("t_sleep", 2, argv);
	struct task_struct *p;
	int status = -1;

	if (pid < 0)
		return ktest_fail(t, "spawn t_sleep: %ld", pid);
	p = find_task_by_pid((int)pid);
	if (!p)
		return ktest_fail(t, "no task %ld", pid);
	do_send_sig_info(SIGSTOP, 0, p, PIDTYPE_TGID);
	if (!reaches(p, TASK_STOPPED))
		return ktest_fail(t, "SIGSTOP: state %d, not stopped", p->state);
	send_sig(SIGKILL, p);
	if (do_wait((int)pid, 0, &status, 0, 0) != pid || status != W_SIGNALED(SIGKILL))
		return ktest_fail(t, "killed while stopped: status 0x%x", status);
	return KTEST_PASS;
}
KTEST(jobctl_kill_stopped);
