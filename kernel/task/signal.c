/*
 * Sending signals, after Linux 2.6.29's kernel/signal.c: the pending set
 * and siginfo of a task, kill's pid rules and permission check, the forced
 * signals of faults, SIGCHLD at exit.  Delivery is signal_deliver.c's.
 */
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"

/* The default action of each signal (Linux's SIG_KERNEL_*_MASK). */
#define CAP_KILL 5 /* include/uapi/linux/capability.h */
#define SIG_KERNEL_IGNORE_MASK                                                                     \
	(sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | sigmask(SIGURG))

static bool sig_handler_ignored(const struct task_struct *t, int sig)
{
	uint64_t h = t->sigaction[sig - 1].handler;

	return h == SIG_IGN_HANDLER ||
	       (h == SIG_DFL_HANDLER && (SIG_KERNEL_IGNORE_MASK & sigmask(sig)));
}

/* Linux's sig_ignored: an ignored signal is dropped at once unless blocked. */
static bool sig_ignored(const struct task_struct *t, int sig)
{
	if (t->sigmask & sigmask(sig) & ~SIG_UNBLOCKABLE)
		return false;
	return sig_handler_ignored(t, sig);
}

/*
 * Linux 6.6's sig_task_ignored for the global init (SIGNAL_UNKILLABLE):
 * pid 1 takes no SIGKILL or SIGSTOP and no signal whose action is the
 * default, so `kill 1` or busybox's `poweroff` (SIGUSR2 to init, for
 * busybox init) cannot end the run.  A fault still kills it: Linux's
 * force_sig_info_to_task clears SIGNAL_UNKILLABLE for a fault signal.
 */
static bool init_unkillable(const struct task_struct *t, int sig, bool force)
{
	if (t->pid != 1 || force)
		return false;
	return sig == SIGKILL || sig == SIGSTOP || t->sigaction[sig - 1].handler == SIG_DFL_HANDLER;
}

static int __send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t, bool force)
{
	struct ksiginfo *slot;

	if (sig < 1 || sig > NSIG_LINUX)
		return -EINVAL;
	/* A zombie or a kernel context takes no signal (Linux: no sighand left). */
	if (t->state == TASK_UNUSED || t->state == TASK_ZOMBIE || t->kthread || !t->mm)
		return 0;
	if (sig_ignored(t, sig) || init_unkillable(t, sig, force))
		return 0;
	slot = &t->siginfo[sig - 1];
	/* Linux's legacy_queue: a standard signal already pending is not queued twice. */
	if (!(t->sigpending & sigmask(sig))) {
		if (info) {
			*slot = *info;
		} else {
			memset(slot, 0, sizeof(*slot));
			slot->code = SI_KERNEL;
		}
		slot->signo = sig;
		t->sigpending |= sigmask(sig);
	}
	/* signal_wake_up: only an interruptible sleep ends (sleep_on_interruptible). */
	if (signal_pending(t) && t->state == TASK_INTERRUPTIBLE && t->sig_wakeable)
		wake_up_process(t);
	return 0;
}

int send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t)
{
	return __send_sig_info(sig, info, t, false);
}

int send_sig(int sig, struct task_struct *t)
{
	struct task_struct *me = current;
	struct ksiginfo info = {.code = SI_USER, .pid = me->pid, .uid = me->cred.uid};

	return send_sig_info(sig, &info, t);
}

bool sig_fatal_if_forced(const struct task_struct *t, int sig)
{
	uint64_t h = t->sigaction[sig - 1].handler;

	return h == SIG_DFL_HANDLER || h == SIG_IGN_HANDLER || (t->sigmask & sigmask(sig));
}

/*
 * Linux 2.6.29's force_sig_info: a blocked or ignored fault signal is
 * unblocked and set back to SIG_DFL, so a fault in a handler that blocks
 * it (or with it ignored) kills instead of looping on the faulting insn.
 */
static void force_sig_info(int sig, const struct ksiginfo *info)
{
	struct task_struct *t = current;
	struct kernel_sigaction *ka = &t->sigaction[sig - 1];
	bool blocked = (t->sigmask & sigmask(sig)) != 0;

	if (blocked || ka->handler == SIG_IGN_HANDLER) {
		ka->handler = SIG_DFL_HANDLER;
		if (blocked)
			t->sigmask &= ~sigmask(sig);
	}
	__send_sig_info(sig, info, t, true);
}

void force_sig_fault(int sig, int code, uint64_t addr)
{
	struct ksiginfo info = {.code = code, .addr = addr};

	force_sig_info(sig, &info);
}

void force_sig(int sig)
{
	force_sig_info(sig, 0);
}

/*
 * Linux's check_kill_permission / kill_ok_by_cred (6.6, the same rule as
 * 2.6.29's): root (CAP_KILL), or the sender's real or effective uid equals
 * the target's real or saved uid; SIGCONT also within one session.
 */
int check_kill_permission(int sig, const struct task_struct *t)
{
	const struct cred *c = &current->cred, *tc = &t->cred;

	if (c->euid == tc->suid || c->euid == tc->uid || c->uid == tc->suid || c->uid == tc->uid ||
	    (c->cap_effective & (1ULL << CAP_KILL)))
		return 0;
	if (sig == SIGCONT && current->sid == t->sid)
		return 0;
	return -EPERM;
}

/* Linux's group_send_sig_info: the permission check, then (signal 0: only it) the signal. */
static int group_send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t)
{
	int err = check_kill_permission(sig, t);

	if (err || !sig)
		return err;
	return send_sig_info(sig, info, t);
}

static bool is_process(const struct task_struct *t)
{
	return t->state != TASK_UNUSED && !t->kthread;
}

/* __kill_pgrp_info: 0 if any member got it, else the last error (-ESRCH: none). */
static int kill_pgrp_info(int sig, const struct ksiginfo *info, int pgrp)
{
	int retval = -ESRCH;
	bool success = false;

	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *p = &tasks[i];

		if (!is_process(p) || p->pgid != pgrp)
			continue;
		retval = group_send_sig_info(sig, info, p);
		success |= retval == 0;
	}
	return success ? 0 : retval;
}

/*
 * Linux's kill_pgrp(pid, sig, 1): a signal from the kernel itself (the
 * tty's ISIG characters), SI_KERNEL and no permission check.
 */
int kill_pgrp(int pgrp, int sig)
{
	bool success = false;

	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *p = &tasks[i];

		if (is_process(p) && p->pgid == pgrp)
			success |= send_sig_info(sig, 0, p) == 0;
	}
	return success ? 0 : -ESRCH;
}

/* Linux's kill_something_info (kernel/signal.c), the four pid cases of kill(2). */
int kill_something_info(int sig, const struct ksiginfo *info, int pid)
{
	struct task_struct *me = current;

	if (pid > 0) {
		struct task_struct *p = find_task_by_pid(pid);

		return p && is_process(p) ? group_send_sig_info(sig, info, p) : -ESRCH;
	}
	if (pid == (int)0x80000000)
		return -ESRCH; /* -INT_MIN overflows: Linux refuses it the same way */
	if (pid != -1)
		return kill_pgrp_info(sig, info, pid ? -pid : me->pgid);
	/* -1: every process but init and the caller that the caller may signal. */
	int retval = 0, count = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *p = &tasks[i];
		int err;

		if (!is_process(p) || p->pid <= 1 || p == me)
			continue;
		err = group_send_sig_info(sig, info, p);
		count++;
		if (err != -EPERM)
			retval = err;
	}
	return count ? retval : -ESRCH;
}

/*
 * Linux 2.6.29's do_notify_parent: SIGCHLD with CLD_EXITED/KILLED/DUMPED,
 * and the auto-reap rule: with SIGCHLD ignored or SA_NOCLDWAIT the child
 * is not left as a zombie (and SIG_IGN sends nothing).
 */
bool do_notify_parent(struct task_struct *t)
{
	struct task_struct *p = t->parent;
	struct ksiginfo info = {.code = CLD_EXITED, .pid = t->pid, .uid = t->cred.uid};
	int sig = SIGCHLD;
	bool autoreap = false;

	if (!p)
		return false;
	info.utime = (int64_t)t->utime;
	info.stime = (int64_t)t->stime;
	info.status = t->exit_code & 0x7f;
	if (t->exit_code & 0x80)
		info.code = CLD_DUMPED;
	else if (t->exit_code & 0x7f)
		info.code = CLD_KILLED;
	else
		info.status = (t->exit_code >> 8) & 0xff;
	if (p->sigaction[SIGCHLD - 1].handler == SIG_IGN_HANDLER ||
	    (p->sigaction[SIGCHLD - 1].flags & SA_NOCLDWAIT)) {
		autoreap = true;
		if (p->sigaction[SIGCHLD - 1].handler == SIG_IGN_HANDLER)
			sig = 0;
	}
	if (sig)
		send_sig_info(sig, &info, p);
	return autoreap;
}

/* Linux's flush_signal_handlers(t, 0) at exec, and the alternate stack goes too. */
void flush_signal_handlers(struct task_struct *t)
{
	for (int i = 0; i < NSIG_LINUX; i++) {
		struct kernel_sigaction *ka = &t->sigaction[i];

		if (ka->handler != SIG_IGN_HANDLER)
			ka->handler = SIG_DFL_HANDLER;
		ka->flags = ka->restorer = ka->mask = 0;
	}
	t->sas_ss_sp = t->sas_ss_size = 0;
}
