/*
 * Physical page allocator: one bit per 4 KiB page, built from the UEFI map.
 *
 * Why a bitmap: page counts must be exact (tests compare the free count
 * before and after thousands of forks), contiguous runs are needed for
 * kernel stacks, and the whole state is inspectable.  The bitmap itself is
 * carved from the first free region large enough, so there is no fixed
 * limit on installed memory.
 *
 * Free at boot: conventional memory and the firmware's boot-services
 * regions (dead after ExitBootServices).  Never free: loader data (the
 * kernel image, boot_info, the map), runtime and ACPI regions, MMIO, and
 * the first 1 MiB (legacy structures, real-mode trampolines).
 */
#include <stdbool.h>

#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/console/printk.h"
#include "kernel/lib/string.h"
#include "kernel/arch/traps.h"

static uint64_t *bitmap; /* bit set = used */
static uint64_t bitmap_phys;
/* Mappings per page, for copy-on-write: a page is freed when the last goes. */
static uint16_t *refs;
static uint64_t refs_phys;
static uint64_t npages, nfree, ntotal, next_hint, floor_pages;

static bool usable(uint32_t type)
{
	return type == BOOT_MEM_CONVENTIONAL || type == BOOT_MEM_BOOT_CODE ||
	       type == BOOT_MEM_BOOT_DATA;
}

static void mark_free(uint64_t pfn)
{
	if (pfn < npages && (bitmap[pfn / 64] & (1ULL << (pfn % 64)))) {
		bitmap[pfn / 64] &= ~(1ULL << (pfn % 64));
		nfree++;
	}
}

static void mark_used(uint64_t pfn)
{
	if (pfn < npages && !(bitmap[pfn / 64] & (1ULL << (pfn % 64)))) {
		bitmap[pfn / 64] |= 1ULL << (pfn % 64);
		nfree--;
	}
}

static const struct boot_mmap_entry *entry(const struct boot_info *bi, uint32_t i)
{
	return (const struct boot_mmap_entry *)(bi->mmap + (uint64_t)i * bi->mmap_entry_size);
}

void pmm_init(const struct boot_info *bi)
{
	uint64_t bytes, top = 0, where = 0;
	uint32_t i;

	for (i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);

		if (usable(e->type) && e->phys + e->pages * PAGE_SIZE > top)
			top = e->phys + e->pages * PAGE_SIZE;
	}
	npages = top / PAGE_SIZE;
	bytes = ((npages + 63) / 64) * 8 + npages * sizeof(uint16_t);
	/* The bitmap goes in the first usable region above 1 MiB that holds it (below 4 GiB). */
	for (i = 0; i < bi->mmap_count && !where; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);
		uint64_t start = e->phys < 0x100000 ? 0x100000 : e->phys;
		uint64_t end = e->phys + e->pages * PAGE_SIZE;

		if (usable(e->type) && end > start && end - start >= bytes &&
		    start + bytes <= 0x100000000ULL)
			where = start;
	}
	if (!where)
		panic("pmm: no room for a %lu-byte page bitmap", bytes);
	bitmap_phys = where;
	bitmap = phys_to_virt(where);
	refs_phys = where + ((npages + 63) / 64) * 8;
	refs = phys_to_virt(refs_phys);
	memset(bitmap, 0xff, bytes - npages * sizeof(uint16_t));
	memset(refs, 0, npages * sizeof(uint16_t));
	nfree = 0;
	for (i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);

		if (!usable(e->type))
			continue;
		for (uint64_t p = 0; p < e->pages; p++)
			if (e->phys + p * PAGE_SIZE >= 0x100000)
				mark_free(e->phys / PAGE_SIZE + p);
	}
	for (uint64_t p = 0; p < (bytes + PAGE_SIZE - 1) / PAGE_SIZE; p++)
		mark_used(where / PAGE_SIZE + p);
	ntotal = nfree;
	next_hint = 0x100000 / PAGE_SIZE;
}

uint64_t pmm_alloc_pages(size_t count)
{
	uint64_t run = 0, pfn, tries;

	if (count == 0 || nfree < count || nfree - count < floor_pages)
		return 0;
	/* Next fit from the hint, wrapping once. */
	for (tries = 0, pfn = next_hint; tries < npages + count; tries++, pfn++) {
		if (pfn >= npages) {
			pfn = 0;
			run = 0;
		}
		if (bitmap[pfn / 64] & (1ULL << (pfn % 64))) {
			run = 0;
			continue;
		}
		if (++run == count) {
			uint64_t first = pfn + 1 - count;

			for (uint64_t p = first; p <= pfn; p++) {
				mark_used(p);
				refs[p] = 1;
			}
			next_hint = pfn + 1;
			return first * PAGE_SIZE;
		}
	}
	return 0;
}

uint64_t pmm_alloc_page(void)
{
	return pmm_alloc_pages(1);
}

void pmm_free_pages(uint64_t phys, size_t count)
{
	uint64_t pfn = phys / PAGE_SIZE;

	if (phys % PAGE_SIZE)
		panic("pmm: free of unaligned address 0x%lx", phys);
	for (size_t i = 0; i < count; i++) {
		if (pfn + i >= npages || !(bitmap[(pfn + i) / 64] & (1ULL << ((pfn + i) % 64))))
			panic("pmm: double free or bad address 0x%lx", phys + i * PAGE_SIZE);
		refs[pfn + i] = 0;
		mark_free(pfn + i);
	}
}

void pmm_free_page(uint64_t phys)
{
	pmm_free_pages(phys, 1);
}

uint64_t pmm_free_count(void)
{
	return nfree;
}

uint64_t pmm_total_count(void)
{
	return ntotal;
}

uint64_t pmm_max_phys(void)
{
	return npages * PAGE_SIZE;
}

void pmm_set_floor(uint64_t pages)
{
	floor_pages = pages;
}

void pmm_physmap_live(void)
{
	bitmap = phys_to_virt(bitmap_phys);
	refs = phys_to_virt(refs_phys);
}

void page_ref_get(uint64_t phys)
{
	uint64_t pfn = phys / PAGE_SIZE;

	if (pfn >= npages || refs[pfn] == 0 || refs[pfn] == 0xffff)
		panic("pmm: bad reference to page 0x%lx", phys);
	refs[pfn]++;
}

unsigned page_ref_count(uint64_t phys)
{
	uint64_t pfn = phys / PAGE_SIZE;

	return pfn < npages ? refs[pfn] : 0;
}

void page_ref_put(uint64_t phys)
{
	uint64_t pfn = phys / PAGE_SIZE;

	if (pfn >= npages || refs[pfn] == 0)
		panic("pmm: put of unreferenced page 0x%lx", phys);
	if (--refs[pfn] == 0)
		pmm_free_pages(phys, 1);
}
