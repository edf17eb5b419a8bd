/*
 * The process world's start: fault hooks, the scheduler, system calls, and
 * init (pid 1), the first ring-3 program, which runs what the command line
 * asks for.  A user task that faults is killed with a report and a
 * signal-like status; the kernel goes on.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/traps.h"
#include "kernel/console/printk.h"
#include "kernel/exit.h"
#include "kernel/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/proc/proc.h"
#include "kernel/mm/fail_nth.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/proc.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"

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

static void user_fault(struct trap_frame *f)
{
	struct task_struct *t = current;
	uint64_t cr2 = read_cr2();
	int sig;

	if (f->vector == 14 && handle_mm_fault(t->mm, cr2, (f->error & 2) != 0) == 0)
		return;
	sig = fault_signal(f->vector);
	/* The format of Linux's show_signal_msg, so the line reads familiar. */
	kprintf("%s[%d]: %s at %lx ip %lx sp %lx error %lx (killed, signal %d)\n", t->comm, t->pid,
		f->vector == 14 ? "segfault" : "trap", f->vector == 14 ? cr2 : f->vector, f->rip,
		f->rsp, f->error, sig);
	do_exit(W_SIGNALED(sig));
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

void proc_init(void)
{
	char *argv[] = {"init"};
	long pid;

	sched_init();
	syscall_init();
	proc_init_fs();
	user_fault_hook = user_fault;
	uaccess_fault_hook = uaccess_fault;
	return_to_user_hook = preempt_from_user;
	pmm_fail_hook = should_fail_alloc;
	task_fixup_caps(&idle_task); /* root (euid 0): all capabilities */
	idle_task.dumpable = 1;
	for (int fd = 0; fd < 3; fd++)
		idle_task.files[fd] = console_file();
	pid = do_spawn("init", 1, argv);
	if (pid != 1) {
		kprintf("aslrbench: cannot start init (%ld)\n", pid);
		qemu_exit(EXIT_PANIC);
	}
	/*
	 * From here every byte on the serial port reaches the console buffer.
	 * run-qemu.sh holds piped input back until it sees this line, because the
	 * firmware reads (and drops) serial input while it runs.
	 */
	kprintf("aslrbench: console ready\n");
}
