/*
 * bench/'s 4-function platform API, kernel side: real interrupt masking
 * (the point of measuring on bare metal), the console, and scratch memory
 * from the page allocator that grows on demand and is kept for the run.
 */
#include "bench/platform.h"
#include "kernel/arch/cpu.h"
#include "kernel/lib/printk.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"

static void *scratch;
static size_t scratch_pages;

uint64_t bench_irq_save(void)
{
	return irq_save();
}

void bench_irq_restore(uint64_t flags)
{
	irq_restore(flags);
}

void bench_emit(const char *line)
{
	console_puts(line);
}

void *bench_scratch(size_t bytes)
{
	size_t pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	uint64_t phys;

	if (pages <= scratch_pages)
		return scratch;
	phys = pmm_alloc_pages(pages);
	if (!phys)
		return 0;
	if (scratch)
		pmm_free_pages(virt_to_phys(scratch), scratch_pages);
	scratch = phys_to_virt(phys);
	scratch_pages = pages;
	return scratch;
}
