/*
 * What the 64-bit and the IA-32 vDSO read the same way: the TSC, the
 * clock from [vvar], and the CPU from the GDT.  Each vDSO defines
 * vvar_page (its linker script places [vvar]) before including this.
 */
#ifndef KERNEL_ARCH_VDSO_VDSO_COMMON_H
#define KERNEL_ARCH_VDSO_VDSO_COMMON_H

#include <stdint.h>

#include "kernel/uapi/vvar.h"

extern const struct vvar_data vvar_page __attribute__((visibility("hidden")));

/* rdtsc_ordered: no earlier load may pass it (a time read after a syscall stays after). */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t vread_ns(void)
{
	const volatile struct vvar_data *v = &vvar_page;

	return vvar_cycles_to_ns(rdtsc_ordered(), v->mult, v->shift);
}

/*
 * The CPU this runs on, from the limit of the GDT's CPUNODE entry (0x7b),
 * which every CPU sets to its own number: Linux 6.6's vdso_read_cpunode
 * without RDPID (2.6.29 read the same limit).  The node is 0: one node.
 */
static inline void vdso_read_cpunode(unsigned *cpu, unsigned *node)
{
	unsigned p;

	__asm__ volatile("lsl %1, %0" : "=r"(p) : "r"(0x7bu));
	if (cpu)
		*cpu = p & 0xfff;
	if (node)
		*node = p >> 12;
}

#endif
