/*
 * fpu.c - kernel_fpu_begin()/kernel_fpu_end(): the interrupted task's
 * FPU/SSE state saved around the kernel's own SIMD.
 *
 * Linux 6.x (arch/x86/kernel/fpu/core.c) saves the user state into the task
 * once and restores it lazily on the way back to user mode; this kernel
 * saves it into one buffer and restores it at kernel_fpu_end(), which costs
 * an fxsave/fxrstor pair per region (one region per four ChaCha20 blocks)
 * and needs no return-to-user hook.  The region runs with interrupts off, as
 * Linux's runs with preemption (and, for softirq users, bottom halves) off.
 * One CPU runs the kernel, so one buffer serves it.
 */
#include "kernel/arch/fpu.h"
#include "kernel/arch/cpu.h"

#include <stdint.h>

static uint8_t saved[512] __attribute__((aligned(64)));
static bool active;
static uint64_t saved_irq;

bool kernel_fpu_begin(void)
{
	uint64_t flags = irq_save();

	if (active) {
		irq_restore(flags);
		return false;
	}
	active = true;
	saved_irq = flags;
	__asm__ volatile("fxsave64 %0" : "=m"(saved));
	return true;
}

void kernel_fpu_end(void)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(saved));
	active = false;
	irq_restore(saved_irq);
}
