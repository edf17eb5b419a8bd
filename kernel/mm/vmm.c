/*
 * Page tables.
 *
 * The loader's entry stub left us on temporary tables (identity 4 GiB plus
 * the kernel window).  vmm_init builds the permanent kernel half: the
 * physmap (all physical memory at PHYS_OFFSET, NX) and the kernel image in
 * 4 KiB pages with W^X (text RX, rodata R, data and bss RW+NX).  The lower
 * half is left empty for user address spaces, which share the kernel's
 * upper-half entries.
 */
#include "kernel/mm/vmm.h"
#include "kernel/arch/pat.h"
#include "kernel/mm/pmm.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/string.h"
#include "kernel/lib/errno.h"

static uint64_t kernel_pml4;

extern const char __kernel_start[], __text_end[], __rodata_end[], __kernel_end[];

static uint64_t new_table(void)
{
	uint64_t p = pmm_alloc_page();

	if (!p)
		return 0;
	if (!physmap_is_live() && p >= 0x100000000ULL)
		panic("vmm: early page table above 4 GiB");
	clear_page(phys_to_virt(p));
	return p;
}

/* Returns the next-level table for `idx`, creating it when asked. */
static uint64_t *next_level(uint64_t *table, unsigned idx, bool create, bool user)
{
	if (!(table[idx] & PTE_P)) {
		uint64_t p;

		if (!create)
			return 0;
		p = new_table();
		if (!p)
			return 0;
		table[idx] = p | PTE_P | PTE_W | (user ? PTE_U : 0);
	}
	if (table[idx] & PTE_PS)
		return 0; /* a large page: no lower level */
	return phys_to_virt(table[idx] & PTE_ADDR);
}

uint64_t *vmm_walk(uint64_t pml4, uint64_t va, bool create)
{
	uint64_t *t = phys_to_virt(pml4);
	bool user = va < 0x0000800000000000ULL;

	for (int shift = 39; shift > 12; shift -= 9) {
		t = next_level(t, (va >> shift) & 511, create, user);
		if (!t)
			return 0;
	}
	return &t[(va >> 12) & 511];
}

void vmm_free_table(uint64_t pml4, uint64_t va)
{
	uint64_t *t = phys_to_virt(pml4), *pd, *pt;

	for (int shift = 39; shift > 21; shift -= 9) {
		t = next_level(t, (va >> shift) & 511, false, false);
		if (!t)
			return;
	}
	pd = t;
	pt = next_level(pd, (va >> 21) & 511, false, false);
	if (!pt)
		return;
	for (int i = 0; i < 512; i++)
		if (pt[i] & PTE_P)
			return;
	pmm_free_page(pd[(va >> 21) & 511] & PTE_ADDR);
	pd[(va >> 21) & 511] = 0;
}

/*
 * Kernel-half entries are shared by every address space, so always flush
 * them, here and on the other CPUs; a user entry, where pml4 is live, and
 * on the CPUs that run it (arch/tlb.h).
 */
static void flush_if_live(uint64_t pml4, uint64_t va)
{
	if (va >= PHYS_OFFSET) {
		invlpg(va);
		flush_tlb_kernel_others();
		return;
	}
	flush_tlb_local_range(pml4, va, va + PAGE_SIZE);
	flush_tlb_others_range(pml4, va, va + PAGE_SIZE);
}

int vmm_map_page(uint64_t pml4, uint64_t va, uint64_t pa, uint64_t flags)
{
	uint64_t *pte, old;

	if ((va | pa) & (PAGE_SIZE - 1))
		return -EINVAL;
	pte = vmm_walk(pml4, va, true);
	if (!pte)
		return -ENOMEM;
	old = *pte;
	*pte = pa | flags | PTE_P;
	/*
	 * No TLB entry is made from a not-present entry (SDM vol. 3, 4.10.4.3),
	 * so only a present one needs the flush; a 64 MiB ftruncate maps 16,384
	 * hole pages and paid an invlpg for each.
	 */
	if (old & PTE_P)
		flush_if_live(pml4, va);
	return 0;
}

int vmm_unmap_page(uint64_t pml4, uint64_t va, uint64_t *pa_out)
{
	int rc = vmm_clear_page(pml4, va, pa_out);

	if (!rc)
		flush_if_live(pml4, va);
	return rc;
}

int vmm_clear_page(uint64_t pml4, uint64_t va, uint64_t *pa_out)
{
	uint64_t *pte = vmm_walk(pml4, va, false);

	if (!pte || !(*pte & PTE_P))
		return -ENOENT;
	if (pa_out)
		*pa_out = *pte & PTE_ADDR;
	*pte = 0;
	return 0;
}

/*
 * Every TLB entry, global ones too (CR4.PGE off and on): cheaper than an
 * invlpg per page past a few dozen pages, as Linux's
 * tlb_single_page_flush_ceiling (33) says.
 */
void vmm_flush_all(void)
{
	__flush_tlb_global();
	flush_tlb_kernel_others();
}

/*
 * Visits every present leaf in [start, end) of the user half; absent tables
 * are skipped whole, so the cost follows what is mapped, not the length (all
 * 128 TiB of an empty address space is 256 PML4 entries), as Linux's page
 * walks skip pmd_none.  Returns the number of leaves visited.
 */
static uint64_t walk_level(uint64_t *t, int shift, uint64_t base, uint64_t start, uint64_t end,
			   void (*visit)(uint64_t *pte, uint64_t va, void *ctx), void *ctx)
{
	uint64_t span = 1ULL << shift, n = 0;
	unsigned lo = (unsigned)((start > base ? start - base : 0) >> shift);

	for (unsigned i = lo; i < 512; i++) {
		uint64_t va = base + (uint64_t)i * span, e = t[i];

		if (va >= end)
			break;
		if (!(e & PTE_P) || (shift > 12 && (e & PTE_PS)))
			continue;
		if (shift == 12) {
			visit(&t[i], va, ctx);
			n++;
		} else {
			n += walk_level(phys_to_virt(e & PTE_ADDR), shift - 9, va, start, end,
					visit, ctx);
		}
	}
	return n;
}

uint64_t vmm_for_each_pte(uint64_t pml4, uint64_t start, uint64_t end,
			  void (*visit)(uint64_t *pte, uint64_t va, void *ctx), void *ctx)
{
	if (start >= end || end > 0x0000800000000000ULL)
		return 0;
	return walk_level(phys_to_virt(pml4), 39, 0, start, end, visit, ctx);
}

struct unmap_ctx {
	void (*put)(uint64_t pa);
};

static void unmap_one(uint64_t *pte, uint64_t va, void *ctx)
{
	(void)va;
	uint64_t pa = *pte & PTE_ADDR;

	*pte = 0;
	((struct unmap_ctx *)ctx)->put(pa);
}

/* Clears every present leaf in [start, end), handing each page to put(). */
uint64_t vmm_unmap_range(uint64_t pml4, uint64_t start, uint64_t end, void (*put)(uint64_t pa))
{
	struct unmap_ctx c = {put};
	uint64_t n;

	/* before put() frees a page: no other CPU may write it through a stale entry */
	flush_tlb_others_range(pml4, start, end);
	n = vmm_for_each_pte(pml4, start, end, unmap_one, &c);

	if (n)
		flush_tlb_local_range(pml4, start, end);
	return n;
}

int vmm_translate(uint64_t pml4, uint64_t va, uint64_t *pa_out, uint64_t *flags_out)
{
	uint64_t *t = phys_to_virt(pml4);

	for (int shift = 39; shift >= 12; shift -= 9) {
		uint64_t e = t[(va >> shift) & 511];

		if (!(e & PTE_P))
			return -ENOENT;
		if (shift == 12 || (e & PTE_PS)) {
			uint64_t mask = (1ULL << shift) - 1;

			if (pa_out)
				*pa_out = (e & PTE_ADDR & ~mask) | (va & mask);
			if (flags_out)
				*flags_out = e & ~PTE_ADDR;
			return 0;
		}
		t = phys_to_virt(e & PTE_ADDR);
	}
	return -ENOENT;
}

/* 2 MiB pages over [0, top): the physmap. */
static void map_physmap(uint64_t top)
{
	uint64_t *pml4 = phys_to_virt(kernel_pml4);

	for (uint64_t pa = 0; pa < top; pa += 2ULL << 20) {
		uint64_t va = PHYS_OFFSET + pa;
		uint64_t *pdpt = next_level(pml4, (va >> 39) & 511, true, false);
		uint64_t *pd = pdpt ? next_level(pdpt, (va >> 30) & 511, true, false) : 0;

		if (!pd)
			panic("vmm: out of memory building the physmap");
		pd[(va >> 21) & 511] = pa | PTE_P | PTE_W | PTE_PS | PTE_G | PTE_NX;
	}
}

static void map_kernel_image(void)
{
	uint64_t start = (uint64_t)__kernel_start, end = (uint64_t)__kernel_end;

	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t flags = PTE_G;

		if (va >= (uint64_t)__text_end)
			flags |= PTE_NX;
		if (va >= (uint64_t)__rodata_end)
			flags |= PTE_W;
		if (vmm_map_page(kernel_pml4, va, va - KERNEL_VBASE + kernel_phys_base, flags))
			panic("vmm: out of memory mapping the kernel");
	}
}

void vmm_init(void)
{
	uint64_t top = pmm_max_phys();

	pat_init(); /* before any mapping that asks for write-combining */
	/* NX bit usable, and writes to read-only pages fault in ring 0 too. */
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	write_cr0(read_cr0() | (1ULL << 16));
	write_cr4(read_cr4() | (1ULL << 7)); /* PGE */

	if (top < 0x100000000ULL)
		top = 0x100000000ULL; /* the low 4 GiB hold the LAPIC, IOAPIC, PCI holes */
	top = (top + (2ULL << 20) - 1) & ~((2ULL << 20) - 1);

	kernel_pml4 = new_table();
	if (!kernel_pml4)
		panic("vmm: no page for the kernel PML4");
	/*
	 * Every kernel-half PML4 slot gets its PDPT now: user address spaces copy
	 * these 256 entries once, so a kernel mapping made later (anywhere in the
	 * upper half) is seen by every address space.  Costs 1 MiB.
	 */
	for (unsigned i = 256; i < 512; i++)
		if (!next_level(phys_to_virt(kernel_pml4), i, true, false))
			panic("vmm: out of memory for the kernel PDPTs");
	map_physmap(top);
	map_kernel_image();
	load_mm_cr3(kernel_pml4);
	physmap_set_live(top);
	pmm_physmap_live();
}

uint64_t vmm_kernel_pml4(void)
{
	return kernel_pml4;
}
