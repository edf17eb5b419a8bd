/*
 * Signal frames of IA-32 tasks, after Linux 6.6's
 * arch/x86/kernel/signal_32.c (ia32_setup_frame, ia32_setup_rt_frame,
 * ia32_restore_sigcontext, sys32_sigreturn, sys32_rt_sigreturn), the ia32
 * half of arch/x86/kernel/signal.c's get_sigframe, and the ia32_fxstate
 * case of arch/x86/kernel/fpu/signal.c: the i387 environment (struct
 * fregs_state, converted from the legacy image by regset.c's
 * convert_from_fxsr) followed by XSAVE's area (kernel/task/signal_fpu.c).
 *
 * Without SA_RESTORER the handler returns through the IA-32 vDSO's
 * __kernel_sigreturn or __kernel_rt_sigreturn (kernel/arch/vdso/vdso32/),
 * as Linux's.  The frame's retcode still holds the bytes Linux writes there
 * ("popl %eax; movl $119,%eax; int $0x80" and "movl $173,%eax; int $0x80",
 * what gdb looks for, and what Linux used before vDSOs); it is the return
 * address only when no vDSO is mapped (vdso_init failed), which 6.6 does
 * for the old frame (its rt frame would point into a vDSO that is not
 * there).
 */
#include "kernel/arch/gdt.h"
#include "kernel/arch/segment.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/xstate.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vdso.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/task/signal_frame.h"
#include "kernel/task/tls.h"

#define __NR_ia32_sigreturn    119
#define __NR_ia32_rt_sigreturn 173
/* arch/x86/include/asm/sighandling.h (6.6): the flags a sigreturn may set. */
#define FIX_EFLAGS                                                                                 \
	(0x40000 /* AC */ | 0x800 /* OF */ | 0x400 /* DF */ | 0x100 /* TF */ | 0x80 /* SF */ |     \
	 0x40 /* ZF */ | 0x10 /* AF */ | 0x4 /* PF */ | 0x1 /* CF */ | 0x10000 /* RF */)

/* arch/x86/include/uapi/asm/sigcontext.h: struct sigcontext_32. */
struct sigcontext_32 {
	uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
	uint32_t di, si, bp, sp, bx, dx, cx, ax;
	uint32_t trapno, err, ip;
	uint16_t cs, csh;
	uint32_t flags, sp_at_signal;
	uint16_t ss, ssh;
	uint32_t fpstate; /* the struct _fpstate_32, or 0 */
	uint32_t oldmask, cr2;
};

/* include/linux/compat.h: compat_stack_t. */
struct compat_stack {
	uint32_t ss_sp;
	int32_t ss_flags;
	uint32_t ss_size;
};

/* arch/x86/include/asm/ia32.h: struct ucontext_ia32. */
struct ucontext_ia32 {
	uint32_t uc_flags, uc_link;
	struct compat_stack uc_stack;
	struct sigcontext_32 uc_mcontext;
	uint32_t uc_sigmask[2]; /* compat_sigset_t */
};

/* include/linux/compat.h: compat_siginfo_t, the members this kernel fills. */
struct compat_siginfo {
	int32_t si_signo, si_errno, si_code;
	union {
		uint8_t raw[116];
		struct {
			int32_t pid;
			uint32_t uid;
		} kill;
		struct {
			int32_t pid;
			uint32_t uid;
			int32_t status, utime, stime; /* compat_clock_t */
		} chld;
		struct {
			uint32_t addr;
		} fault;
	};
};

/*
 * The i387 environment ahead of XSAVE's area: struct
 * user_i387_ia32_struct (7 words, 8 registers of 10 bytes) then
 * _fpstate_32's status and magic (X86_FXSR_MAGIC 0: FXSR data follows).
 */
struct fregs_ia32 {
	uint32_t cwd, swd, twd, fip, fcs, foo, fos;
	uint8_t st_space[80];
	uint16_t status, magic;
};

/* arch/x86/include/asm/sigframe.h (6.6). */
struct sigframe_ia32 {
	uint32_t pretcode;
	int32_t sig;
	struct sigcontext_32 sc;
	uint8_t fpstate_unused[624]; /* struct _fpstate_32: the state lies below */
	uint32_t extramask[1];
	uint8_t retcode[8];
};

struct rt_sigframe_ia32 {
	uint32_t pretcode;
	int32_t sig;
	uint32_t pinfo, puc;
	struct compat_siginfo info;
	struct ucontext_ia32 uc;
	uint8_t retcode[8];
};

_Static_assert(sizeof(struct sigcontext_32) == 88, "struct sigcontext_32 is 88 bytes");
_Static_assert(sizeof(struct ucontext_ia32) == 116, "struct ucontext_ia32 is 116 bytes");
_Static_assert(sizeof(struct compat_siginfo) == 128, "compat_siginfo_t is 128 bytes");
_Static_assert(sizeof(struct fregs_ia32) == 112, "struct fregs_state is 112 bytes");
_Static_assert(sizeof(struct sigframe_ia32) == 732, "sigframe_ia32 is 732 bytes");
_Static_assert(sizeof(struct rt_sigframe_ia32) == 268, "rt_sigframe_ia32 is 268 bytes");

/* fxsave image offsets (struct fxregs_state) */
#define FX_CWD	 0
#define FX_SWD	 2
#define FX_TWD	 4
#define FX_FOP	 6
#define FX_RIP	 8
#define FX_RDP	 16
#define FX_MXCSR 24
#define FX_ST	 32

static uint16_t fx16(const uint8_t *fx, int off)
{
	uint16_t v;

	memcpy(&v, fx + off, sizeof(v));
	return v;
}

static void set_fx16(uint8_t *fx, int off, uint16_t v)
{
	memcpy(fx + off, &v, sizeof(v));
}

/* regset.c's twd_fxsr_to_i387: the full tag word from the abridged one and the registers. */
static uint32_t twd_fxsr_to_i387(const uint8_t *fx)
{
	uint32_t tos = (fx16(fx, FX_SWD) >> 11) & 7, twd = fx[FX_TWD], ret = 0xffff0000u;

	for (uint32_t i = 0; i < 8; i++, twd >>= 1) {
		const uint8_t *st = fx + FX_ST + ((i - tos) & 7) * 16;
		uint16_t sig[4], exponent;
		uint32_t tag;

		memcpy(sig, st, sizeof(sig));
		memcpy(&exponent, st + 8, sizeof(exponent));
		if (!(twd & 1))
			tag = 3; /* FP_EXP_TAG_EMPTY */
		else if ((exponent & 0x7fff) == 0x7fff)
			tag = 2; /* FP_EXP_TAG_SPECIAL */
		else if ((exponent & 0x7fff) == 0)
			tag = !sig[0] && !sig[1] && !sig[2] && !sig[3] ? 1 /* ZERO */ : 2;
		else
			tag = sig[3] & 0x8000 ? 0 /* VALID */ : 2;
		ret |= tag << (2 * i);
	}
	return ret;
}

/* regset.c's twd_i387_to_fxsr: each pair of tag bits to one valid bit. */
static uint16_t twd_i387_to_fxsr(uint16_t twd)
{
	uint32_t tmp = ~(uint32_t)twd;

	tmp = (tmp | (tmp >> 1)) & 0x5555;
	tmp = (tmp | (tmp >> 1)) & 0x3333;
	tmp = (tmp | (tmp >> 2)) & 0x0f0f;
	tmp = (tmp | (tmp >> 4)) & 0x00ff;
	return (uint16_t)tmp;
}

/* __convert_from_fxsr (x86_64) and save_fsave_header's status and magic. */
static void convert_from_fxsr(struct fregs_ia32 *env, const uint8_t *fx, uint16_t cs)
{
	uint64_t rip, rdp;
	uint16_t ds;

	memcpy(&rip, fx + FX_RIP, sizeof(rip));
	memcpy(&rdp, fx + FX_RDP, sizeof(rdp));
	savesegment(ds, ds);
	env->cwd = fx16(fx, FX_CWD) | 0xffff0000u;
	env->swd = fx16(fx, FX_SWD) | 0xffff0000u;
	env->twd = twd_fxsr_to_i387(fx);
	env->fip = (uint32_t)rip;
	env->foo = (uint32_t)rdp;
	env->fcs = cs; /* "should be actually ds/cs at fpu exception time" */
	env->fos = ds | 0xffff0000u;
	for (int i = 0; i < 8; i++)
		memcpy(env->st_space + i * 10, fx + FX_ST + i * 16, 10);
	env->status = fx16(fx, FX_SWD);
	env->magic = 0; /* X86_FXSR_MAGIC */
}

/* convert_to_fxsr (x86_64): the legacy environment folded into the fxsave image. */
static void convert_to_fxsr(uint8_t *fx, const struct fregs_ia32 *env)
{
	uint64_t rip = env->fip, rdp = env->foo;

	set_fx16(fx, FX_CWD, (uint16_t)env->cwd);
	set_fx16(fx, FX_SWD, (uint16_t)env->swd);
	set_fx16(fx, FX_TWD, twd_i387_to_fxsr((uint16_t)env->twd));
	set_fx16(fx, FX_FOP, (uint16_t)(env->fcs >> 16));
	memcpy(fx + FX_RIP, &rip, sizeof(rip));
	memcpy(fx + FX_RDP, &rdp, sizeof(rdp));
	for (int i = 0; i < 8; i++)
		memcpy(fx + FX_ST + i * 16, env->st_space + i * 10, 10);
}

/*
 * get_sigframe for an ia32 frame (6.6): no red zone; SA_ONSTACK moves to
 * the top of the alternate stack when not already on it;
 * fpu__alloc_mathframe's XSAVE area 64-byte aligned with the
 * fregs_state below it; align_sigframe's
 * ((sp + 4) & -16) - 4, so that sp + 4 is 16-byte aligned at the handler's
 * entry, as after a call.  Linux's "legacy signal stack switching" (an ss
 * other than __USER_DS) cannot happen: this kernel always returns with
 * USER_DS.  ~0: the frame would overflow the alternate stack it is on or
 * enters.
 */
static uint64_t get_sigframe(const struct kernel_sigaction *ka, const struct trap_frame *f,
			     size_t frame_size, uint64_t *math)
{
	struct task_struct *t = current;
	uint64_t sp = f->rsp;
	bool nested_altstack = on_sig_stack(t, sp), entering_altstack = false;

	if ((ka->flags & SA_ONSTACK) && sas_ss_flags(t, sp) == 0) {
		sp = t->sas_ss_sp + t->sas_ss_size;
		entering_altstack = true;
	}
	sp = (sp - xstate_sigframe_size()) & ~63ULL;
	sp -= sizeof(struct fregs_ia32);
	*math = sp;
	sp = ((sp - frame_size + 4) & ~15ULL) - 4;
	if ((nested_altstack || entering_altstack) && !on_sig_stack(t, sp))
		return ~0ULL;
	return sp;
}

/* copy_fpstate_to_sigframe for an ia32 frame: the environment, then XSAVE's area. */
static int save_fpstate(uint64_t math, uint16_t cs)
{
	uint8_t fx[FXSAVE_SIZE];
	struct fregs_ia32 env;

	/* The user's FPU state is live in the CPU here (saved only on a switch). */
	if (copy_fpstate_to_sigframe(math + sizeof(env), true, fx))
		return -EFAULT;
	convert_from_fxsr(&env, fx, cs);
	return copy_to_user(math, &env, sizeof(env)) ? -EFAULT : 0;
}

static uint16_t get_user_seg_gs(void)
{
	uint16_t v;

	savesegment(gs, v);
	return v;
}

/* __unsafe_setup_sigcontext32 */
static void setup_sigcontext32(struct sigcontext_32 *sc, uint64_t math, const struct trap_frame *f,
			       uint32_t mask)
{
	struct task_struct *t = current;
	uint16_t fs, ds, es;

	savesegment(fs, fs);
	savesegment(ds, ds);
	savesegment(es, es);
	*sc = (struct sigcontext_32){
		.gs = get_user_seg_gs(),
		.fs = fs,
		.es = es,
		.ds = ds,
		.di = (uint32_t)f->rdi,
		.si = (uint32_t)f->rsi,
		.bp = (uint32_t)f->rbp,
		.sp = (uint32_t)f->rsp,
		.bx = (uint32_t)f->rbx,
		.dx = (uint32_t)f->rdx,
		.cx = (uint32_t)f->rcx,
		.ax = (uint32_t)f->rax,
		.trapno = (uint32_t)t->trap_nr,
		.err = (uint32_t)t->error_code,
		.ip = (uint32_t)f->rip,
		.cs = (uint16_t)f->cs,
		.flags = (uint32_t)f->rflags,
		.sp_at_signal = (uint32_t)f->rsp,
		.ss = (uint16_t)f->ss,
		.fpstate = (uint32_t)math,
		.oldmask = mask,
		.cr2 = (uint32_t)t->cr2,
	};
}

/* The registers every ia32 handler starts with (the -mregparm=3 ones aside). */
static void enter_handler(struct trap_frame *f, const struct kernel_sigaction *ka, uint64_t frame)
{
	f->rsp = frame;
	f->rip = (uint32_t)ka->handler;
	loadsegment(ds, USER_DS);
	loadsegment(es, USER_DS);
	f->cs = USER32_CS;
	f->ss = USER_DS;
}

int ia32_setup_frame(int sig, const struct kernel_sigaction *ka, uint64_t set, struct trap_frame *f)
{
	static const uint8_t code[8] = {0x58, 0xb8, __NR_ia32_sigreturn, 0, 0, 0, 0xcd, 0x80};
	struct sigframe_ia32 fr;
	uint64_t math, frame = get_sigframe(ka, f, sizeof(fr), &math);

	if (frame == ~0ULL || save_fpstate(math, (uint16_t)f->cs))
		return -EFAULT;
	memset(&fr, 0, sizeof(fr));
	fr.sig = sig;
	setup_sigcontext32(&fr.sc, math, f, (uint32_t)set);
	fr.extramask[0] = (uint32_t)(set >> 32);
	if (ka->flags & SA_RESTORER)
		fr.pretcode = (uint32_t)ka->restorer;
	else if (current->mm->vdso)
		fr.pretcode = (uint32_t)(current->mm->vdso + vdso32_sym___kernel_sigreturn);
	else
		fr.pretcode = (uint32_t)(frame + offsetof(struct sigframe_ia32, retcode));
	memcpy(fr.retcode, code, sizeof(code));
	if (copy_to_user(frame, &fr, sizeof(fr)))
		return -EFAULT;
	enter_handler(f, ka, frame);
	/* Make -mregparm=3 work */
	f->rax = (uint32_t)sig;
	f->rdx = 0;
	f->rcx = 0;
	return 0;
}

/* __copy_siginfo_to_user32: as fill_siginfo, the compat layout. */
static void fill_compat_siginfo(struct compat_siginfo *si, const struct ksiginfo *info)
{
	memset(si, 0, sizeof(*si));
	si->si_signo = info->signo;
	si->si_code = info->code;
	if (info->code <= 0) {
		si->kill.pid = info->pid;
		si->kill.uid = info->uid;
	} else if (info->code == SI_KERNEL) {
		return;
	} else if (info->signo == SIGCHLD) {
		si->chld.pid = info->pid;
		si->chld.uid = info->uid;
		si->chld.status = info->status;
		si->chld.utime = (int32_t)jiffies_to_clock_t((uint64_t)info->utime);
		si->chld.stime = (int32_t)jiffies_to_clock_t((uint64_t)info->stime);
	} else {
		si->fault.addr = (uint32_t)info->addr;
	}
}

int ia32_setup_rt_frame(int sig, const struct ksiginfo *info, const struct kernel_sigaction *ka,
			uint64_t set, struct trap_frame *f)
{
	static const uint8_t code[8] = {0xb8, __NR_ia32_rt_sigreturn, 0, 0, 0, 0xcd, 0x80, 0};
	struct task_struct *t = current;
	struct rt_sigframe_ia32 fr;
	uint64_t math, frame = get_sigframe(ka, f, sizeof(fr), &math);

	if (frame == ~0ULL || save_fpstate(math, (uint16_t)f->cs))
		return -EFAULT;
	memset(&fr, 0, sizeof(fr));
	fr.sig = sig;
	fr.pinfo = (uint32_t)(frame + offsetof(struct rt_sigframe_ia32, info));
	fr.puc = (uint32_t)(frame + offsetof(struct rt_sigframe_ia32, uc));
	fr.uc.uc_flags = fpu_user_cfg.use_xsave ? UC_FP_XSTATE : 0;
	fr.uc.uc_stack = (struct compat_stack){(uint32_t)t->sas_ss_sp, sas_ss_flags(t, f->rsp),
					       (uint32_t)t->sas_ss_size};
	if (ka->flags & SA_RESTORER)
		fr.pretcode = (uint32_t)ka->restorer;
	else if (t->mm->vdso)
		fr.pretcode = (uint32_t)(t->mm->vdso + vdso32_sym___kernel_rt_sigreturn);
	else
		fr.pretcode = (uint32_t)(frame + offsetof(struct rt_sigframe_ia32, retcode));
	memcpy(fr.retcode, code, sizeof(code));
	setup_sigcontext32(&fr.uc.uc_mcontext, math, f, (uint32_t)set);
	fr.uc.uc_sigmask[0] = (uint32_t)set;
	fr.uc.uc_sigmask[1] = (uint32_t)(set >> 32);
	fill_compat_siginfo(&fr.info, info);
	if (copy_to_user(frame, &fr, sizeof(fr)))
		return -EFAULT;
	enter_handler(f, ka, frame);
	f->rax = (uint32_t)sig;
	f->rdx = fr.pinfo;
	f->rcx = fr.puc;
	return 0;
}

/*
 * __fpu_restore_sig for an ia32 fxstate frame: XSAVE's area at fpstate +
 * sizeof(struct fregs_state), read and checked as a 64-bit frame's
 * (fpu_sigframe_read), the legacy environment below it folded in.  0 or
 * -EFAULT.
 */
static int restore_fpstate(uint32_t fpstate)
{
	uint8_t x[FPU_STATE_MAX] __attribute__((aligned(64)));
	struct fregs_ia32 env;

	if (!fpstate) {
		fpu_reset_current(); /* fpu__clear_user_states */
		return 0;
	}
	if (copy_from_user(&env, fpstate, sizeof(env)) ||
	    fpu_sigframe_read((uint64_t)fpstate + sizeof(env), x))
		return -EFAULT;
	convert_to_fxsr(x, &env);
	os_xrstor(x);
	return 0;
}

/*
 * ia32_restore_sigcontext: the ia32 registers (r8..r15 as they are), cs
 * and ss with RPL 3, EFLAGS through FIX_EFLAGS, the data segments
 * (reload_segments), the FPU state.  Linux lets iret fault on a bad cs or
 * ss and kills from that fault; here the only code selectors a user has
 * (USER32_CS, USER_CS) and USER_DS are accepted and anything else is a bad
 * frame, the same SIGSEGV without reaching the kernel's iretq.  A data
 * selector that cannot be loaded is loaded as 0, as Linux's loadsegment
 * fixup does.  false: a bad frame.
 */
static bool ia32_restore_sigcontext(struct trap_frame *f, const struct sigcontext_32 *sc)
{
	uint16_t cs = sc->cs | 3, ss = sc->ss | 3;

	if ((cs != USER32_CS && cs != USER_CS) || ss != USER_DS)
		return false;
	if (restore_fpstate(sc->fpstate))
		return false;
	f->rbx = sc->bx, f->rcx = sc->cx, f->rdx = sc->dx, f->rsi = sc->si;
	f->rdi = sc->di, f->rbp = sc->bp, f->rax = sc->ax, f->rsp = sc->sp;
	f->rip = sc->ip;
	f->cs = cs;
	f->ss = ss;
	f->rflags = (f->rflags & ~(uint64_t)FIX_EFLAGS) | (sc->flags & FIX_EFLAGS);
	reload_user_segments(sc->gs | 3, sc->fs | 3, sc->ds | 3, sc->es | 3);
	return true;
}

/* sys32_sigreturn: the old frame at esp - 8 (the handler's ret and retcode's popl took 8). */
long do_ia32_sigreturn(struct trap_frame *f)
{
	struct sigframe_ia32 fr;
	uint64_t frame = (uint32_t)(f->rsp - 8);

	if (copy_from_user(&fr, frame, sizeof(fr)))
		goto badframe;
	current->sigmask = (fr.sc.oldmask | (uint64_t)fr.extramask[0] << 32) & ~SIG_UNBLOCKABLE;
	if (!ia32_restore_sigcontext(f, &fr.sc))
		goto badframe;
	return (long)f->rax;

badframe:
	force_sig(SIGSEGV); /* signal_fault */
	return 0;
}

/* sys32_rt_sigreturn: the rt frame at esp - 4; the mask, the registers, the alternate stack. */
long do_ia32_rt_sigreturn(struct trap_frame *f)
{
	struct rt_sigframe_ia32 fr;
	struct stack_k ss;
	uint64_t frame = (uint32_t)(f->rsp - 4);

	if (copy_from_user(&fr, frame, sizeof(fr)))
		goto badframe;
	current->sigmask =
		(fr.uc.uc_sigmask[0] | (uint64_t)fr.uc.uc_sigmask[1] << 32) & ~SIG_UNBLOCKABLE;
	if (!ia32_restore_sigcontext(f, &fr.uc.uc_mcontext))
		goto badframe;
	/* compat_restore_altstack: its errors ignored, as the native one here */
	ss = (struct stack_k){fr.uc.uc_stack.ss_sp, fr.uc.uc_stack.ss_flags, 0,
			      fr.uc.uc_stack.ss_size};
	set_altstack(&ss, f->rsp);
	return (long)f->rax;

badframe:
	force_sig(SIGSEGV);
	return 0;
}

/* do_compat_sigaltstack (6.6 linux/kernel/signal.c): compat_stack_t in and out. */
long do_compat_sigaltstack(uint64_t uss, uint64_t uoss, uint64_t sp)
{
	struct task_struct *t = current;
	struct compat_stack old = {(uint32_t)t->sas_ss_sp, sas_ss_flags(t, sp),
				   (uint32_t)t->sas_ss_size},
			    ss32;
	struct stack_k ss;
	long err;

	if (uss) {
		if (copy_from_user(&ss32, uss, sizeof(ss32)))
			return -EFAULT;
		ss = (struct stack_k){ss32.ss_sp, ss32.ss_flags, 0, ss32.ss_size};
		err = set_altstack(&ss, sp);
		if (err)
			return err;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
