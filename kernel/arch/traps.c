/*
 * Exceptions and interrupts.
 *
 * A kernel fault is the end of the run: print everything a developer needs
 * to find it (vector, error code, registers, CR2, a frame-pointer
 * backtrace) on the console, then leave QEMU with the "panic" status so a
 * test harness sees a failure rather than a hang.  Faults on instructions
 * listed in the exception table are expected (user-memory probes) and
 * resume at their fixup.  Faults from ring 3 go to the process code.
 */
#include <stdarg.h>
#include <stdbool.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/traps.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/printk.h"
#include "kernel/arch/machine_exit.h"

static const char *const exc_names[32] = {
	"divide error",
	"debug",
	"NMI",
	"breakpoint",
	"overflow",
	"bound range",
	"invalid opcode",
	"device not available",
	"double fault",
	"coprocessor overrun",
	"invalid TSS",
	"segment not present",
	"stack fault",
	"general protection",
	"page fault",
	"reserved",
	"x87 FP error",
	"alignment check",
	"machine check",
	"SIMD FP error",
	"virtualization",
	"control protection",
	"reserved",
	"reserved",
	"reserved",
	"reserved",
	"reserved",
	"reserved",
	"hypervisor injection",
	"VMM communication",
	"security",
	"reserved",
};

static irq_handler_t handlers[256];
void (*user_fault_hook)(struct trap_frame *f);
bool (*user_fault_unlocked_hook)(struct trap_frame *f);
int (*uaccess_fault_hook)(uint64_t addr, bool write);
void (*return_to_user_hook)(struct trap_frame *f);
bool (*return_to_user_pending_hook)(const struct trap_frame *f);
uint64_t fixups_taken;
uint64_t bad_irets; /* returns to user mode that faulted: never, in a sound kernel */
static uint64_t unexpected_count;

extern const struct ex_entry __ex_table_start[], __ex_table_end[];
extern const char __kernel_start[], __kernel_end[];
extern const char boot_stack_bottom[], boot_stack_top[];

void irq_register(int vector, irq_handler_t h)
{
	if (vector >= 32 && vector < 256)
		handlers[vector] = h;
}

/* Vectors whose handler touches only its own CPU's state: it runs without the kernel lock. */
static bool percpu_vector[256];

void irq_register_percpu(int vector, irq_handler_t h)
{
	irq_register(vector, h);
	if (vector >= 32 && vector < 256)
		percpu_vector[vector] = true;
}

void pagefault_disable(void)
{
	this_cpu()->pagefault_disabled++;
}

void pagefault_enable(void)
{
	this_cpu()->pagefault_disabled--;
}

uint64_t search_exception_table(uint64_t rip)
{
	for (const struct ex_entry *e = __ex_table_start; e < __ex_table_end; e++)
		if (e->insn == rip)
			return e->fixup;
	return 0;
}

void dump_frame(const struct trap_frame *f)
{
	kprintf("  RIP=%016lx CS=%04lx RFLAGS=%016lx\n", f->rip, f->cs, f->rflags);
	kprintf("  RSP=%016lx SS=%04lx CR2=%016lx CR3=%016lx\n", f->rsp, f->ss, read_cr2(),
		read_cr3());
	kprintf("  RAX=%016lx RBX=%016lx RCX=%016lx RDX=%016lx\n", f->rax, f->rbx, f->rcx, f->rdx);
	kprintf("  RSI=%016lx RDI=%016lx RBP=%016lx R8 =%016lx\n", f->rsi, f->rdi, f->rbp, f->r8);
	kprintf("  R9 =%016lx R10=%016lx R11=%016lx R12=%016lx\n", f->r9, f->r10, f->r11, f->r12);
	kprintf("  R13=%016lx R14=%016lx R15=%016lx\n", f->r13, f->r14, f->r15);
}

static bool kernel_text(uint64_t a)
{
	return a >= (uint64_t)__kernel_start && a < (uint64_t)__kernel_end;
}

/*
 * Walks saved frame pointers (the kernel is built with them).  Each load is
 * a probe, so a corrupt chain ends the walk instead of faulting again.
 */
void backtrace_from(uint64_t rbp, uint64_t rip)
{
	kprintf("  backtrace (addr2line -e build/kernel.elf ADDR):\n");
	kprintf("    [0] %016lx\n", rip);
	for (int depth = 1; depth < 16 && rbp && !(rbp & 7); depth++) {
		uint64_t next, ret;

		if (rbp < 0xffff800000000000ULL || probe_read_u64((void *)(rbp + 8), &ret) ||
		    probe_read_u64((void *)rbp, &next))
			break;
		if (!kernel_text(ret))
			break;
		kprintf("    [%d] %016lx\n", depth, ret);
		if (next <= rbp)
			break;
		rbp = next;
	}
}

static __attribute__((noreturn)) void die(struct trap_frame *f)
{
	const char *name = f->vector < 32 ? exc_names[f->vector] : "interrupt";

	kprintf("\nKERNEL PANIC: unhandled exception %lu (%s), error code 0x%lx\n", f->vector, name,
		f->error);
	if (f->vector == 14)
		kprintf("  page fault at 0x%lx: %s, %s, %s mode\n", read_cr2(),
			(f->error & 1) ? "protection violation" : "page not present",
			(f->error & 2) ? "write" : ((f->error & 16) ? "instruction fetch" : "read"),
			(f->error & 4) ? "user" : "kernel");
	dump_frame(f);
	backtrace_from(f->rbp, f->rip);
	if (panic_hook)
		panic_hook();
	machine_exit(EXIT_PANIC);
}

extern const char ret_to_user_iretq[], syscall_iretq[];

/*
 * A fault on the iretq back to user mode (a non-canonical RIP, say) is the
 * user's: as Linux's fixup_bad_iret, report it from the frame iretq was
 * loading, so the task is killed as if it had faulted there itself.
 * isr_common has already swapped GS back.
 */
static bool fixup_bad_iret(struct trap_frame *f)
{
	const uint64_t *iret;

	if ((f->cs & 3) ||
	    (f->rip != (uint64_t)ret_to_user_iretq && f->rip != (uint64_t)syscall_iretq))
		return false;
	iret = (const uint64_t *)f->rsp;
	f->rip = iret[0];
	f->cs = iret[1];
	f->rflags = iret[2];
	f->rsp = iret[3];
	f->ss = iret[4];
	return (f->cs & 3) == 3;
}

static void exception(struct trap_frame *f)
{
	uint64_t fix;

	if (fixup_bad_iret(f) && ++bad_irets)
		kprintf("iretq to user mode faulted (vector %lu): the task's frame is bad\n",
			f->vector);
	if ((f->cs & 3) == 3 && user_fault_hook) {
		user_fault_hook(f);
		if (return_to_user_hook)
			return_to_user_hook(f); /* the fault's signal is delivered here */
		return;
	}
	/* #GP too: a probe of a non-canonical address raises it instead of #PF. */
	if ((f->vector == 14 || f->vector == 13) && (fix = search_exception_table(f->rip))) {
		/* A user page not yet populated, or shared copy-on-write: fix and retry. */
		if (f->vector == 14 && uaccess_fault_hook && !this_cpu()->pagefault_disabled &&
		    uaccess_fault_hook(read_cr2(), (f->error & 2) != 0) == 0)
			return;
		/* with or without the lock */
		__atomic_add_fetch(&fixups_taken, 1, __ATOMIC_RELAXED);
		f->rip = fix;
		return;
	}
	die(f);
}

static void do_trap(struct trap_frame *f)
{
	if (f->vector < 32) {
		exception(f);
		return;
	}
	if (handlers[f->vector]) {
		handlers[f->vector](f);
		if ((f->cs & 3) == 3 && return_to_user_hook)
			return_to_user_hook(f);
		return;
	}
	if (f->vector == LAPIC_SPURIOUS_VECTOR)
		return;
	/* Stray vectors (a firmware timer left armed, say): note, acknowledge, go on. */
	if (unexpected_count++ < 4)
		kprintf("warning: unexpected interrupt vector %lu\n", f->vector);
	lapic_eoi();
}

/*
 * Back to ring 3 after work done without the lock: the lock is taken only
 * for what the way back has to do (a signal, schedule(), a flush a
 * shootdown asked for, which taking the lock does).
 */
static void return_to_user_unlocked(struct trap_frame *f)
{
	if (!tlb_flush_asked() && return_to_user_pending_hook && !return_to_user_pending_hook(f))
		return;
	lock_kernel();
	if (return_to_user_hook)
		return_to_user_hook(f);
	irq_disable();
	unlock_kernel();
}

/*
 * A page fault from ring 3 first without the lock (mm.c's
 * handle_mm_fault_unlocked says which), parked meanwhile so that a
 * shootdown does not wait for it (kernel_lock.h).  Linux's 2.6
 * do_page_fault never took the big kernel lock: it held the mm's
 * mmap_sem, and handle_mm_fault the page-table lock.  Counted per CPU.
 */
static struct {
	uint64_t n;
} __attribute__((aligned(64))) faults_unlocked[NR_CPUS];

static bool user_fault_unlocked(struct trap_frame *f)
{
	bool done;

	if (f->vector != 14 || !user_fault_unlocked_hook)
		return false;
	kernel_lock_park();
	done = user_fault_unlocked_hook(f);
	kernel_lock_unpark();
	if (!done)
		return false;
	faults_unlocked[smp_processor_id()].n++;
	return_to_user_unlocked(f);
	return true;
}

uint64_t user_faults_unlocked(unsigned int ncpus)
{
	uint64_t n = 0;

	for (unsigned int cpu = 0; cpu < ncpus && cpu < NR_CPUS; cpu++)
		n += __atomic_load_n(&faults_unlocked[cpu].n, __ATOMIC_RELAXED);
	return n;
}

/*
 * Every entry from user mode takes the kernel lock and every return gives
 * it up (kernel_lock.h).  So does an interrupt that finds its CPU without
 * it (idle, or on the last steps back to user mode), unless its handler
 * only touches that CPU's own state: the APs' ticks and IPIs, which must
 * not wait for a lock another CPU may hold for long.  From ring 3 such a
 * handler runs before the lock is taken (a cross-CPU call whose caller
 * holds it must not wait for it), and the way back takes it only when it
 * has work (signals, schedule(), the flush a TLB shootdown asked for):
 * an AP's tick over a task that runs alone in ring 3 touches no shared
 * state, so k such CPUs do not meet at the lock HZ times a second each.
 * A fault on the iretq back to user mode comes after the return gave the
 * lock up, so it takes it too.  A page fault from ring 3 is tried
 * without it first (user_fault_unlocked).  A system call that runs
 * without the lock copies to user memory with page faults disabled, so a
 * fault there takes its fixup without the lock (copy_to_user_nofault);
 * any other exception in kernel mode without the lock is a bug that dies
 * at once, without waiting for it.
 */
void trap_dispatch(struct trap_frame *f)
{
	bool from_user = (f->cs & 3) == 3;
	bool on_iret = f->rip == (uint64_t)ret_to_user_iretq || f->rip == (uint64_t)syscall_iretq;
	bool percpu = f->vector >= 32 && f->vector < 256 && percpu_vector[f->vector];
	bool take = !kernel_locked() &&
		    (from_user || (f->vector < 32 && on_iret) || (f->vector >= 32 && !percpu));

	if (from_user && percpu && take) {
		handlers[f->vector](f);
		return_to_user_unlocked(f); /* nothing for the way back: ring 3 without the lock */
		return;
	}
	if (from_user && take && user_fault_unlocked(f))
		return;
	if (take)
		lock_kernel();
	do_trap(f);
	if (take) {
		irq_disable();
		unlock_kernel();
	}
}

/* lib/'s panic() and printk reach arch through these (lib sits below arch). */
__attribute__((noreturn)) static void panic_exit(uint64_t rbp, uint64_t rip)
{
	backtrace_from(rbp, rip);
	machine_exit(EXIT_PANIC);
}

static void panic_irq_off(void)
{
	irq_disable();
}

static uint64_t console_irq_off(void)
{
	return irq_save();
}

static void console_irq_back(uint64_t flags)
{
	irq_restore(flags);
}

void traps_install_lib_hooks(void)
{
	panic_irq_disable = panic_irq_off;
	panic_backtrace_and_exit = panic_exit;
	console_irq_save = console_irq_off;
	console_irq_restore = console_irq_back;
}
