/*
 * System-call entry: MSR setup and the dispatch table.  The assembly entry
 * (arch/switch.asm) saves the user registers as a struct trap_frame at the
 * top of the task's kernel stack; the return value goes back in rax.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/tlb.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"

void syscall_entry(void);
void entry_SYSCALL_compat(void);
void entry_SYSENTER_compat(void);

#define MSR_IA32_SYSENTER_CS  0x174
#define MSR_IA32_SYSENTER_ESP 0x175
#define MSR_IA32_SYSENTER_EIP 0x176

/*
 * The stack sysenter switches to (MSR_IA32_SYSENTER_ESP), one per CPU by
 * initial APIC ID, as 6.6's per-CPU entry stack: entry_SYSENTER_compat
 * loads the task's kernel stack at its second instruction, so only the
 * #DB of a sysenter made with EFLAGS.TF set, after its first, lands here.
 */
static uint8_t sysenter_stack[256][256] __attribute__((aligned(16)));

/*
 * Indexed by number, from the table; a hole is 0.  sys_ni_syscall's rows
 * (Linux calls this kernel lacks) are there for their names only.
 */
static const syscall_fn table[NR_syscalls] = {
#define __SYSCALL(nr, name, entry, fuzz, lock) [nr] = entry,
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
};

/* Linux's name for the entry of a call not implemented (linux/kernel/sys_ni.c). */
long sys_ni_syscall(const struct syscall_args *a)
{
	(void)a;
	return -ENOSYS;
}

#define X86_EFLAGS_CF	0x000001
#define X86_EFLAGS_PF	0x000004
#define X86_EFLAGS_AF	0x000010
#define X86_EFLAGS_ZF	0x000040
#define X86_EFLAGS_SF	0x000080
#define X86_EFLAGS_TF	0x000100
#define X86_EFLAGS_IF	0x000200
#define X86_EFLAGS_DF	0x000400
#define X86_EFLAGS_OF	0x000800
#define X86_EFLAGS_IOPL 0x003000
#define X86_EFLAGS_NT	0x004000
#define X86_EFLAGS_RF	0x010000
#define X86_EFLAGS_AC	0x040000
#define X86_EFLAGS_ID	0x200000
#define SYSCALL_MASK                                                                               \
	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | X86_EFLAGS_SF |           \
	 X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_DF | X86_EFLAGS_OF | X86_EFLAGS_IOPL |         \
	 X86_EFLAGS_NT | X86_EFLAGS_RF | X86_EFLAGS_AC | X86_EFLAGS_ID)

void syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/*
	 * sysretq loads CS = STAR[63:48] + 16, SS = + 8; syscall CS = STAR[47:32]:
	 * Linux 6.6's (u64)__USER32_CS << 48 | (u64)__KERNEL_CS << 32.
	 */
	wrmsr(MSR_STAR, ((uint64_t)USER32_CS << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/*
	 * syscall from compatibility mode (AMD CPUs; Intel's raise #UD): an
	 * IA-32 system call, isr.asm's entry_SYSCALL_compat
	 */
	wrmsr(MSR_CSTAR, (uint64_t)entry_SYSCALL_compat);
	/*
	 * Flags cleared on entry: Linux 6.6's syscall_init (arch/x86/kernel/cpu/
	 * common.c) clears "as much as possible".  NT above all: left set, the
	 * kernel's next iretq raises #GP, and a context switch carries it into
	 * another task.
	 */
	wrmsr(MSR_SFMASK, SYSCALL_MASK);
	/*
	 * sysenter from compatibility mode (Intel CPUs; AMD's raise #UD): an
	 * IA-32 system call, isr.asm's entry_SYSENTER_compat, as 6.6's
	 * syscall_init sets these three.
	 */
	{
		uint32_t r[4];

		cpuid_count(1, 0, r);
		wrmsr(MSR_IA32_SYSENTER_CS, KERNEL_CS);
		wrmsr(MSR_IA32_SYSENTER_ESP,
		      (uint64_t)sysenter_stack[r[1] >> 24] + sizeof(sysenter_stack[0]));
		wrmsr(MSR_IA32_SYSENTER_EIP, (uint64_t)entry_SYSENTER_compat);
	}
}

/*
 * An unknown call returns ENOSYS, as Linux's, and says so once per
 * (program, number) so a user sees what a program wanted; past SEEN_MAX
 * pairs, one line says the rest are suppressed.  rseq is deliberately
 * ENOSYS (glibc then does without) and stays quiet.
 *
 * nseen never passes SEEN_MAX: the search below reads seen[0 .. nseen),
 * and with a count that kept growing after the suppression line (as it
 * once did) that read ran past the array, undefined behaviour from which
 * GCC concluded nseen <= SEEN_MAX, dropped the bound check and stored
 * each further (comm, nr) past the array, over idle_task and the hooks
 * after it (the fuzzer's unknown numbers reached it; reliab_unknown_nr).
 */
#define SEEN_MAX 64
void syscall_warn_unknown(uint64_t nr, const char *name, bool ia32)
{
	static struct {
		char comm[TASK_COMM_LEN];
		uint64_t nr;
		bool ia32;
	} seen[SEEN_MAX];
	static unsigned nseen;
	static bool suppressed;

	for (unsigned i = 0; i < nseen && i < SEEN_MAX; i++)
		if (seen[i].nr == nr && seen[i].ia32 == ia32 &&
		    !strcmp(seen[i].comm, current->comm))
			return;
	if (nseen >= SEEN_MAX) {
		if (!suppressed)
			printk(KERN_DEBUG "unknown syscall: further warnings suppressed\n");
		suppressed = true;
		return;
	}
	strlcpy(seen[nseen].comm, current->comm, TASK_COMM_LEN);
	seen[nseen].ia32 = ia32;
	seen[nseen++].nr = nr;
	/* Debug level: in the log (dmesg), on the console only with loglevel=8. */
	printk(KERN_DEBUG "unknown %ssyscall %lu (%s?) from %s[%d]\n", ia32 ? "i386 " : "",
	       (unsigned long)nr, name, current->comm, current->pid);
}

static void warn_unknown(uint64_t nr)
{
	if (nr != __NR_rseq)
		syscall_warn_unknown(nr, syscall_name(nr), false);
}

/*
 * The table's lock column (kernel/uapi/syscall_64.h): the calls entered
 * without the big kernel lock, as Linux 2.4 to 2.6.38 pushed it down into
 * the calls that still needed it until none did.  Why these: they are the
 * RNG from ring 3 (getrandom, and rng_draw, the scale suite's ring-3
 * draw), where the variants differ by the locks each Linux had (rng/
 * holds them), so a loop of them on k CPUs must meet those locks and not
 * this kernel's.  Each draws with interrupts on (the boot CPU's tick
 * drives jiffies, and a draw that meets a contended lock may take long),
 * then copies out with syscall_copy_to_user: by copy_to_user_nofault,
 * which walks and copies with them off, or, for what that cannot do (a
 * page to populate, a user's bad pointer to report), by copy_to_user
 * after syscall_lock_kernel.  The way back is looked at with interrupts
 * off, so nothing lands between the look and sysret; a TLB flush asked
 * meanwhile (its IPI taken in the kernel, where it does nothing) takes
 * the lock there.  Every BKL call takes the lock on entry.
 * clock_gettime of CLOCK_REALTIME and CLOCK_MONOTONIC joins them: it reads
 * the TSC as the vDSO does from ring 3 and nothing another CPU changes,
 * and the lock with the full way back were a sixth of its cost; its
 * CPU-time clocks read other tasks, so it takes the lock for those itself.
 */
#define SYSCALL_LOCK_BKL  false
#define SYSCALL_LOCK_NONE true
static const bool entered_unlocked[NR_syscalls] = {
#define __SYSCALL(nr, name, entry, fuzz, lock) [nr] = SYSCALL_LOCK_##lock,
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
};

void syscall_lock_kernel(void)
{
	if (kernel_locked())
		return;
	irq_enable();
	lock_kernel();
}

int syscall_copy_to_user(uint64_t dst, const void *src, size_t n)
{
	if (!kernel_locked() && !copy_to_user_nofault(dst, src, n))
		return 0;
	syscall_lock_kernel();
	return copy_to_user(dst, src, n);
}

static void syscall_dispatch_unlocked(struct trap_frame *f, syscall_fn fn,
				      const struct syscall_args *a, unsigned nr)
{
	current->regs = f;
	current->syscall_nr = nr;
	f->rax = (uint64_t)fn(a);
	if (!kernel_locked()) {
		irq_disable();
		/* nothing for the way back: the entry's cli and sysret, the lock never taken */
		if (!exit_to_user_mode_pending(f, nr) && !tlb_flush_asked())
			return;
		syscall_lock_kernel();
	}
	exit_to_user_mode(f, nr);
	irq_disable();
	unlock_kernel();
}

void syscall_dispatch(struct trap_frame *f)
{
	struct syscall_args a = {f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9};
	/*
	 * The number is an int, as in Linux 6.6 (entry_64.S: movslq %eax, %rsi;
	 * do_syscall_x64: unsigned int unr = nr): the upper 32 bits of rax are
	 * ignored.
	 */
	unsigned nr = (uint32_t)f->rax;
	syscall_fn fn = nr < NR_syscalls ? table[nr] : 0;
	long ret = -ENOSYS;

	if (fn && entered_unlocked[nr]) {
		syscall_dispatch_unlocked(f, fn, &a, nr);
		return;
	}
	lock_kernel(); /* kernel_lock.h: every entry from user mode but the calls above */
	current->regs = f;
	current->syscall_nr = nr;
	if (fn && fn != sys_ni_syscall)
		ret = fn(&a);
	else
		warn_unknown(nr);
	f->rax = (uint64_t)ret;
	/*
	 * Signals and the restart of interrupted calls.  rt_sigreturn's rax is
	 * the restored one: as Linux's restore_sigcontext (orig_ax = -1), it is
	 * no longer a system call's result to restart.
	 */
	exit_to_user_mode(f, nr == __NR_rt_sigreturn ? -1 : (long)nr);
	irq_disable(); /* back to user mode without the lock, and nothing in between */
	unlock_kernel();
}
