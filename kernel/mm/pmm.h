#ifndef KERNEL_MM_PMM_H
#define KERNEL_MM_PMM_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "boot/boot_info.h"

#define PAGE_SIZE  4096UL
#define PAGE_SHIFT 12

void pmm_init(const struct boot_info *bi);
void pmm_physmap_live(void);		/* the identity map is gone: re-point the bitmap */
extern bool (*pmm_fail_hook)(void);	/* true: fail this allocation (fail-nth) */
uint64_t pmm_alloc_page(void);		/* physical address, 0 when none left */
uint64_t pmm_alloc_pages(size_t count); /* contiguous */
void pmm_free_page(uint64_t phys);
/* The unpacked initramfs's pages go to the allocator (loader data until then). */
uint64_t free_initrd_mem(uint64_t phys, uint64_t size);
void pmm_free_pages(uint64_t phys, size_t count);
uint64_t pmm_free_count(void);
uint64_t pmm_total_count(void);
uint64_t pmm_max_phys(void);
/*
 * Copy-on-write reference counts.  An allocated page starts at 1;
 * page_ref_put frees it when the count reaches 0.
 */
void page_ref_get(uint64_t phys);
void page_ref_put(uint64_t phys);
unsigned page_ref_count(uint64_t phys);
/* Test hook for out-of-memory paths: allocations fail rather than go below `pages` free. */
void pmm_set_floor(uint64_t pages);

/*
 * The per-CPU page lists (pmm.c): what one CPU's list did, its length now,
 * and the sizes every list shares.
 */
struct pmm_pcp_stat {
	uint64_t allocs;  /* single pages handed out from the list */
	uint64_t frees;	  /* single pages freed onto it */
	uint64_t refills; /* batches taken from the bitmap (rmqueue_bulk) */
	uint64_t drains;  /* batches given back (free_pages_bulk) */
	uint32_t count, batch, high;
};
void pmm_pcp_stat_read(unsigned int cpu, struct pmm_pcp_stat *out);
void pmm_drain_all(void); /* every list back to the bitmap (drain_all_pages) */

/*
 * This CPU's number for its list, with interrupts off until pmm_cpu_put
 * (kernel/mm/pmm_cpu.c; the host tests have their own).
 */
unsigned int pmm_cpu_get(uint64_t *flags);
void pmm_cpu_put(uint64_t flags);

#endif
