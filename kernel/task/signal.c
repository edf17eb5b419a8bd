/*
 * Sending signals, after Linux 2.6.29's kernel/signal.c: the pending set
 * and siginfo of a task, kill's pid rules and permission check, the forced
 * signals of faults, SIGCHLD at exit.  Delivery is signal_deliver.c's.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/lib/compiler.h"
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
	uint64_t h = t->sighand->action[sig - 1].handler;

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
	if (t->tgid != 1 || force)
		return false;
	return sig == SIGKILL || sig == SIGSTOP ||
	       t->sighand->action[sig - 1].handler == SIG_DFL_HANDLER;
}

/*
 * signal_wake_up (6.6): an interruptible sleep ends (sleep_on_interruptible);
 * resume (TASK_WAKEKILL: SIGKILL) also ends a stop; a task running on
 * another CPU is kicked into the kernel (kick_process).
 */
void signal_wake_up(struct task_struct *t, bool resume)
{
	if (resume && t->state == TASK_STOPPED) {
		wake_up_stopped(t);
		return;
	}
	if (t->state == TASK_INTERRUPTIBLE && ((t->sig_wakeable && signal_pending(t)) ||
					       (t->kill_wakeable && fatal_signal_pending(t))))
		wake_up_process(t);
	else
		kick_process(t); /* running on another CPU: it sees the signal now */
}

/* zap_other_threads (6.6): a group stop under way is off, every other thread is killed. */
void zap_other_threads(struct task_struct *t)
{
	t->signal->group_stop_count = 0;
	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *p = &tasks[i];

		if (p == t || p->state == TASK_UNUSED || !same_thread_group(p, t))
			continue;
		p->jobctl = 0;
		if (p->state == TASK_ZOMBIE)
			continue;
		p->pending.signal |= sigmask(SIGKILL);
		p->pending.info[SIGKILL - 1] =
			(struct ksiginfo){.signo = SIGKILL, .code = SI_KERNEL};
		signal_wake_up(p, true);
	}
}

/*
 * wants_signal (6.6): not blocked, not exiting.  Linux also passes over a
 * thread already flagged TIF_SIGPENDING (it will look anyway); here the
 * pending sets are the flag and already hold this signal, so that test
 * has nothing to tell apart.
 */
static bool wants_signal(int sig, struct task_struct *p)
{
	if (p->sigmask & sigmask(sig) & ~SIG_UNBLOCKABLE)
		return false;
	if (p->state == TASK_ZOMBIE || p->state == TASK_UNUSED)
		return false;
	/* A stopped thread takes only SIGKILL: the rest waits for SIGCONT. */
	return sig == SIGKILL || p->state != TASK_STOPPED;
}

#define SIG_KERNEL_STOP_MASK                                                                       \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define SIG_KERNEL_COREDUMP_MASK                                                                   \
	(sigmask(SIGQUIT) | sigmask(SIGILL) | sigmask(SIGTRAP) | sigmask(SIGABRT) |                \
	 sigmask(SIGFPE) | sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGSYS) |                  \
	 sigmask(SIGXCPU) | sigmask(SIGXFSZ))

/* sig_fatal: the default action, and that action ends the process. */
static bool sig_fatal(const struct task_struct *p, int sig)
{
	return !(sigmask(sig) & (SIG_KERNEL_IGNORE_MASK | SIG_KERNEL_STOP_MASK)) &&
	       p->sighand->action[sig - 1].handler == SIG_DFL_HANDLER;
}

/*
 * complete_signal (Linux 6.6): the thread to wake for a signal just
 * queued.  A thread-directed one wakes its thread; a process-directed one
 * the first thread that does not block it, the leader tried first, then
 * the rest in turn from where the last search stopped.  A fatal signal
 * (default action, not a core-dump one) ends the whole group at once,
 * a stopped one too (SIGKILL: signal_wake_up with resume).
 */
static void complete_signal(int sig, struct task_struct *p, enum pid_type type)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t = 0;

	if (wants_signal(sig, p)) {
		t = p;
	} else if (type == PIDTYPE_PID || thread_group_empty(p)) {
		return;
	} else {
		for (int n = 0; n < NR_TASKS && !t; n++) {
			int i = (signal->curr_target + n) % NR_TASKS;

			if (tasks[i].state != TASK_UNUSED && tasks[i].signal == signal &&
			    wants_signal(sig, &tasks[i]))
				t = &tasks[i];
		}
		if (!t)
			return; /* every thread blocks it: it stays pending for the first to unblock
				 */
		signal->curr_target = (int)(t - tasks);
	}
	if (sig_fatal(p, sig) && !(signal->flags & SIGNAL_GROUP_EXIT) &&
	    !(sigmask(sig) & SIG_KERNEL_COREDUMP_MASK) && !init_unkillable(p, sig, false)) {
		signal->flags = SIGNAL_GROUP_EXIT;
		signal->group_exit_code = W_SIGNALED(sig);
		signal->group_stop_count = 0;
		for (int i = 0; i < NR_TASKS; i++) {
			struct task_struct *q = &tasks[i];

			if (q->state == TASK_UNUSED || q->state == TASK_ZOMBIE ||
			    q->signal != signal)
				continue;
			q->jobctl = 0;
			q->pending.signal |= sigmask(SIGKILL);
			q->pending.info[SIGKILL - 1] =
				(struct ksiginfo){.signo = SIGKILL, .code = SI_KERNEL};
			signal_wake_up(q, true);
		}
		return;
	}
	signal_wake_up(t, sig == SIGKILL);
}

static int __send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t,
			   enum pid_type type, bool force)
{
	struct sigpending *pending;
	struct ksiginfo *slot;

	kernel_lock_assert_held("__send_sig_info");
	if (sig < 1 || sig > NSIG_LINUX)
		return -EINVAL;
	/*
	 * A thread that exited or a kernel context takes no signal (Linux: no
	 * sighand left); a group does while one of its threads lives.
	 */
	if (t->state == TASK_UNUSED || t->kthread || !t->signal)
		return 0;
	if (type == PIDTYPE_PID ? t->state == TASK_ZOMBIE || !t->mm : t->signal->live <= 0)
		return 0;
	/*
	 * prepare_signal (6.6): a group on its way out takes nothing more; the
	 * stop and SIGCONT rules act at sending, even for a signal then ignored
	 * (SIGCONT's default is to be ignored, once it has continued the group).
	 */
	if (t->signal->flags & SIGNAL_GROUP_EXIT)
		return 0;
	prepare_signal_jobctl(sig, t);
	if (sig_ignored(t, sig) || init_unkillable(t, sig, force))
		return 0;
	pending = type == PIDTYPE_PID ? &t->pending : &t->signal->shared_pending;
	slot = &pending->info[sig - 1];
	/* Linux's legacy_queue: a standard signal already pending is not queued twice. */
	if (!(pending->signal & sigmask(sig))) {
		if (info) {
			*slot = *info;
		} else {
			memset(slot, 0, sizeof(*slot));
			slot->code = SI_KERNEL;
		}
		slot->signo = sig;
		pending->signal |= sigmask(sig);
	}
	complete_signal(sig, t, type);
	return 0;
}

int do_send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t,
		     enum pid_type type)
{
	return __send_sig_info(sig, info, t, type, false);
}

int send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t)
{
	return __send_sig_info(sig, info, t, PIDTYPE_PID, false);
}

int send_sig(int sig, struct task_struct *t)
{
	struct task_struct *me = current;
	struct ksiginfo info = {.code = SI_USER, .pid = me->tgid, .uid = me->cred.uid};

	return send_sig_info(sig, &info, t);
}

bool sig_fatal_if_forced(const struct task_struct *t, int sig)
{
	uint64_t h = t->sighand->action[sig - 1].handler;

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
	struct kernel_sigaction *ka = &t->sighand->action[sig - 1];
	bool blocked = (t->sigmask & sigmask(sig)) != 0;

	if (blocked || ka->handler == SIG_IGN_HANDLER) {
		ka->handler = SIG_DFL_HANDLER;
		if (blocked)
			t->sigmask &= ~sigmask(sig);
	}
	__send_sig_info(sig, info, t, PIDTYPE_PID, true);
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
	if (sig == SIGCONT && current->signal->sid == t->signal->sid)
		return 0;
	return -EPERM;
}

/* Linux's group_send_sig_info: the permission check, then (signal 0: only it) the signal. */
static int group_send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t)
{
	int err = check_kill_permission(sig, t);

	if (err || !sig)
		return err;
	return do_send_sig_info(sig, info, t, PIDTYPE_TGID);
}

/* for_each_process: the group leaders (a thread is reached through its group). */
static bool is_process(const struct task_struct *t)
{
	return t->state != TASK_UNUSED && !t->kthread && thread_group_leader(t) &&
	       !(t->state == TASK_ZOMBIE && t->autoreap);
}

/* __kill_pgrp_info: 0 if any member got it, else the last error (-ESRCH: none). */
static int kill_pgrp_info(int sig, const struct ksiginfo *info, int pgrp)
{
	int retval = -ESRCH;
	bool success = false;

	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *p = &tasks[i];

		if (!is_process(p) || p->signal->pgid != pgrp)
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

		if (is_process(p) && p->signal->pgid == pgrp)
			success |= do_send_sig_info(sig, 0, p, PIDTYPE_TGID) == 0;
	}
	return success ? 0 : -ESRCH;
}

/* Linux's kill_something_info (linux/kernel/signal.c), the four pid cases of kill(2). */
int kill_something_info(int sig, const struct ksiginfo *info, int pid)
{
	struct task_struct *me = current;

	if (pid > 0) {
		struct task_struct *p = find_task_by_pid(pid);

		/* a thread's id names its process too, as Linux's kill_pid_info */
		return p && !p->kthread ? group_send_sig_info(sig, info, p) : -ESRCH;
	}
	if (pid == (int)0x80000000)
		return -ESRCH; /* -INT_MIN overflows: Linux refuses it the same way */
	if (pid != -1)
		return kill_pgrp_info(sig, info, pid ? -pid : me->signal->pgid);
	/* -1: every process but init and the caller that the caller may signal. */
	int retval = 0, count = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *p = &tasks[i];
		int err;

		if (!is_process(p) || p->tgid <= 1 || same_thread_group(p, me))
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
	int sig = t->exit_signal, status = task_exit_status(t);
	bool autoreap = false;

	if (!p)
		return false;
	info.utime = (int64_t)(READ_ONCE(t->utime) + t->signal->utime); /* the whole group's */
	info.stime = (int64_t)(READ_ONCE(t->stime) + t->signal->stime);
	info.status = status & 0x7f;
	if (status & 0x80)
		info.code = CLD_DUMPED;
	else if (status & 0x7f)
		info.code = CLD_KILLED;
	else
		info.status = (status >> 8) & 0xff;
	/* 6.6: only a SIGCHLD child is auto-reaped; the signal goes to the parent's group. */
	if (sig == SIGCHLD && (p->sighand->action[SIGCHLD - 1].handler == SIG_IGN_HANDLER ||
			       (p->sighand->action[SIGCHLD - 1].flags & SA_NOCLDWAIT))) {
		autoreap = true;
		if (p->sighand->action[SIGCHLD - 1].handler == SIG_IGN_HANDLER)
			sig = 0;
	}
	if (sig > 0 && sig <= NSIG_LINUX) /* valid_signal: legacy clone takes any exit signal */
		do_send_sig_info(sig, &info, p, PIDTYPE_TGID);
	return autoreap;
}

/* Linux's flush_signal_handlers(t, 0) at exec, and the alternate stack goes too. */
void flush_signal_actions(struct sighand_struct *sh)
{
	for (int i = 0; i < NSIG_LINUX; i++) {
		struct kernel_sigaction *ka = &sh->action[i];

		if (ka->handler != SIG_IGN_HANDLER)
			ka->handler = SIG_DFL_HANDLER;
		ka->flags = ka->restorer = ka->mask = 0;
	}
}

void flush_signal_handlers(struct task_struct *t)
{
	flush_signal_actions(t->sighand);
	t->sas_ss_sp = t->sas_ss_size = 0;
}
