/*
 * Reading and loading the data segment registers, as Linux 6.6's
 * arch/x86/include/asm/segment.h (savesegment, loadsegment) and
 * load_gs_index (arch/x86/include/asm/special_insns.h, native_load_gs_index):
 * while in the kernel GS.base is the per-CPU block and the user's GS base
 * waits in MSR_KERNEL_GS_BASE, so a user GS selector is loaded between two
 * swapgs, with interrupts off (one arriving in between would run the
 * kernel on the user's GS base).
 */
#ifndef KERNEL_ARCH_SEGMENT_H
#define KERNEL_ARCH_SEGMENT_H

#include <stdint.h>

#include "kernel/arch/cpu.h"

#define savesegment(seg, v) __asm__ volatile("mov %%" #seg ", %0" : "=r"(v) : : "memory")
#define loadsegment(seg, v) __asm__ volatile("mov %0, %%" #seg : : "r"((uint16_t)(v)) : "memory")

static inline void load_gs_index(uint16_t sel)
{
	uint64_t flags = irq_save();

	__asm__ volatile("swapgs\n\tmov %0, %%gs\n\tswapgs" : : "r"(sel) : "memory");
	irq_restore(flags);
}

#endif
