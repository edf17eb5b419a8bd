/*
 * fpu.c - kernel_fpu_begin()/kernel_fpu_end(): the interrupted task's
 * FPU/SSE state saved around the kernel's own SIMD.
 *
 * Linux 6.x (arch/x86/kernel/fpu/core.c) saves the user state into the task
 * once and restores it lazily on the way back to user mode; this kernel
 * saves it into one buffer and restores it at kernel_fpu_end(), which costs
 * an XSAVE/XRSTOR pair per region (one region per call of chacha20-wide's
 * vector body: 4, 8 or 16 blocks) and needs no return-to-user hook.  The
 * region runs with interrupts off, as Linux's runs with preemption (and,
 * for softirq users, bottom halves) off.
 * Each CPU has its buffer; the region's interrupts-off keeps it this CPU's.
 */
#include "kernel/arch/fpu.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/xstate.h"

#include <stdint.h>

static struct fpu_region {
	uint8_t saved[FPU_STATE_MAX] __attribute__((aligned(64))); /* os_xsave's area */
	bool active;
	uint64_t saved_irq;
} __attribute__((aligned(64))) regions[NR_CPUS];

bool kernel_fpu_begin(void)
{
	uint64_t flags = irq_save();
	struct fpu_region *r = &regions[smp_processor_id()];

	if (r->active) {
		irq_restore(flags);
		return false;
	}
	r->active = true;
	r->saved_irq = flags;
	os_xsave(r->saved);
	return true;
}

void kernel_fpu_end(void)
{
	struct fpu_region *r = &regions[smp_processor_id()];

	os_xrstor(r->saved);
	r->active = false;
	irq_restore(r->saved_irq);
}
