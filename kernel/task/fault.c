/*
 * Faults seen by the process layer: a user task that faults is killed with
 * a report and a signal-like status, the kernel goes on; page faults on
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
#include "kernel/task/fail_nth.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"

static int fault_signal(uint64_t vector)
{
	switch (vector) {
	case 0:	 /* #DE */
	case 16: /* #MF */
	case 19: /* #XM */
		return SIGFPE;
	case 6: /* #UD */
		return SIGILL;
	case 3: /* #BP */
	case 1: /* #DB */
		return SIGTRAP;
	case 17: /* #AC */
		return SIGBUS;
	default:
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
		t->pid, t->comm, (unsigned long)(vm >> 10),
		(unsigned long)(t->mm->rss_pages * (PAGE_SIZE >> 10)), t->cred.uid);
	do_exit(W_SIGNALED(SIGKILL));
}

static void user_fault(struct trap_frame *f)
{
	struct task_struct *t = current;
	uint64_t cr2 = read_cr2();
	int sig;

	int rc = f->vector == 14 ? handle_mm_fault(t->mm, cr2, (f->error & 2) != 0) : -EFAULT;

	if (f->vector == 14 && rc == 0)
		return;
	if (f->vector == 14 && rc == -ENOMEM)
		oom_kill(t, cr2);
	/* -EIO: a file page wholly past EOF, SIGBUS as Linux's VM_FAULT_SIGBUS. */
	sig = f->vector == 14 && rc == -EIO ? SIGBUS : fault_signal(f->vector);
	/* The format of Linux's show_signal_msg, so the line reads familiar. */
	kprintf("%s[%d]: %s at %lx ip %lx sp %lx error %lx (killed, signal %d)\n", t->comm, t->pid,
		f->vector == 14 ? "segfault" : "trap", f->vector == 14 ? cr2 : f->vector, f->rip,
		f->rsp, f->error, sig);
	do_exit(W_SIGNALED(sig));
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
	do_exit(W_SIGNALED(SIGABRT));
}

static struct mm_struct *current_mm(void)
{
	return current ? current->mm : 0;
}

void task_fault_init(void)
{
	user_fault_hook = user_fault;
	uaccess_fault_hook = uaccess_fault;
	uaccess_current_mm = current_mm;
	return_to_user_hook = preempt_from_user;
	account_minor_fault = count_minor_fault;
	pmm_fail_hook = should_fail_alloc;
}
