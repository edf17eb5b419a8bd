/*
 * Faults seen by the process layer: a user task that faults gets the
 * signal Linux sends (its handler, or death with a report), the kernel goes on; page faults on
 * user memory (from ring 3 or inside uaccess) go to the mm.  The start of
 * the process world itself (init, pid 1) is kernel/init/main.c's.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/fail_nth.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/lib/string.h"

/* Linux 6.6's fpu__exception_code: which x87 (#MF) or SIMD (#XM) exception it was. */
static int fpe_code(uint64_t vector)
{
	uint8_t fx[512] __attribute__((aligned(16)));
	uint16_t cwd, swd;
	uint32_t mxcsr, err;

	__asm__ volatile("fxsave64 %0" : "=m"(fx));
	if (vector == 16) {
		memcpy(&cwd, fx, 2);
		memcpy(&swd, fx + 2, 2);
		err = swd & ~cwd;
	} else {
		memcpy(&mxcsr, fx + 24, 4);
		err = ~(mxcsr >> 7) & mxcsr;
	}
	if (err & 0x001)
		return FPE_FLTINV;
	if (err & 0x004)
		return FPE_FLTDIV;
	if (err & 0x008)
		return FPE_FLTOVF;
	if (err & 0x012)
		return FPE_FLTUND;
	if (err & 0x020)
		return FPE_FLTRES;
	return FPE_FLTINV; /* Linux sends nothing for an unknown one; the insn would fault again */
}

/*
 * The signal, si_code and si_addr of each exception taken in user mode, as
 * Linux 6.6's arch/x86/kernel/traps.c (DO_ERROR table, do_int3, do_debug,
 * math_error) and fault.c (MAPERR: no mapping; ACCERR: a mapping the access
 * is not allowed on, e.g. a write to a read-only page or a fetch from NX).
 */
static int fault_signal(const struct trap_frame *f, uint64_t cr2, int *code, uint64_t *addr)
{
	*code = SI_KERNEL;
	*addr = 0;
	switch (f->vector) {
	case 0: /* #DE */
		*code = FPE_INTDIV;
		*addr = f->rip;
		return SIGFPE;
	case 16: /* #MF */
	case 19: /* #XM */
		*code = fpe_code(f->vector);
		*addr = f->rip;
		return SIGFPE;
	case 6: /* #UD */
		*code = ILL_ILLOPN;
		*addr = f->rip;
		return SIGILL;
	case 1: /* #DB: single step (TF) or a breakpoint */
		*code = (f->rflags & 0x100) ? TRAP_TRACE : TRAP_BRKPT;
		*addr = f->rip;
		return SIGTRAP;
	case 3: /* #BP: int3 */
		return SIGTRAP;
	case 11: /* #NP */
	case 12: /* #SS */
		return SIGBUS;
	case 17: /* #AC */
		*code = BUS_ADRALN;
		return SIGBUS;
	case 14: /* #PF */
		*code = current->mm && find_vma(current->mm, cr2) ? SEGV_ACCERR : SEGV_MAPERR;
		*addr = cr2;
		return SIGSEGV;
	default: /* #GP, #TS, #OF, #BR: SI_KERNEL */
		return SIGSEGV;
	}
}

/*
 * The page allocator ran dry on a user page fault (a demand-zero page, a
 * copy-on-write break, a page table): the faulting task is killed with
 * SIGKILL and a line in the format of Linux 6.6's __oom_kill_process.
 * Linux's OOM killer would pick the task with the largest badness score;
 * this kernel kills the task that faulted, which is the one asking for
 * memory.  Its pages go back to the allocator as it exits; before, it was
 * killed with a misleading "segfault" line and SIGSEGV.
 */
static __attribute__((noreturn)) void oom_kill(struct task_struct *t, uint64_t addr)
{
	uint64_t vm = 0;

	for (int i = 0; i < t->mm->nvmas; i++)
		vm += t->mm->vmas[i].end - t->mm->vmas[i].start;
	kprintf("%s[%d]: page allocation failed on a user fault at %lx (%lu pages free)\n", t->comm,
		t->pid, addr, (unsigned long)pmm_free_count());
	kprintf("Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
		"file-rss:0kB, shmem-rss:0kB, UID:%u\n",
		t->tgid, t->comm, (unsigned long)(vm >> 10),
		(unsigned long)(t->mm->rss_pages * (PAGE_SIZE >> 10)), t->cred.uid);
	do_group_exit(W_SIGNALED(SIGKILL)); /* the whole process, as the OOM killer's SIGKILL */
}

/* The page-fault error code's bits (SDM vol. 3, 4.7; Linux's X86_PF_*). */
#define X86_PF_WRITE (1u << 1)
#define X86_PF_RSVD  (1u << 3)
#define X86_PF_INSTR (1u << 4)

/*
 * Another CPU may have made the access legal between this CPU's page walk
 * and the fault: it populated the page, broke copy-on-write in place, or
 * widened mprotect (changes that send no shootdown).  If the entry allows
 * the access now, only this CPU's view was behind: flush that page and
 * retry, as Linux's handle_pte_fault does with flush_tlb_fix_spurious_fault.
 * The upper levels of a user walk are always present, writable and user
 * (vmm.c), so the leaf's flags decide.
 */
static bool spurious_fault(struct mm_struct *mm, uint64_t addr, uint64_t error)
{
	uint64_t fl;

	if (!mm || (error & X86_PF_RSVD) || addr >= TASK_SIZE ||
	    vmm_translate(mm->pml4, addr, 0, &fl))
		return false;
	if (!(fl & PTE_U) || ((error & X86_PF_WRITE) && !(fl & PTE_W)) ||
	    ((error & X86_PF_INSTR) && (fl & PTE_NX)))
		return false;
	invlpg(addr);
	return true;
}

/*
 * A user fault becomes a signal (force_sig_fault): the task's handler runs
 * on the way back to ring 3, or the default action kills it.  The console
 * line (Linux's show_signal_msg format) is printed only when the signal
 * will kill, as Linux's show_unhandled_signals.
 */
static void user_fault(struct trap_frame *f)
{
	struct task_struct *t = current;
	uint64_t cr2 = read_cr2(), addr;
	int sig, code;
	int rc;

	if (f->vector == 14 && spurious_fault(t->mm, cr2, f->error))
		return;
	rc = f->vector == 14 ? handle_mm_fault(t->mm, cr2, (f->error & X86_PF_WRITE) != 0)
			     : -EFAULT;
	if (f->vector == 14 && rc == 0)
		return;
	if (f->vector == 14 && rc == -ENOMEM)
		oom_kill(t, cr2);
	sig = fault_signal(f, cr2, &code, &addr);
	/* -EIO: a file page wholly past EOF, SIGBUS as Linux's VM_FAULT_SIGBUS. */
	if (f->vector == 14 && rc == -EIO) {
		sig = SIGBUS;
		code = BUS_ADRERR;
	}
	t->trap_nr = f->vector;
	t->error_code = f->error;
	if (f->vector == 14)
		t->cr2 = cr2;
	/*
	 * As Linux's show_signal_msg: KERN_INFO (KERN_EMERG for init), so the
	 * console shows it at the default loglevel and `quiet` keeps it in the log.
	 */
	if (sig_fatal_if_forced(t, sig))
		printk("%s%s[%d]: %s at %lx ip %lx sp %lx error %lx (killed, signal %d)\n",
		       t->pid > 1 ? KERN_INFO : KERN_EMERG, t->comm, t->pid,
		       f->vector == 14 ? "segfault" : "trap", f->vector == 14 ? cr2 : f->vector,
		       f->rip, f->rsp, f->error, sig);
	force_sig_fault(sig, code, addr);
}

/*
 * A page fault from ring 3 without the big kernel lock (traps.c): what
 * handle_mm_fault_unlocked resolves, or false for the locked path.  Not
 * while fail-nth is armed: the locked path's allocation is the one it
 * fails, with the report and the OOM kill a test of it expects.
 */
static bool user_fault_unlocked(struct trap_frame *f)
{
	struct task_struct *t = current;

	if (t->fail_nth || (f->error & X86_PF_RSVD))
		return false;
	return handle_mm_fault_unlocked(t->mm, read_cr2(), (f->error & X86_PF_WRITE) != 0) == 0;
}

/* mm cannot see tasks: it reports each minor fault here, charged to current. */
static void count_minor_fault(void)
{
	current->min_flt++;
}

static int uaccess_fault(uint64_t addr, bool write)
{
	return current->mm ? handle_mm_fault(current->mm, addr, write) : -EFAULT;
}

/* -fstack-protector's report.  In a task's kernel path it kills that task only. */
void __stack_chk_fail(void)
{
	struct task_struct *t = current;

	if (!t || t == &idle_task || !t->mm)
		panic("stack smashing detected in the kernel");
	kprintf("stack smashing detected in %s[%d]: its kernel stack was overwritten; "
		"killing it\n",
		t->comm, t->pid);
	do_group_exit(W_SIGNALED(SIGABRT));
}

/* An interrupt or a user fault on its way back to ring 3: no system call to restart. */
static void return_to_user(struct trap_frame *f)
{
	exit_to_user_mode(f, -1);
}

static bool return_to_user_pending(const struct trap_frame *f)
{
	return exit_to_user_mode_pending(f, -1);
}

static struct mm_struct *current_mm(void)
{
	return current ? current->mm : 0;
}

void task_fault_init(void)
{
	user_fault_hook = user_fault;
	user_fault_unlocked_hook = user_fault_unlocked;
	uaccess_fault_hook = uaccess_fault;
	uaccess_current_mm = current_mm;
	return_to_user_hook = return_to_user;
	return_to_user_pending_hook = return_to_user_pending;
	account_minor_fault = count_minor_fault;
	pmm_fail_hook = should_fail_alloc;
}
