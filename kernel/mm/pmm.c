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
 *
 * In front of the bitmap, each CPU keeps a list of free pages (the per-CPU
 * page lists, below): single pages, which are nearly every allocation, come
 * and go there without a scan.
 */
#include <stdbool.h>

#include "kernel/arch/percpu.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/spinlock.h"

#define LOW_LIMIT    0x100000ULL    /* 1 MiB: never free, see above */
#define BITMAP_LIMIT 0x100000000ULL /* the loader identity-maps the low 4 GiB */
#define PHYS_LIMIT   (1ULL << 52)   /* MAXPHYADDR: no x86_64 CPU addresses more */

static uint64_t *bitmap; /* bit set = used */
static uint64_t bitmap_phys;
/* Mappings per page, for copy-on-write: a page is freed when the last goes. */
static uint16_t *refs;
static uint64_t refs_phys;
/*
 * nfree: pages free in the bitmap (the per-CPU lists hold more).  The
 * bitmap, nfree and next_hint are zone_lock's (Linux's zone->lock).  The
 * reference counts change atomically (Linux's page->_refcount): fork takes
 * them under the big kernel lock while a copy-on-write fault on another CPU
 * puts them without it (mm.c, handle_mm_fault_unlocked).
 */
static uint64_t npages, nfree, ntotal, next_hint, floor_pages;
static spinlock_t zone_lock;
static struct rng_lock_class zone_lock_class, pcp_lock_class;

static void pcp_init(void); /* the per-CPU page lists, below */

static bool usable(uint32_t type)
{
	return type == BOOT_MEM_CONVENTIONAL || type == BOOT_MEM_BOOT_CODE ||
	       type == BOOT_MEM_BOOT_DATA;
}

static bool page_used(uint64_t pfn)
{
	return bitmap[pfn / 64] & (1ULL << (pfn % 64));
}

static void mark_free(uint64_t pfn)
{
	if (pfn < npages && page_used(pfn)) {
		bitmap[pfn / 64] &= ~(1ULL << (pfn % 64));
		nfree++;
	}
}

static void mark_used(uint64_t pfn)
{
	if (pfn < npages && !page_used(pfn)) {
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
	pcp_init();
}

/* Allocation-failure injection (fail_nth.c installs it; host tests run without). */
bool (*pmm_fail_hook)(void);

static uint64_t free_pages(void); /* the lists' pages included (below) */

/* A run of count free pages in the bitmap, next fit from the hint, wrapping once; 0: none. */
static uint64_t rmqueue_run(size_t count)
{
	uint64_t run = 0, pfn, tries;

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
		if (page_used(pfn)) {
			run = 0;
			continue;
		}
		if (++run == count) {
			uint64_t first = pfn + 1 - count;

			for (uint64_t p = first; p <= pfn; p++)
				mark_used(p);
			next_hint = pfn + 1;
			return first * PAGE_SIZE;
		}
	}
	return 0;
}

/* ---- Per-CPU page lists ---- */

/*
 * Why: a fork takes and gives back dozens of single pages (page tables,
 * copy-on-write copies), and each one from the bitmap is a scan from
 * wherever the last one stopped, through whatever earlier work left
 * fragmented.  Linux puts a per-CPU list in front of its buddy allocator
 * for the same pages (per_cpu_pages, since 2.5): a single page is taken
 * from and freed to its CPU's list, last in first out, so the page handed
 * out is the one freed last on that CPU, still in its cache.  A list is
 * refilled from the bitmap `batch` pages at a time (rmqueue_bulk) and
 * gives its `batch` coldest back once it holds `high` (free_pages_bulk).
 * The sizes are 2.6.29's (mm/page_alloc.c, zone_batchsize and
 * setup_pageset): 31 and 186 for any zone of 512 MiB or more.  A run of
 * several pages (a kernel stack) comes from the bitmap, as 2.6.29's
 * higher orders came from its buddy lists.
 *
 * Where this differs from Linux, on purpose:
 *  - the pages on the lists count as free (pmm_free_count): the tests
 *    compare exact free counts before and after; Linux's MemFree leaves
 *    them out;
 *  - an allocation the bitmap cannot satisfy gives every CPU's list back
 *    first (Linux's drain_all_pages) and tries again, so no page is out of
 *    reach because another CPU's list holds it;
 *  - locks: each list has its own (6.6's pcp->lock: its CPU takes it, and
 *    so does another CPU that drains it), taken before zone_lock, as in
 *    6.6; a CPU never holds two lists' locks at once, so a drain gives
 *    its own list's up first.  Every caller still holds the big kernel
 *    lock, so today these are never contended; they make the allocator
 *    correct without it (the smp_page_alloc test runs it on every CPU at
 *    once, outside the big lock).  Interrupts are off while a lock is
 *    held.
 *
 * A list is a ring of page numbers in its CPU's own cache lines, not a
 * chain through the free pages: the hot end is where pages come and go,
 * the cold end where a full list gives its batch back.
 */
#define PCP_SLOTS 256 /* a power of two above the largest high, 6 * 31 */

struct per_cpu_pages {
	spinlock_t lock;
	uint32_t count; /* pages on the list */
	uint32_t hot;	/* the slot of the hottest page */
	struct pmm_pcp_stat stat;
	uint64_t pfn[PCP_SLOTS];
} __attribute__((aligned(64)));

static struct per_cpu_pages pcp_lists[NR_CPUS];
static uint32_t pcp_batch, pcp_high;

static uint64_t free_pages(void)
{
	uint64_t n = nfree;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		n += __atomic_load_n(&pcp_lists[cpu].count, __ATOMIC_RELAXED);
	return n;
}

/* 2.6.29's zone_batchsize: about a quarter of 1/1024 of the zone, at most 512 KiB, 2^n - 1. */
static uint32_t zone_batchsize(uint64_t pages)
{
	uint64_t batch = pages / 1024, pow = 1;

	if (batch * PAGE_SIZE > 512 * 1024)
		batch = 512 * 1024 / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	while (pow * 2 <= batch + batch / 2)
		pow *= 2;
	return pow - 1;
}

static void pcp_init(void)
{
	uint32_t batch = zone_batchsize(ntotal);

	memset(pcp_lists, 0, sizeof(pcp_lists));
	spin_lock_init(&zone_lock, &zone_lock_class);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		spin_lock_init(&pcp_lists[cpu].lock, &pcp_lock_class);
	pcp_high = 6 * batch; /* setup_pageset: high from the unclamped batch */
	pcp_batch = batch ? batch : 1;
}

static void pcp_push(struct per_cpu_pages *pcp, uint64_t pfn)
{
	pcp->hot = (pcp->hot + 1) % PCP_SLOTS;
	pcp->pfn[pcp->hot] = pfn;
	pcp->count++;
}

static uint64_t pcp_pop(struct per_cpu_pages *pcp)
{
	uint64_t pfn = pcp->pfn[pcp->hot];

	pcp->hot = (pcp->hot + PCP_SLOTS - 1) % PCP_SLOTS;
	pcp->count--;
	return pfn;
}

/* rmqueue_bulk: up to n free pages from the bitmap onto the list (its lock held); how many. */
static uint32_t rmqueue_bulk(struct per_cpu_pages *pcp, uint32_t n)
{
	uint32_t got = 0;
	uint64_t pfn;

	spin_lock(&zone_lock);
	while (got < n && (pfn = rmqueue_run(1) / PAGE_SIZE) != 0) {
		pcp_push(pcp, pfn);
		got++;
	}
	spin_unlock(&zone_lock);
	pcp->stat.refills++;
	return got;
}

/* free_pages_bulk: the list's n coldest pages back to the bitmap (its lock held). */
static void free_pages_bulk(struct per_cpu_pages *pcp, uint32_t n)
{
	if (n > pcp->count)
		n = pcp->count;
	spin_lock(&zone_lock);
	for (uint32_t i = 0; i < n; i++)
		mark_free(pcp->pfn[(pcp->hot + PCP_SLOTS - pcp->count + 1 + i) % PCP_SLOTS]);
	spin_unlock(&zone_lock);
	pcp->count -= n;
	pcp->stat.drains++;
}

/* drain_all_pages: every CPU's list back to the bitmap, one list's lock at a time. */
static void drain_all_pages(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &pcp_lists[cpu];

		if (!__atomic_load_n(&pcp->count, __ATOMIC_RELAXED))
			continue;
		spin_lock(&pcp->lock);
		free_pages_bulk(pcp, pcp->count);
		spin_unlock(&pcp->lock);
	}
}

/* One page off this CPU's list, refilled from the bitmap when empty; 0: none anywhere. */
static uint64_t rmqueue_pcplist(void)
{
	uint64_t flags, pfn = 0;
	struct per_cpu_pages *pcp = &pcp_lists[pmm_cpu_get(&flags)];

	spin_lock(&pcp->lock);
	if (!pcp->count && !rmqueue_bulk(pcp, pcp_batch)) {
		/* the bitmap is empty: what the lists hold, this one's lock given up first */
		spin_unlock(&pcp->lock);
		drain_all_pages();
		spin_lock(&pcp->lock);
		if (!pcp->count)
			rmqueue_bulk(pcp, pcp_batch);
	}
	if (pcp->count) {
		pfn = pcp_pop(pcp);
		pcp->stat.allocs++;
	}
	spin_unlock(&pcp->lock);
	pmm_cpu_put(flags);
	return pfn * PAGE_SIZE;
}

/* free_hot_page: onto this CPU's list; a full list gives its batch of coldest back. */
static void free_hot_page(uint64_t pfn)
{
	uint64_t flags;
	struct per_cpu_pages *pcp = &pcp_lists[pmm_cpu_get(&flags)];

	spin_lock(&pcp->lock);
	pcp_push(pcp, pfn);
	pcp->stat.frees++;
	if (pcp->count >= pcp_high)
		free_pages_bulk(pcp, pcp_batch);
	spin_unlock(&pcp->lock);
	pmm_cpu_put(flags);
}

/* A run of count pages from the bitmap; the lists give theirs back if it has none. */
static uint64_t rmqueue_pages(size_t count)
{
	uint64_t flags, first;

	pmm_cpu_get(&flags);
	spin_lock(&zone_lock);
	first = rmqueue_run(count);
	spin_unlock(&zone_lock);
	if (!first) {
		drain_all_pages();
		spin_lock(&zone_lock);
		first = rmqueue_run(count);
		spin_unlock(&zone_lock);
	}
	pmm_cpu_put(flags);
	return first;
}

void pmm_pcp_stat_read(unsigned int cpu, struct pmm_pcp_stat *out)
{
	if (cpu < NR_CPUS) {
		*out = pcp_lists[cpu].stat;
		out->count = pcp_lists[cpu].count;
	} else {
		memset(out, 0, sizeof(*out));
	}
	out->batch = pcp_batch;
	out->high = pcp_high;
}

void pmm_drain_all(void)
{
	uint64_t flags;

	pmm_cpu_get(&flags);
	drain_all_pages();
	pmm_cpu_put(flags);
}

/* ---- Allocation and freeing ---- */

/* The test hook's floor (pmm_set_floor): counting every list costs, so only when one is set. */
static bool below_floor(size_t count)
{
	uint64_t f;

	if (!floor_pages)
		return false;
	f = free_pages();
	return f < count || f - count < floor_pages;
}

uint64_t pmm_alloc_pages(size_t count)
{
	uint64_t first;

	if (count == 0 || below_floor(count) || (pmm_fail_hook && pmm_fail_hook()))
		return 0;
	first = count == 1 ? rmqueue_pcplist() : rmqueue_pages(count);
	for (uint64_t p = first / PAGE_SIZE; first && p < first / PAGE_SIZE + count; p++)
		refs[p] = 1;
	return first;
}

uint64_t pmm_alloc_page(void)
{
	return pmm_alloc_pages(1);
}

/* Pages the caller holds go back: one to its CPU's list, a run to the bitmap. */
static void free_held(uint64_t pfn, size_t count)
{
	uint64_t flags;

	for (size_t i = 0; i < count; i++)
		refs[pfn + i] = 0;
	if (count == 1) {
		free_hot_page(pfn);
		return;
	}
	pmm_cpu_get(&flags);
	spin_lock(&zone_lock);
	for (size_t i = 0; i < count; i++)
		mark_free(pfn + i);
	spin_unlock(&zone_lock);
	pmm_cpu_put(flags);
}

/*
 * A page is held when its bit is set and it has a reference: a page on a
 * list has its bit set but none, as has a page the allocator never handed
 * out (the kernel image, the firmware's).
 */
void pmm_free_pages(uint64_t phys, size_t count)
{
	uint64_t pfn = phys / PAGE_SIZE;

	if (phys % PAGE_SIZE)
		panic("pmm: free of unaligned address 0x%lx", phys);
	for (size_t i = 0; i < count; i++)
		if (pfn + i >= npages || !page_used(pfn + i) || !refs[pfn + i])
			panic("pmm: double free or bad address 0x%lx", phys + i * PAGE_SIZE);
	free_held(pfn, count);
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
	uint64_t before, freed, flags;

	if (phys % PAGE_SIZE || !size)
		return 0;
	pmm_cpu_get(&flags);
	spin_lock(&zone_lock);
	before = nfree;
	for (uint64_t pfn = first; pfn < last && pfn < npages; pfn++) {
		refs[pfn] = 0;
		mark_free(pfn);
	}
	freed = nfree - before;
	ntotal += freed;
	spin_unlock(&zone_lock);
	pmm_cpu_put(flags);
	return freed;
}

void pmm_free_page(uint64_t phys)
{
	pmm_free_pages(phys, 1);
}

uint64_t pmm_free_count(void)
{
	return free_pages();
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
	__atomic_add_fetch(&refs[pfn], 1, __ATOMIC_RELAXED);
}

unsigned page_ref_count(uint64_t phys)
{
	uint64_t pfn = phys / PAGE_SIZE;

	return pfn < npages ? __atomic_load_n(&refs[pfn], __ATOMIC_RELAXED) : 0;
}

void page_ref_put(uint64_t phys)
{
	uint64_t pfn = phys / PAGE_SIZE;

	if (pfn >= npages || refs[pfn] == 0)
		panic("pmm: put of unreferenced page 0x%lx", phys);
	if (__atomic_sub_fetch(&refs[pfn], 1, __ATOMIC_ACQ_REL) == 0)
		free_held(pfn, 1);
}
