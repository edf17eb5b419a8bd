/*
 * Physical page allocator: one bit per 4 KiB page, built from the UEFI map.
 *
 * Why a bitmap: page counts must be exact (tests compare the free count
 * before and after thousands of forks), contiguous runs are needed for
 * kernel stacks, and the whole state is inspectable.  The bitmap itself is
 * carved from the lowest free range above 1 MiB (and below 4 GiB) large
 * enough, so there is no fixed limit on installed memory.
 *
 * Free at boot: conventional memory and the firmware's boot-services
 * regions (dead after ExitBootServices).  Never free: loader data (the
 * kernel image, boot_info, the map), runtime and ACPI regions, MMIO, any
 * type we do not know (persistent memory, unaccepted memory, OEM and
 * OS-vendor ranges: we cannot tell what they hold), and the first 1 MiB
 * (legacy structures, real-mode trampolines).
 *
 * Firmware maps are trusted only as far as they are consistent:
 *  - an entry with no pages, or whose end is past 2^52 (MAXPHYADDR: no RAM
 *    can live there) or wraps past 2^64, is corrupt and skipped whole, for
 *    every type: a reserved entry "covering" all of memory must not be able
 *    to starve the kernel any more than a usable one may invent memory;
 *  - an unaligned usable entry is rounded inward, an unaligned non-usable
 *    one outward: a page is free only if the firmware gave all of it away;
 *  - where a usable and a non-usable entry overlap, the non-usable one
 *    wins (as Linux's e820 sanitiser does): handing out a page the firmware
 *    still uses corrupts it silently, losing a page costs 4 KiB;
 *  - overlapping usable entries count each page once, and entries may come
 *    in any order, any number, with any stride at least an entry's size.
 */
#include <stdbool.h>

#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/panic.h"

#define LOW_LIMIT    0x100000ULL    /* 1 MiB: never free, see above */
#define BITMAP_LIMIT 0x100000000ULL /* the loader identity-maps the low 4 GiB */
#define PHYS_LIMIT   (1ULL << 52)   /* MAXPHYADDR: no x86_64 CPU addresses more */

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

/*
 * The byte range [*start, *end) an entry really describes, page aligned:
 * false for a corrupt entry (see the header).  One test covers both the
 * MAXPHYADDR limit and 64-bit wrap-around, since phys + pages * 4 KiB is
 * only computed once it is known to stay below PHYS_LIMIT.
 */
static bool entry_span(const struct boot_mmap_entry *e, uint64_t *start, uint64_t *end)
{
	uint64_t s, t;

	if (e->pages == 0 || e->phys >= PHYS_LIMIT || e->pages > (PHYS_LIMIT - e->phys) / PAGE_SIZE)
		return false;
	s = e->phys;
	t = e->phys + e->pages * PAGE_SIZE;
	if (usable(e->type)) {
		s = (s + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		t &= ~(PAGE_SIZE - 1);
	} else {
		s &= ~(PAGE_SIZE - 1);
		t = (t + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	}
	*start = s;
	*end = t;
	return s < t;
}

/* The end of the highest usable page: non-usable entries need no bits. */
static uint64_t usable_top(const struct boot_info *bi)
{
	uint64_t top = 0, start, end;
	uint32_t i, bad = 0;

	for (i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);

		if (!entry_span(e, &start, &end)) {
			bad++;
			continue;
		}
		if (usable(e->type) && end > top)
			top = end;
	}
	if (bad)
		kprintf("pmm: ignored %u malformed memory map entries\n", bad);
	return top;
}

/*
 * The lowest address from `start` on where `bytes` fit below `end` and 4 GiB
 * (the loader's identity map) without touching a page a non-usable entry
 * claims, or 0.  Each pass moves past every conflict it sees; start only
 * grows, so this ends.
 */
static uint64_t clear_run(const struct boot_info *bi, uint64_t start, uint64_t end, uint64_t bytes)
{
	uint64_t rs, re;
	bool moved;

	do {
		moved = false;
		if (start >= end || end - start < bytes || start + bytes > BITMAP_LIMIT)
			return 0;
		for (uint32_t i = 0; i < bi->mmap_count; i++) {
			const struct boot_mmap_entry *e = entry(bi, i);

			if (usable(e->type) || !entry_span(e, &rs, &re))
				continue;
			if (rs < start + bytes && re > start) {
				start = re;
				moved = true;
			}
		}
	} while (moved);
	return start;
}

/* The lowest fitting address, so the choice does not depend on map order. */
static uint64_t place_bitmap(const struct boot_info *bi, uint64_t bytes)
{
	uint64_t best = 0, start, end, at;

	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);

		/* An entry starting above the best so far cannot beat it. */
		if (!usable(e->type) || !entry_span(e, &start, &end) || (best && start >= best))
			continue;
		at = clear_run(bi, start < LOW_LIMIT ? LOW_LIMIT : start, end, bytes);
		if (at && (!best || at < best))
			best = at;
	}
	return best;
}

static void free_usable(const struct boot_info *bi)
{
	uint64_t start, end;

	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);

		if (!usable(e->type) || !entry_span(e, &start, &end))
			continue;
		if (start < LOW_LIMIT)
			start = LOW_LIMIT;
		for (uint64_t a = start; a < end; a += PAGE_SIZE)
			mark_free(a / PAGE_SIZE);
	}
}

/* Second pass, so a non-usable entry wins whatever the order of the map. */
static void reserve_claimed(const struct boot_info *bi)
{
	uint64_t start, end;

	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		const struct boot_mmap_entry *e = entry(bi, i);

		if (usable(e->type) || !entry_span(e, &start, &end))
			continue;
		/* Bounded by npages: an MMIO window may span terabytes. */
		for (uint64_t p = start / PAGE_SIZE; p < end / PAGE_SIZE && p < npages; p++)
			mark_used(p);
	}
}

void pmm_init(const struct boot_info *bi)
{
	uint64_t bytes, top, where;

	/* A shorter stride would read each entry's fields from its neighbour. */
	if (bi->mmap_entry_size < sizeof(struct boot_mmap_entry))
		panic("pmm: memory map entry size %u is below the %zu bytes of an entry",
		      bi->mmap_entry_size, sizeof(struct boot_mmap_entry));
	top = usable_top(bi);
	if (top <= LOW_LIMIT)
		panic("pmm: no usable memory above 1 MiB in the %u-entry memory map",
		      bi->mmap_count);
	npages = top / PAGE_SIZE;
	bytes = ((npages + 63) / 64) * 8 + npages * sizeof(uint16_t);
	where = place_bitmap(bi, bytes);
	if (!where)
		panic("pmm: no room for a %lu-byte page bitmap", bytes);
	bitmap_phys = where;
	bitmap = phys_to_virt(where);
	refs_phys = where + ((npages + 63) / 64) * 8;
	refs = phys_to_virt(refs_phys);
	memset(bitmap, 0xff, bytes - npages * sizeof(uint16_t));
	memset(refs, 0, npages * sizeof(uint16_t));
	nfree = 0;
	free_usable(bi);
	reserve_claimed(bi);
	for (uint64_t p = 0; p < (bytes + PAGE_SIZE - 1) / PAGE_SIZE; p++)
		mark_used(where / PAGE_SIZE + p);
	if (!nfree)
		panic("pmm: no free page left after the %lu-byte page bitmap", bytes);
	ntotal = nfree;
	next_hint = LOW_LIMIT / PAGE_SIZE;
}

/* Allocation-failure injection (fail_nth.c installs it; host tests run without). */
bool (*pmm_fail_hook)(void);

uint64_t pmm_alloc_pages(size_t count)
{
	uint64_t run = 0, pfn, tries;

	if (count == 0 || nfree < count || nfree - count < floor_pages ||
	    (pmm_fail_hook && pmm_fail_hook()))
		return 0;
	/* Next fit from the hint, wrapping once. */
	for (tries = 0, pfn = next_hint; tries < npages + count; tries++, pfn++) {
		if (pfn >= npages) {
			pfn = 0;
			run = 0;
		}
		/* a word with no free page is passed whole, as find_next_zero_bit does */
		if (pfn % 64 == 0 && bitmap[pfn / 64] == ~0ULL && pfn + 64 <= npages) {
			run = 0;
			tries += 63;
			pfn += 63;
			continue;
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

/*
 * Linux's free_initrd_mem: once the archive is unpacked into the ramfs its
 * pages (loader data, which the allocator never owned) join the free pool.
 * Pages above the highest usable page have no bit and stay out.
 * Returns the pages freed.
 */
uint64_t free_initrd_mem(uint64_t phys, uint64_t size)
{
	uint64_t first = phys / PAGE_SIZE, last = (phys + size + PAGE_SIZE - 1) / PAGE_SIZE;
	uint64_t before = nfree;

	if (phys % PAGE_SIZE || !size)
		return 0;
	for (uint64_t pfn = first; pfn < last && pfn < npages; pfn++) {
		refs[pfn] = 0;
		mark_free(pfn);
	}
	ntotal += nfree - before;
	return nfree - before;
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
