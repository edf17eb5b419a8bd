/*
 * What the page allocator's per-CPU lists need from the CPU, apart from
 * pmm.c so that the host tests can link pmm.c with a CPU of their own.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/percpu.h"
#include "kernel/mm/pmm.h"

unsigned int pmm_cpu_get(uint64_t *flags)
{
	*flags = irq_save();
	return smp_processor_id();
}

void pmm_cpu_put(uint64_t flags)
{
	irq_restore(flags);
}
