/*
 * Delivering signals on the way back to ring 3, after Linux 2.6.29's
 * arch/x86/kernel/signal.c (x86_64): the rt_sigframe (the same layout from
 * 2.6.29 to 6.x; its FPU state is XSAVE's area with uc_flags UC_FP_XSTATE,
 * as both versions give it on a CPU with xsave: kernel/task/signal_fpu.c),
 * the restart rules of interrupted system calls, rt_sigreturn and the
 * alternate signal stack.
 */
#include "kernel/arch/gdt.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/xstate.h"
#include "kernel/lib/compiler.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/task/signal_frame.h"
#include "kernel/uapi/signal.h"

/* arch/x86/include/uapi/asm/sigcontext.h (struct sigcontext, 64-bit; 2.6.29's __pad0 is 6.x's ss).
 */
struct sigcontext_k {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t di, si, bp, bx, dx, ax, cx, sp, ip;
	uint64_t flags;
	uint16_t cs, gs, fs, pad0;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate; /* struct _fpstate *: XSAVE's area (or the FXSAVE image), or 0 */
	uint64_t reserved1[8];
};

struct ucontext_k { /* arch/x86/include/asm/ucontext.h: the kernel's struct ucontext */
	uint64_t uc_flags, uc_link;
	struct stack_k uc_stack;
	struct sigcontext_k uc_mcontext;
	uint64_t uc_sigmask;
};

struct rt_sigframe_k { /* arch/x86/include/asm/sigframe.h, x86_64 */
	uint64_t pretcode;
	struct ucontext_k uc;
	struct siginfo info;
	/* the fpstate lies above, 64-byte aligned */
};

_Static_assert(sizeof(struct sigcontext_k) == 256, "struct sigcontext is 256 bytes");
_Static_assert(sizeof(struct ucontext_k) == 304, "struct ucontext is 304 bytes");
_Static_assert(sizeof(struct rt_sigframe_k) == 440, "rt_sigframe is 440 bytes");

#define REDZONE	      128
#define X86_EFLAGS_TF 0x100
#define X86_EFLAGS_DF 0x400
#define X86_EFLAGS_RF 0x10000
/* Linux 2.6.29's FIX_EFLAGS on x86_64: the flags a user may restore. */
#define FIX_EFLAGS                                                                                 \
	(0x40000 /* AC */ | 0x800 /* OF */ | X86_EFLAGS_DF | X86_EFLAGS_TF | 0x80 /* SF */ |       \
	 0x40 /* ZF */ | 0x10 /* AF */ | 0x4 /* PF */ | 0x1 /* CF */)
#define SIG_KERNEL_IGNORE_MASK                                                                     \
	(sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | sigmask(SIGURG))
#define SIG_KERNEL_STOP_MASK                                                                       \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

bool on_sig_stack(const struct task_struct *t, uint64_t sp)
{
	return sp - t->sas_ss_sp < t->sas_ss_size; /* 2.6.29's, unsigned */
}

int sas_ss_flags(const struct task_struct *t, uint64_t sp)
{
	return !t->sas_ss_size ? SS_DISABLE : on_sig_stack(t, sp) ? SS_ONSTACK : 0;
}

static int __dequeue_signal(struct sigpending *pending, uint64_t allowed, struct ksiginfo *info)
{
	uint64_t ready = pending->signal & allowed;
	int sig;

	if (!ready)
		return 0;
	sig = __builtin_ctzll(ready) + 1; /* 2.6.29's next_signal: the lowest first */
	pending->signal &= ~sigmask(sig);
	*info = pending->info[sig - 1];
	return sig;
}

/* Linux's dequeue_signal: the thread's own signals first, then its group's. */
int dequeue_signal(struct task_struct *t, uint64_t allowed, struct ksiginfo *info)
{
	int sig = __dequeue_signal(&t->pending, allowed, info);

	return sig ? sig : __dequeue_signal(&t->signal->shared_pending, allowed, info);
}

/*
 * Linux 6.6's get_signal: the next signal the task does not block; default
 * actions happen here (ignore, stop the group, or terminate: "core"
 * terminates alike, no core file is written so the status has no 0x80
 * bit).  Returns the signal with a handler to run, its action copied
 * before SA_RESETHAND.
 */
static int get_signal(struct ksiginfo *info, struct kernel_sigaction *ka_out)
{
	struct task_struct *t = current;
	struct signal_struct *signal = t->signal;

relock:
	/*
	 * Every stopped thread comes here once woken: the first one tells the
	 * parent what SIGCONT found (prepare_signal_jobctl's SIGNAL_CLD_* bits).
	 */
	if (signal->flags & SIGNAL_CLD_MASK) {
		int why = (signal->flags & SIGNAL_CLD_CONTINUED) ? CLD_CONTINUED : CLD_STOPPED;

		signal->flags &= ~SIGNAL_CLD_MASK;
		do_notify_parent_cldstop(t, why);
	}
	for (;;) {
		int sig;
		struct kernel_sigaction *ka;

		/*
		 * Another thread ended the group (exit_group, a fatal signal, an
		 * exec): this one goes too.
		 */
		if ((signal->flags & SIGNAL_GROUP_EXIT) ||
		    (signal->group_exit_task && signal->group_exit_task != t)) {
			t->pending.signal &= ~sigmask(SIGKILL);
			do_group_exit(signal->group_exit_code);
		}
		/* Another thread started a group stop: this one stops too. */
		if ((t->jobctl & JOBCTL_STOP_PENDING) && do_signal_stop(0))
			goto relock;
		sig = dequeue_signal(t, ~t->sigmask | SIG_UNBLOCKABLE, info);
		if (!sig)
			return 0;
		ka = &t->sighand->action[sig - 1];
		if (ka->handler == SIG_IGN_HANDLER)
			continue;
		if (ka->handler != SIG_DFL_HANDLER) {
			*ka_out = *ka;
			if (ka->flags & SA_RESETHAND)
				ka->handler = SIG_DFL_HANDLER;
			return sig;
		}
		if (sigmask(sig) & SIG_KERNEL_IGNORE_MASK)
			continue;
		if (sigmask(sig) & SIG_KERNEL_STOP_MASK) {
			/*
			 * Global init is not stopped (SIGNAL_UNKILLABLE); the
			 * job-control signals do nothing in an orphaned process
			 * group, SIGSTOP always stops.
			 */
			if (t->tgid == 1 || (sig != SIGSTOP && is_current_pgrp_orphaned()))
				continue;
			if (do_signal_stop(sig))
				goto relock;
			continue; /* the group is exiting: no stop */
		}
		do_group_exit(W_SIGNALED(sig));
	}
}

/* copy_siginfo_to_user: the union member the si_code's class uses, the rest zero. */
static void fill_siginfo(struct siginfo *si, const struct ksiginfo *info)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = info->signo;
	si->si_code = info->code;
	if (info->code <= 0) { /* SI_USER, SI_TKILL, SI_QUEUE: from a process */
		si->kill.pid = info->pid;
		si->kill.uid = info->uid;
	} else if (info->code == SI_KERNEL) {
		return;
	} else if (info->signo == SIGCHLD) {
		si->chld.pid = info->pid;
		si->chld.uid = info->uid;
		si->chld.status = info->status;
		si->chld.utime = (int64_t)jiffies_to_clock_t((uint64_t)info->utime);
		si->chld.stime = (int64_t)jiffies_to_clock_t((uint64_t)info->stime);
	} else {
		si->fault.addr = info->addr;
	}
}

static uint64_t round_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

/*
 * get_sigframe (2.6.29): below the red zone, or at the top of the alternate
 * stack (SA_ONSTACK, not already on it); the FPU state 64-byte aligned,
 * the frame so that rsp + 8 is 16-byte aligned at the handler's entry, as
 * after a call.  ~0: the frame would overflow the alternate stack.
 */
static uint64_t get_sigframe(const struct kernel_sigaction *ka, const struct trap_frame *f,
			     uint64_t *fpstate)
{
	struct task_struct *t = current;
	uint64_t sp = f->rsp;
	bool onsigstack = on_sig_stack(t, sp);

	sp -= REDZONE;
	if (!onsigstack && (ka->flags & SA_ONSTACK) && t->sas_ss_size)
		sp = t->sas_ss_sp + t->sas_ss_size;
	sp = round_down(sp - xstate_sigframe_size(), 64);
	*fpstate = sp;
	sp = round_down(sp - sizeof(struct rt_sigframe_k), 16) - 8;
	if (onsigstack && !on_sig_stack(t, sp))
		return ~0ULL;
	return sp;
}

/* __setup_rt_frame (x86_64): 0, or -EFAULT when the frame cannot be written. */
static int setup_rt_frame(int sig, const struct ksiginfo *info, const struct kernel_sigaction *ka,
			  uint64_t set, struct trap_frame *f)
{
	struct task_struct *t = current;
	struct rt_sigframe_k fr;
	struct sigcontext_k *sc = &fr.uc.uc_mcontext;
	uint64_t fp, frame;

	/* Linux 6.6's setup_rt_frame: an IA-32 task gets i386's frames (signal_32.c). */
	if (t->ia32)
		return ka->flags & SA_SIGINFO ? ia32_setup_rt_frame(sig, info, ka, set, f)
					      : ia32_setup_frame(sig, ka, set, f);
	frame = get_sigframe(ka, f, &fp);
	/* x86_64 must have a restorer: without one Linux fails the frame (SIGSEGV). */
	if (frame == ~0ULL || !(ka->flags & SA_RESTORER))
		return -EFAULT;
	memset(&fr, 0, sizeof(fr));
	fr.pretcode = ka->restorer;
	fr.uc.uc_flags = fpu_user_cfg.use_xsave ? UC_FP_XSTATE : 0;
	fr.uc.uc_stack.ss_sp = t->sas_ss_sp;
	fr.uc.uc_stack.ss_flags = sas_ss_flags(t, f->rsp);
	fr.uc.uc_stack.ss_size = t->sas_ss_size;
	*sc = (struct sigcontext_k){
		.r8 = f->r8,
		.r9 = f->r9,
		.r10 = f->r10,
		.r11 = f->r11,
		.r12 = f->r12,
		.r13 = f->r13,
		.r14 = f->r14,
		.r15 = f->r15,
		.di = f->rdi,
		.si = f->rsi,
		.bp = f->rbp,
		.bx = f->rbx,
		.dx = f->rdx,
		.ax = f->rax,
		.cx = f->rcx,
		.sp = f->rsp,
		.ip = f->rip,
		.flags = f->rflags,
		.cs = (uint16_t)f->cs,
		.err = t->error_code,
		.trapno = t->trap_nr,
		.oldmask = set,
		.cr2 = t->cr2,
		.fpstate = fp,
	};
	fr.uc.uc_sigmask = set;
	if (ka->flags & SA_SIGINFO)
		fill_siginfo(&fr.info, info);
	/* The user's FPU state is live in the CPU here (saved only on a switch). */
	if (copy_fpstate_to_sigframe(fp, false, 0) || copy_to_user(frame, &fr, sizeof(fr)))
		return -EFAULT;
	f->rdi = (uint64_t)sig;
	f->rax = 0; /* in case the handler was declared without a prototype */
	f->rsi = frame + offsetof(struct rt_sigframe_k, info);
	f->rdx = frame + offsetof(struct rt_sigframe_k, uc);
	f->rip = ka->handler;
	f->rsp = frame;
	f->cs = USER_CS;
	f->ss = USER_DS;
	return 0;
}

static bool is_restart(uint64_t rax)
{
	long r = -(long)rax;

	return r == ERESTARTSYS || r == ERESTARTNOINTR || r == ERESTARTNOHAND ||
	       r == ERESTART_RESTARTBLOCK;
}

/* handle_signal (6.6, the same rules as 2.6.29): the restart decision, the frame, the mask. */
static void handle_signal(int sig, const struct ksiginfo *info, const struct kernel_sigaction *ka,
			  struct trap_frame *f, long nr)
{
	struct task_struct *t = current;
	uint64_t set = t->restore_sigmask ? t->saved_sigmask : t->sigmask;

	if (nr >= 0 && is_restart(f->rax)) {
		switch (-(long)f->rax) {
		case ERESTART_RESTARTBLOCK:
		case ERESTARTNOHAND:
			f->rax = (uint64_t)-EINTR;
			break;
		case ERESTARTSYS:
			if (!(ka->flags & SA_RESTART)) {
				f->rax = (uint64_t)-EINTR;
				break;
			}
			__attribute__((fallthrough));
		case ERESTARTNOINTR:
			f->rax = (uint64_t)nr;
			f->rip -= 2; /* back onto the syscall instruction */
			break;
		}
	}
	if (setup_rt_frame(sig, info, ka, set, f) < 0) {
		/* force_sigsegv: a frame that cannot be written kills with SIGSEGV. */
		if (sig == SIGSEGV)
			t->sighand->action[SIGSEGV - 1].handler = SIG_DFL_HANDLER;
		force_sig(SIGSEGV);
		return;
	}
	f->rflags &= ~(uint64_t)(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	fpu_reset_current();
	/* signal_delivered: the handler runs with sa_mask and (unless SA_NODEFER) sig blocked. */
	t->restore_sigmask = false;
	t->sigmask |= ka->mask;
	if (!(ka->flags & SA_NODEFER))
		t->sigmask |= sigmask(sig);
	t->sigmask &= ~SIG_UNBLOCKABLE;
}

static void do_signal(struct trap_frame *f, long nr)
{
	struct task_struct *t = current;
	struct ksiginfo info;
	struct kernel_sigaction ka;
	int sig = get_signal(&info, &ka);

	if (sig) {
		handle_signal(sig, &info, &ka, f, nr);
		return;
	}
	/* No handler ran: an interrupted call starts again (ERESTART_RESTARTBLOCK is not used). */
	if (nr >= 0 && is_restart(f->rax)) {
		f->rax = (uint64_t)nr;
		f->rip -= 2;
	}
	if (t->restore_sigmask) {
		t->restore_sigmask = false;
		t->sigmask = t->saved_sigmask;
	}
}

/* What do_signal has to act on before ring 3: a signal, a restart, a mask to restore. */
static bool signal_work(const struct task_struct *t, const struct trap_frame *f, long nr)
{
	return signal_pending(t) || (nr >= 0 && is_restart(f->rax)) || t->restore_sigmask;
}

bool exit_to_user_mode_pending(const struct trap_frame *f, long nr)
{
	return READ_ONCE(current->need_resched) ||
	       signal_work(current, f, nr); /* set by other CPUs */
}

/* exit_to_user_mode's work, out of line: do_signal's frame is 600 bytes. */
static __attribute__((noinline)) void exit_to_user_mode_work(struct trap_frame *f, long nr)
{
	struct task_struct *t = current;

	preempt_from_user();
	while (signal_work(t, f, nr)) {
		do_signal(f, nr);
		nr = -1; /* the restart decision is taken once */
		preempt_from_user();
	}
}

/*
 * Nothing to do, the common case, is known from the flags without the
 * work function's frame (its prologue, stack protector and epilogue were
 * 40 of the 56 instructions every locked system call spent here).
 */
void exit_to_user_mode(struct trap_frame *f, long nr)
{
	struct task_struct *t = current;

	if (t->need_resched || signal_work(t, f, nr))
		exit_to_user_mode_work(f, nr);
}

/* 2.6.29's do_sigaltstack; the caller has copied *uss (NULL: query only). */
long set_altstack(const struct stack_k *ss, uint64_t sp)
{
	struct task_struct *t = current;
	uint64_t ss_sp = ss->ss_sp, ss_size = ss->ss_size;

	if (on_sig_stack(t, sp))
		return -EPERM;
	if (ss->ss_flags != SS_DISABLE && ss->ss_flags != SS_ONSTACK && ss->ss_flags != 0)
		return -EINVAL;
	if (ss->ss_flags == SS_DISABLE) {
		ss_size = 0;
		ss_sp = 0;
	} else if (ss_size < MINSIGSTKSZ) {
		return -ENOMEM;
	}
	t->sas_ss_sp = ss_sp;
	t->sas_ss_size = ss_size;
	return 0;
}

long do_sigaltstack(uint64_t uss, uint64_t uoss, uint64_t sp)
{
	struct task_struct *t = current;
	struct stack_k oss = {.ss_sp = t->sas_ss_sp, .ss_size = t->sas_ss_size}, ss;
	long err;

	oss.ss_flags = sas_ss_flags(t, sp);
	if (uss) {
		if (copy_from_user(&ss, uss, sizeof(ss)))
			return -EFAULT;
		err = set_altstack(&ss, sp);
		if (err)
			return err;
	}
	if (uoss && copy_to_user(uoss, &oss, sizeof(oss)))
		return -EFAULT;
	return 0;
}

static bool canonical(uint64_t a)
{
	return a < (1ULL << 47) || a >= 0xffff800000000000ULL;
}

/*
 * rt_sigreturn (2.6.29's sys_rt_sigreturn and restore_sigcontext): every
 * value from the frame is checked or forced before it reaches the trap
 * frame: only FIX_EFLAGS come from the user (no IOPL, NT, IF, VM...), cs
 * and ss are the user selectors (6.x and this kernel have no 32-bit code
 * segment to return to), a rip outside the user half or a non-canonical
 * rsp is refused, reserved MXCSR bits are cleared (XRSTOR would #GP), an
 * XSAVE header XRSTOR would fault on is refused (fpu_sigframe_read).  A
 * frame that cannot be read or is refused kills with SIGSEGV
 * (signal_fault).
 */
long do_rt_sigreturn(struct trap_frame *f)
{
	struct task_struct *t = current;
	uint8_t x[FPU_STATE_MAX] __attribute__((aligned(64)));
	struct rt_sigframe_k fr;
	const struct sigcontext_k *sc = &fr.uc.uc_mcontext;

	if (copy_from_user(&fr, f->rsp - 8, sizeof(fr)))
		goto badframe;
	/*
	 * Linux lets iretq fault on these and kills from the fault; refusing
	 * them here keeps a forged frame away from the kernel's iretq at all.
	 */
	if (sc->ip >= TASK_SIZE || !canonical(sc->sp))
		goto badframe;
	if (sc->fpstate && fpu_sigframe_read(sc->fpstate, x))
		goto badframe;
	t->sigmask = fr.uc.uc_sigmask & ~SIG_UNBLOCKABLE;
	f->r8 = sc->r8, f->r9 = sc->r9, f->r10 = sc->r10, f->r11 = sc->r11;
	f->r12 = sc->r12, f->r13 = sc->r13, f->r14 = sc->r14, f->r15 = sc->r15;
	f->rdi = sc->di, f->rsi = sc->si, f->rbp = sc->bp, f->rbx = sc->bx;
	f->rdx = sc->dx, f->rcx = sc->cx, f->rsp = sc->sp, f->rip = sc->ip;
	f->rflags = (f->rflags & ~(uint64_t)FIX_EFLAGS) | (sc->flags & FIX_EFLAGS);
	f->cs = USER_CS;
	f->ss = USER_DS;
	if (sc->fpstate)
		os_xrstor(x);
	else
		fpu_reset_current();
	/* As 2.6.29: the alternate stack is set again from uc_stack, its errors ignored. */
	set_altstack(&fr.uc.uc_stack, f->rsp);
	return (long)sc->ax;

badframe:
	force_sig(SIGSEGV);
	return 0;
}

/* sys_pause and sys_rt_sigsuspend: a sleep only a signal ends. */
long sigsuspend(uint64_t newmask)
{
	struct task_struct *t = current;

	t->saved_sigmask = t->sigmask;
	t->sigmask = newmask & ~SIG_UNBLOCKABLE;
	while (!signal_pending(t))
		sleep_on_interruptible(&t->saved_sigmask, 0, (const void *)sigsuspend);
	t->restore_sigmask = true;
	return -ERESTARTNOHAND;
}
