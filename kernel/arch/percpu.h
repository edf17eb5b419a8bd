/*
 * The per-CPU block GS points at.  Its layout is fixed by the compiler, not
 * by us: -fstack-protector reads the canary from %gs:40, so stack_canary
 * must stay at offset 40.  The context switch rewrites it for each task.
 */
#ifndef KERNEL_ARCH_PERCPU_H
#define KERNEL_ARCH_PERCPU_H

#include <stdint.h>
#include <stddef.h>

struct task_struct;
struct cpu_gdt;

struct percpu {
	struct percpu *self;	      /* 0 */
	uint64_t kernel_rsp;	      /* 8: syscall entry stack */
	uint64_t user_rsp;	      /* 16: scratch for the syscall entry */
	uint64_t unused[2];	      /* 24, 32 */
	uint64_t stack_canary;	      /* 40: read by -fstack-protector */
	struct task_struct *cur_task; /* 48: what `current` reads */
	uint32_t cpu;		      /* 56: Linux's cpu_number: 0 = the boot CPU */
	uint32_t pad;
	struct cpu_gdt *gdt;	  /* this CPU's GDT and TSS (gdt.c) */
	struct task_struct *idle; /* this CPU's idle task (sched.c) */
	uint64_t slice_end;	  /* jiffies when the running task's slice ends */
	uint64_t user_ticks;	  /* ticks that found this CPU in user mode */
	uint64_t system_ticks;	  /* ... in the kernel, in a task */
	uint64_t start_jiffies;	  /* when it began running tasks: its idle time is the rest */
	/* Nonzero: a uaccess fault takes its fixup at once (traps.h, pagefault_disable). */
	uint32_t pagefault_disabled;
};

_Static_assert(offsetof(struct percpu, stack_canary) == 40, "gcc reads the canary at %gs:40");

extern struct percpu percpu0;

/* Linux 6.6 x86_64's default NR_CPUS (arch/x86/Kconfig): the most CPUs started */
#define NR_CPUS 64

/* Linux's smp_processor_id(): this CPU's number, one GS-relative load */
static inline unsigned int smp_processor_id(void)
{
	uint32_t id;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(id) : "i"(offsetof(struct percpu, cpu)));
	return id;
}

/* This CPU's block (percpu.self), for fields that need no GS-relative access. */
static inline struct percpu *this_cpu(void)
{
	struct percpu *pc;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(pc));
	return pc;
}

#endif
