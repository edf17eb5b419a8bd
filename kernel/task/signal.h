/*
 * Signals (Linux's kernel/signal.c and arch/x86/kernel/signal.c, reduced):
 * one pending bit and one siginfo per signal and task (a second instance of
 * a pending signal is merged, as Linux does for signals below SIGRTMIN; real-time
 * signals are not queued more than once here), the blocked mask, delivery on every
 * return to user mode with Linux's x86_64 rt_sigframe, and the restart rules of
 * interrupted system calls.
 */
#ifndef KERNEL_TASK_SIGNAL_H
#define KERNEL_TASK_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch/traps.h"
#include "kernel/task/task.h"

#define SIGHUP	  1
#define SIGINT	  2
#define SIGQUIT	  3
#define SIGILL	  4
#define SIGTRAP	  5
#define SIGABRT	  6
#define SIGBUS	  7
#define SIGFPE	  8
#define SIGKILL	  9
#define SIGUSR1	  10
#define SIGSEGV	  11
#define SIGUSR2	  12
#define SIGPIPE	  13
#define SIGALRM	  14
#define SIGTERM	  15
#define SIGSTKFLT 16
#define SIGCHLD	  17
#define SIGCONT	  18
#define SIGSTOP	  19
#define SIGTSTP	  20
#define SIGTTIN	  21
#define SIGTTOU	  22
#define SIGURG	  23
#define SIGXCPU	  24
#define SIGXFSZ	  25
#define SIGVTALRM 26
#define SIGPROF	  27
#define SIGWINCH  28
#define SIGIO	  29
#define SIGPWR	  30
#define SIGSYS	  31

#define sigmask(sig)	(1ULL << ((sig)-1))
#define SIG_UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))

/* sa_flags (include/uapi/asm-generic/signal.h, x86 values). */
#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

/* si_code values (include/uapi/asm-generic/siginfo.h). */
#define SI_USER	      0
#define SI_KERNEL     0x80
#define SI_TKILL      (-6)
#define ILL_ILLOPN    2
#define FPE_INTDIV    1
#define FPE_FLTDIV    3
#define FPE_FLTOVF    4
#define FPE_FLTUND    5
#define FPE_FLTRES    6
#define FPE_FLTINV    7
#define SEGV_MAPERR   1
#define SEGV_ACCERR   2
#define BUS_ADRALN    1
#define BUS_ADRERR    2
#define TRAP_BRKPT    1
#define TRAP_TRACE    2
#define CLD_EXITED    1
#define CLD_KILLED    2
#define CLD_DUMPED    3
#define CLD_TRAPPED   4
#define CLD_STOPPED   5
#define CLD_CONTINUED 6

/* sigaltstack's ss_flags. */
#define SS_ONSTACK  1
#define SS_DISABLE  2
#define MINSIGSTKSZ 2048

/*
 * Restart codes (include/linux/errno.h): a system call interrupted by a
 * signal returns one of these; they never reach user space (do_signal turns
 * them into EINTR or rewinds the syscall instruction).
 */
#define ERESTARTSYS	      512
#define ERESTARTNOINTR	      513
#define ERESTARTNOHAND	      514
#define ERESTART_RESTARTBLOCK 516

/*
 * A thread's signals: its own pending set (tkill, faults) and its group's
 * shared one (kill), against its own mask (task.h, sched_signal.h).
 */
static inline bool sig_unblocked_pending(const struct task_struct *t)
{
	uint64_t pending = t->pending.signal | (t->signal ? t->signal->shared_pending.signal : 0);

	return (pending & ~(t->sigmask & ~SIG_UNBLOCKABLE)) != 0;
}
/* SIGKILL is queued to the thread (zap_other_threads, a fatal group signal): it is ending. */
static inline bool fatal_signal_pending(const struct task_struct *t)
{
	return (t->pending.signal & (1ULL << 8)) != 0;
}
/*
 * A signal is pending that the task does not block, or the task is to take
 * part in a group stop (Linux sets TIF_SIGPENDING for both): sleeps end
 * with -ERESTARTSYS and get_signal runs on the way out.
 */
static inline bool signal_pending(const struct task_struct *t)
{
	return sig_unblocked_pending(t) || (t->jobctl & JOBCTL_STOP_PENDING);
}

/* Who a signal is for (Linux's enum pid_type): one thread, or its whole group. */
enum pid_type { PIDTYPE_PID, PIDTYPE_TGID };
/*
 * Queues sig for thread t (PIDTYPE_PID) or for t's group (PIDTYPE_TGID:
 * the shared set, taken by a thread that does not block it); info NULL:
 * SI_KERNEL.  0, or -EINVAL for a bad number.
 */
int do_send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t,
		     enum pid_type type);
/* Thread-directed (tkill, the kernel's own signals to one task). */
int send_sig_info(int sig, const struct ksiginfo *info, struct task_struct *t);
/* exit_group, a fatal signal, exec from a thread: SIGKILL to every other thread of t's group. */
void zap_other_threads(struct task_struct *t);
/* As Linux's send_sig(sig, t, 0): from the kernel, si_code SI_USER, the sender's pid. */
int send_sig(int sig, struct task_struct *t);
/*
 * A synchronous signal the task caused (a fault): as Linux 2.6.29's
 * force_sig_info, a blocked or ignored one is unblocked and reset to its
 * default action first, so it cannot be lost or loop.
 */
void force_sig_fault(int sig, int code, uint64_t addr);
void force_sig(int sig);
/* Would sig, sent to t now, kill it (no handler, or blocked so that force_sig resets it)? */
bool sig_fatal_if_forced(const struct task_struct *t, int sig);

/* Linux's kill_ok_by_cred (plus SIGCONT in the same session): 0 or -EPERM. */
int check_kill_permission(int sig, const struct task_struct *t);
/* kill(2)'s pid rules: > 0, 0 (own group), -1 (all permitted), < -1 (group). */
int kill_something_info(int sig, const struct ksiginfo *info, int pid);

/* From the kernel (SI_KERNEL, no permission check) to every process of a group. */
int kill_pgrp(int pgrp, int sig);

/* Exit: SIGCHLD to the parent; true when the child is to be reaped at once (SIG_IGN /
 * SA_NOCLDWAIT). */
bool do_notify_parent(struct task_struct *t);
/*
 * signal_wake_up: a thread with something pending leaves an interruptible
 * sleep; with resume (SIGKILL) a stopped one runs again too.
 */
void signal_wake_up(struct task_struct *t, bool resume);

/* Job control (jobctl.c). */
/* prepare_signal's part: a stop signal flushes SIGCONT; SIGCONT flushes the stops, continues. */
void prepare_signal_jobctl(int sig, struct task_struct *p);
/* get_signal's stop (signr 0: take part in the group stop under way); false: no stop. */
bool do_signal_stop(int signr);
/* SIGCHLD with CLD_STOPPED or CLD_CONTINUED to the leader's parent (no SA_NOCLDSTOP). */
void do_notify_parent_cldstop(struct task_struct *tsk, int why);
/* The caller's process group has no parent outside it in its session: no job-control stop. */
bool is_current_pgrp_orphaned(void);
/* exit: a pending part in a group stop is given up, the stop may complete. */
void exit_signals(struct task_struct *t);
/* exit: SIGHUP and SIGCONT to a group left orphaned with a stopped member. */
void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent);

/* exec: caught signals back to SIG_DFL (flush_signal_handlers), no alternate stack. */
void flush_signal_handlers(struct task_struct *t);
/* Linux's flush_signal_handlers(t, 0) on one set of actions: caught ones to SIG_DFL, SIG_IGN kept.
 */
void flush_signal_actions(struct sighand_struct *sh);

/*
 * The way back to ring 3 (system calls: nr >= 0, the call's number; interrupts
 * and faults: -1): preemption, then every pending signal is acted on.
 */
void exit_to_user_mode(struct trap_frame *f, long nr);
/*
 * Whether exit_to_user_mode has anything to do: a call that ran without
 * the kernel lock returns at once when not (syscall.c).  Read without the
 * lock: a signal or a wakeup that lands after this look kicks the CPU
 * (kick_process, the reschedule IPI), which takes the interrupt as soon as
 * it is back in ring 3, and the interrupt's way back delivers it.
 */
bool exit_to_user_mode_pending(const struct trap_frame *f, long nr);
/* rt_sigreturn: the registers, mask and FPU state from the frame at f->rsp - 8. */
long do_rt_sigreturn(struct trap_frame *f);
/* IA-32 sigreturn (frame at esp - 8) and rt_sigreturn (esp - 4): kernel/task/signal_32.c. */
long do_ia32_sigreturn(struct trap_frame *f);
long do_ia32_rt_sigreturn(struct trap_frame *f);
/* i386's sigaltstack (186): compat_stack_t, else as do_sigaltstack. */
long do_compat_sigaltstack(uint64_t uss, uint64_t uoss, uint64_t sp);
/* sigaltstack; sp is the caller's user stack pointer. */
long do_sigaltstack(uint64_t uss, uint64_t uoss, uint64_t sp);
/* pause / rt_sigsuspend: sleep until a signal (-ERESTARTNOHAND); the mask set while asleep. */
long sigsuspend(uint64_t newmask);
/* wait for one of `set` (rt_sigtimedwait); timeout_ticks 0 = forever. */
int dequeue_signal(struct task_struct *t, uint64_t allowed, struct ksiginfo *info);

#endif
