/*
 * The signal system calls (Linux 2.6.29's kernel/signal.c and
 * arch/x86/kernel/signal.c): rt_sigaction, rt_sigprocmask, rt_sigreturn,
 * sigaltstack, kill, tkill, tgkill, pause, rt_sigsuspend, rt_sigpending,
 * rt_sigtimedwait.  Sending and delivery are kernel/task/signal*.c's.
 */
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/signal.h"

#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* flush_sigqueue_mask on the group's shared set and on each of its threads' (6.6 do_sigaction). */
static void flush_sig_everywhere(struct task_struct *me, int sig)
{
	me->signal->shared_pending.signal &= ~sigmask(sig);
	/*
	 * Handlers shared by no other task (count: the live slots that hold
	 * them; the idle tasks' init_sighand is not counted): only this
	 * task's set, without the walk of the whole table, 390 of the 880
	 * instructions such an rt_sigaction cost (posix_spawn's child makes
	 * six, resetting every handler before its exec).
	 */
	if (me->sighand->count == 1 && me->sighand != &init_sighand) {
		me->pending.signal &= ~sigmask(sig);
		return;
	}
	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state != TASK_UNUSED && tasks[i].sighand == me->sighand)
			tasks[i].pending.signal &= ~sigmask(sig);
}

/*
 * i386's struct sigaction for rt_sigaction (6.6 include/linux/compat.h,
 * struct compat_sigaction): 32-bit handler, flags, restorer, then the
 * 64-bit mask as two words, low first.
 */
struct compat_sigaction {
	uint32_t handler, flags, restorer;
	uint32_t mask[2];
};

static int get_action(uint64_t uact, bool ia32, struct kernel_sigaction *act)
{
	struct compat_sigaction c;

	if (!ia32)
		return copy_from_user(act, uact, sizeof(*act));
	if (copy_from_user(&c, uact, sizeof(c)))
		return -EFAULT;
	*act = (struct kernel_sigaction){c.handler, c.flags, c.restorer,
					 c.mask[0] | (uint64_t)c.mask[1] << 32};
	return 0;
}

static int put_action(uint64_t uact, bool ia32, const struct kernel_sigaction *act)
{
	struct compat_sigaction c = {(uint32_t)act->handler,
				     (uint32_t)act->flags,
				     (uint32_t)act->restorer,
				     {(uint32_t)act->mask, (uint32_t)(act->mask >> 32)}};

	return ia32 ? copy_to_user(uact, &c, sizeof(c)) : copy_to_user(uact, act, sizeof(*act));
}

static long do_rt_sigaction(const struct syscall_args *a, bool ia32)
{
	int sig = (int)a->a0;
	struct kernel_sigaction act, *slot;

	if (a->a3 != sizeof(uint64_t) || sig < 1 || sig > NSIG_LINUX)
		return -EINVAL;
	slot = &current->sighand->action[sig - 1];
	if (a->a1 && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (a->a1 && get_action(a->a1, ia32, &act))
		return -EFAULT;
	if (a->a2 && put_action(a->a2, ia32, slot))
		return -EFAULT;
	if (a->a1) {
		act.mask &= ~SIG_UNBLOCKABLE;
		*slot = act;
		/*
		 * POSIX 3.3.1.3, as Linux's do_sigaction: setting SIG_IGN (or a
		 * default that ignores) discards the signal if it is pending.
		 */
		if (act.handler == SIG_IGN_HANDLER ||
		    (act.handler == SIG_DFL_HANDLER &&
		     (sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH)))
			flush_sig_everywhere(current, sig);
	}
	return 0;
}

long sys_rt_sigaction(const struct syscall_args *a)
{
	return do_rt_sigaction(a, false);
}

/* compat_sys_rt_sigaction (6.6 linux/kernel/signal.c): struct compat_sigaction in and out. */
long compat_sys_rt_sigaction(const struct syscall_args *a)
{
	return do_rt_sigaction(a, true);
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
		set &= ~SIG_UNBLOCKABLE;
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
	return 0; /* a signal it unblocked is delivered on the way out (exit_to_user_mode) */
}

long sys_rt_sigreturn(const struct syscall_args *a)
{
	(void)a;
	return do_rt_sigreturn(current->regs);
}

/* i386's sigreturn (119) and rt_sigreturn (173): Linux 6.6's sys32_sigreturn, sys32_rt_sigreturn.
 */
long sys32_sigreturn(const struct syscall_args *a)
{
	(void)a;
	return do_ia32_sigreturn(current->regs);
}

long sys32_rt_sigreturn(const struct syscall_args *a)
{
	(void)a;
	return do_ia32_rt_sigreturn(current->regs);
}

long sys_sigaltstack(const struct syscall_args *a)
{
	return do_sigaltstack(a->a0, a->a1, current->regs->rsp);
}

long compat_sys_sigaltstack(const struct syscall_args *a)
{
	return do_compat_sigaltstack(a->a0, a->a1, (uint32_t)current->regs->rsp);
}

static struct ksiginfo user_info(int code)
{
	struct ksiginfo info = {.code = code, .pid = current->tgid, .uid = current->cred.uid};

	return info;
}

long sys_kill(const struct syscall_args *a)
{
	int sig = (int)a->a1;
	struct ksiginfo info = user_info(SI_USER);

	if (sig < 0 || sig > NSIG_LINUX)
		return -EINVAL;
	return kill_something_info(sig, &info, (int)a->a0);
}

/* do_tkill (6.6): to one thread; tgid <= 0 means no check (tkill), else it must be the thread's. */
static long do_tkill(int tgid, int pid, int sig)
{
	struct ksiginfo info = user_info(SI_TKILL);
	struct task_struct *p = find_task_by_pid(pid);
	int err;

	if (pid <= 0 || sig < 0 || sig > NSIG_LINUX)
		return -EINVAL;
	if (!p || p->kthread || (tgid > 0 && p->tgid != tgid))
		return -ESRCH;
	err = check_kill_permission(sig, p);
	if (err || !sig)
		return err;
	return send_sig_info(sig, &info, p);
}

long sys_tkill(const struct syscall_args *a)
{
	return do_tkill(0, (int)a->a0, (int)a->a1);
}

long sys_tgkill(const struct syscall_args *a)
{
	if ((int)a->a0 <= 0 || (int)a->a1 <= 0)
		return -EINVAL;
	return do_tkill((int)a->a0, (int)a->a1, (int)a->a2);
}

/* sys_pause: sleeps until a signal; -ERESTARTNOHAND is EINTR once a handler ran. */
long sys_pause(const struct syscall_args *a)
{
	struct task_struct *t = current;

	(void)a;
	while (!signal_pending(t))
		sleep_on_interruptible(&t->saved_sigmask, 0, (const void *)sys_pause);
	return -ERESTARTNOHAND;
}

long sys_rt_sigsuspend(const struct syscall_args *a)
{
	uint64_t set;

	if (a->a1 != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(&set, a->a0, sizeof(set)))
		return -EFAULT;
	return sigsuspend(set);
}

long sys_rt_sigpending(const struct syscall_args *a)
{
	struct task_struct *t = current;
	uint64_t set = (t->pending.signal | t->signal->shared_pending.signal) & t->sigmask;

	if (a->a1 != sizeof(uint64_t))
		return -EINVAL;
	return copy_to_user(a->a0, &set, sizeof(set)) ? -EFAULT : 0;
}

/* The siginfo_t rt_sigtimedwait returns (the fields a signal here carries). */
static int copy_siginfo_out(uint64_t uinfo, const struct ksiginfo *info)
{
	struct siginfo si;

	memset(&si, 0, sizeof(si));
	si.si_signo = info->signo;
	si.si_code = info->code;
	if (info->code <= 0) {
		si.kill.pid = info->pid;
		si.kill.uid = info->uid;
	} else if (info->code != SI_KERNEL && info->signo == SIGCHLD) {
		si.chld.pid = info->pid;
		si.chld.uid = info->uid;
		si.chld.status = info->status;
	} else if (info->code != SI_KERNEL) {
		si.fault.addr = info->addr;
	}
	return copy_to_user(uinfo, &si, sizeof(si));
}

/*
 * rt_sigtimedwait(set, info, timeout, sigsetsize), as Linux's do_sigtimedwait:
 * a pending signal of `set` is taken without its handler; otherwise the
 * task sleeps with `set` unblocked until one comes (its number), the
 * timeout passes (EAGAIN) or another signal interrupts (EINTR).
 */
long sys_rt_sigtimedwait(const struct syscall_args *a)
{
	struct task_struct *t = current;
	struct ksiginfo info;
	uint64_t set, deadline = 0;
	int sig;

	if (a->a3 != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(&set, a->a0, sizeof(set)))
		return -EFAULT;
	set &= ~SIG_UNBLOCKABLE;
	if (a->a2) {
		int64_t ts[2];

		if (copy_from_user(ts, a->a2, sizeof(ts)))
			return -EFAULT;
		if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (int64_t)NSEC_PER_SEC)
			return -EINVAL;
		if ((uint64_t)ts[0] > 1000000)
			ts[0] = 1000000;
		/* a deadline on CLOCK_MONOTONIC, as Linux's hrtimer; a zero timeout is a poll */
		deadline = ktime_get_ns() + (uint64_t)ts[0] * NSEC_PER_SEC + (uint64_t)ts[1];
	}
	sig = dequeue_signal(t, set, &info);
	if (!sig) {
		uint64_t blocked = t->sigmask;

		t->sigmask &= ~set; /* real_blocked: what it waits for must wake it */
		while (!signal_pending(t) && !deadline_passed(deadline))
			sleep_on_interruptible(&t->saved_sigmask,
					       deadline ? jiffies_for_deadline(deadline) : 0,
					       (const void *)sys_rt_sigtimedwait);
		t->sigmask = blocked;
		sig = dequeue_signal(t, set, &info);
		if (!sig)
			return signal_pending(t) ? -EINTR : -EAGAIN;
	}
	if (a->a1 && copy_siginfo_out(a->a1, &info))
		return -EFAULT;
	return sig;
}
