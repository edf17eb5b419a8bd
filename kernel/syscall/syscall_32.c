/*
 * The IA-32 system-call dispatch, after Linux 6.6's do_int80_syscall_32
 * (arch/x86/entry/common.c): the number is eax (unsigned int: the upper half
 * of rax is ignored), the arguments ebx, ecx, edx, esi, edi, ebp, each
 * zero-extended from its 32 bits as the __ia32_sys_* wrappers take them
 * ((unsigned int)regs->bx ...); a handler whose argument is signed casts it
 * back.  The result goes back in rax whole (eax is what the program reads);
 * every other register is restored as it was.  Pointers are 32-bit user
 * addresses, checked by the same copy_from_user/copy_to_user as any other.
 * The table is kernel/uapi/syscall_32.h; isr.asm's entry_INT80_compat,
 * entry_SYSCALL_compat and entry_SYSENTER_compat call in with interrupts on.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vdso.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"

#define __NR_ia32_rseq	       386 /* quiet, as the native rseq: glibc does without */
#define __NR_ia32_sigreturn    119
#define __NR_ia32_rt_sigreturn 173

static const syscall_fn ia32_table[NR_ia32_syscalls] = {
#define __SYSCALL_I386(nr, name, entry) [nr] = entry,
#include "kernel/uapi/syscall_32.h"
#undef __SYSCALL_I386
};

static const char *const ia32_names[NR_ia32_syscalls] = {
#define __SYSCALL_I386(nr, name, entry) [nr] = #name,
#include "kernel/uapi/syscall_32.h"
#undef __SYSCALL_I386
};

/* The handler of i386 call nr, NULL when there is none (ENOSYS): also for the ktests. */
syscall_fn ia32_syscall_fn(unsigned nr)
{
	syscall_fn fn = nr < NR_ia32_syscalls ? ia32_table[nr] : 0;

	return fn == sys_ni_syscall ? 0 : fn;
}

/* The entry, in the frame's error slot (isr.asm): int $0x80 pushes 0. */
#define COMPAT_ENTRY_SYSCALL  1
#define COMPAT_ENTRY_SYSENTER 2
#define X86_EFLAGS_IF	      0x200

/*
 * do_fast_syscall_32 (6.6 arch/x86/entry/common.c): the vDSO's
 * __kernel_vsyscall entered by syscall, with ecx moved to ebp, or by
 * sysenter, with esp moved to ebp (do_SYSENTER_32: sysenter keeps no esp,
 * and clears IF, which was set in user mode), and in both cases ebp (the
 * sixth argument) pushed on the user stack.  The frame is made to look
 * like int $0x80's: ecx or esp from ebp, ebp read from the stack, rip the
 * vDSO's int80_landing_pad (two bytes past its int $0x80, so a restart
 * backs up onto it).  An unreadable stack fails the call with EFAULT
 * before it runs.
 */
static int fast_syscall_32_regs(struct trap_frame *f)
{
	uint32_t bp;

	if (f->error == COMPAT_ENTRY_SYSENTER) {
		f->rsp = (uint32_t)f->rbp;
		f->rflags |= X86_EFLAGS_IF;
	} else {
		f->rcx = f->rbp;
	}
	f->rip = (uint32_t)(current->mm->vdso + vdso32_sym_int80_landing_pad);
	f->error = 0;
	if (copy_from_user(&bp, (uint32_t)f->rsp, sizeof(bp)))
		return -EFAULT;
	f->rbp = bp;
	return 0;
}

void compat_syscall_dispatch(struct trap_frame *f);
void compat_syscall_dispatch(struct trap_frame *f)
{
	bool fast = f->error == COMPAT_ENTRY_SYSCALL || f->error == COMPAT_ENTRY_SYSENTER;
	struct syscall_args a;
	unsigned nr = (uint32_t)f->rax;
	syscall_fn fn = ia32_syscall_fn(nr);
	long ret = -ENOSYS;
	int fault;

	lock_kernel(); /* kernel_lock.h: every entry from user mode, before any user access */
	current->regs = f;
	fault = fast ? fast_syscall_32_regs(f) : 0;
	a = (struct syscall_args){(uint32_t)f->rbx, (uint32_t)f->rcx, (uint32_t)f->rdx,
				  (uint32_t)f->rsi, (uint32_t)f->rdi, (uint32_t)f->rbp};
	if (fault) {
		f->rax = (uint64_t)(long)fault; /* "User code screwed up": no call, no restart */
		exit_to_user_mode(f, -1);
	} else {
		if (fn)
			ret = fn(&a);
		else if (nr != __NR_ia32_rseq)
			syscall_warn_unknown(
				nr, nr < NR_ia32_syscalls && ia32_names[nr] ? ia32_names[nr] : "",
				true);
		f->rax = (uint64_t)ret;
		/*
		 * Signals and restarts as after a native call: int $0x80 is two
		 * bytes, as syscall is, so a restart backs up onto it with eax =
		 * nr again.  A sigreturn's eax is the interrupted program's, never
		 * a restart (Linux sets orig_ax to -1).
		 */
		exit_to_user_mode(f, nr == __NR_ia32_sigreturn || nr == __NR_ia32_rt_sigreturn
					     ? -1
					     : (long)nr);
	}
	irq_disable(); /* back to user mode without the lock, and nothing in between */
	unlock_kernel();
}
