/* Tests of the page allocator and the page tables. */
#include "kernel/arch/cpu.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/test/ktest.h"

#define NPAGES	64
#define TEST_VA 0xffffc00000000000ULL /* an unused kernel-half slot */

static enum ktest_result pmm_alloc_free(struct ktest_ctx *t)
{
	uint64_t pages[NPAGES], before = pmm_free_count(), run;

	for (int i = 0; i < NPAGES; i++) {
		pages[i] = pmm_alloc_page();
		if (!pages[i] || pages[i] % PAGE_SIZE)
			return ktest_fail(t, "allocation %d gave 0x%lx", i, pages[i]);
		for (int j = 0; j < i; j++)
			if (pages[j] == pages[i])
				return ktest_fail(t, "page 0x%lx handed out twice", pages[i]);
	}
	if (pmm_free_count() != before - NPAGES)
		return ktest_fail(t, "free count %lu, expected %lu", pmm_free_count(),
				  before - NPAGES);
	for (int i = 0; i < NPAGES; i++)
		pmm_free_page(pages[i]);
	run = pmm_alloc_pages(8);
	if (!run || run % PAGE_SIZE)
		return ktest_fail(t, "contiguous allocation failed");
	pmm_free_pages(run, 8);
	if (pmm_free_count() != before)
		return ktest_fail(t, "free count %lu after freeing, expected %lu", pmm_free_count(),
				  before);
	return KTEST_PASS;
}
KTEST(pmm_alloc_free);

/* The out-of-memory path: allocation fails cleanly and nothing is lost. */
static enum ktest_result pmm_exhaust(struct ktest_ctx *t)
{
	uint64_t before = pmm_free_count(), a, b, c;

	pmm_set_floor(before - 2);
	a = pmm_alloc_page();
	b = pmm_alloc_page();
	c = pmm_alloc_page();
	pmm_set_floor(0);
	if (!a || !b)
		return ktest_fail(t, "allocations under the floor failed");
	if (c) {
		pmm_free_page(c);
		return ktest_fail(t, "allocation beyond the floor succeeded");
	}
	pmm_free_page(a);
	pmm_free_page(b);
	if (pmm_free_count() != before)
		return ktest_fail(t, "free count not restored");
	return KTEST_PASS;
}
KTEST(pmm_exhaust);

/*
 * This CPU's page list: the page freed last is the next handed out, and
 * giving every list back to the bitmap changes no count.
 */
static enum ktest_result pmm_pcp_lists(struct ktest_ctx *t)
{
	uint64_t before = pmm_free_count(), a, b;
	struct pmm_pcp_stat st;

	a = pmm_alloc_page();
	if (!a)
		return ktest_fail(t, "no page");
	pmm_free_page(a);
	b = pmm_alloc_page();
	pmm_free_page(b);
	if (b != a)
		return ktest_fail(t, "freed 0x%lx, then got 0x%lx: not last in, first out", a, b);
	pmm_pcp_stat_read(smp_processor_id(), &st);
	/* 2.6.29's sizes: batch 2^n - 1 (31 from 512 MiB on), high 6 * batch */
	if (!st.count || st.count >= st.high || (st.batch & (st.batch + 1)) ||
	    st.high != 6 * st.batch)
		return ktest_fail(t, "list holds %u pages (high %u, batch %u)", st.count, st.high,
				  st.batch);
	pmm_drain_all();
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		pmm_pcp_stat_read(cpu, &st);
		if (st.count)
			return ktest_fail(t, "CPU %u's list holds %u pages after the drain", cpu,
					  st.count);
	}
	if (pmm_free_count() != before)
		return ktest_fail(t, "free count %lu, %lu before", pmm_free_count(), before);
	return KTEST_PASS;
}
KTEST(pmm_pcp_lists);

static enum ktest_result paging_map_unmap(struct ktest_ctx *t)
{
	uint64_t pml4 = vmm_kernel_pml4(), pa = pmm_alloc_page(), got, flags, val;
	volatile uint64_t *p = (volatile uint64_t *)TEST_VA;
	int rc;

	if (!pa)
		return ktest_fail(t, "no page");
	if ((rc = vmm_map_page(pml4, TEST_VA, pa, PTE_W | PTE_NX)) != 0)
		return ktest_fail(t, "map failed: %d", rc);
	*p = 0x1122334455667788ULL;
	if (*(volatile uint64_t *)phys_to_virt(pa) != 0x1122334455667788ULL)
		return ktest_fail(t, "write through the mapping not seen in the physmap");
	if (vmm_translate(pml4, TEST_VA + 0x123, &got, &flags) || got != pa + 0x123)
		return ktest_fail(t, "translate gave 0x%lx, expected 0x%lx", got, pa + 0x123);
	if (!(flags & PTE_W) || !(flags & PTE_NX) || (flags & PTE_U))
		return ktest_fail(t, "flags 0x%lx lost W/NX or gained U", flags);
	if (vmm_unmap_page(pml4, TEST_VA, &got) || got != pa)
		return ktest_fail(t, "unmap failed");
	if (vmm_translate(pml4, TEST_VA, &got, &flags) != -ENOENT)
		return ktest_fail(t, "address still translates after unmap");
	if (probe_read_u64((const void *)TEST_VA, &val) != -EFAULT)
		return ktest_fail(t, "read of the unmapped page did not fault");
	pmm_free_page(pa);
	return KTEST_PASS;
}
KTEST(paging_map_unmap);

/* W^X on the kernel image: text not writable, data not executable. */
static enum ktest_result paging_kernel_wx(struct ktest_ctx *t)
{
	extern const char __kernel_start[], __rodata_end[], __bss_start[];
	uint64_t pml4 = vmm_kernel_pml4(), pa, f;

	if (vmm_translate(pml4, (uint64_t)__kernel_start, &pa, &f) || (f & PTE_W) || (f & PTE_NX))
		return ktest_fail(t, "text flags 0x%lx (want RX)", f);
	if (vmm_translate(pml4, (uint64_t)__rodata_end - 1, &pa, &f) || (f & PTE_W) ||
	    !(f & PTE_NX))
		return ktest_fail(t, "rodata flags 0x%lx (want R, NX)", f);
	if (vmm_translate(pml4, (uint64_t)__bss_start, &pa, &f) || !(f & PTE_W) || !(f & PTE_NX))
		return ktest_fail(t, "bss flags 0x%lx (want RW, NX)", f);
	if (probe_write_u64((void *)__kernel_start, 0) != -EFAULT)
		return ktest_fail(t, "write to kernel text did not fault");
	if (vmm_translate(pml4, 0x1000, &pa, &f) != -ENOENT)
		return ktest_fail(t, "the boot identity map is still present");
	return KTEST_PASS;
}
KTEST(paging_kernel_wx);
