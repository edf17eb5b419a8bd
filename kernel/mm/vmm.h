#ifndef KERNEL_MM_VMM_H
#define KERNEL_MM_VMM_H

#include <stdint.h>
#include <stdbool.h>

#include "boot/boot_info.h"
#include "kernel/arch/page.h" /* phys_to_virt, PHYS_OFFSET */

#define PTE_P	   (1ULL << 0)
#define PTE_W	   (1ULL << 1)
#define PTE_U	   (1ULL << 2)
#define PTE_PWT	   (1ULL << 3)
#define PTE_PCD	   (1ULL << 4)
#define PTE_A	   (1ULL << 5)
#define PTE_D	   (1ULL << 6)
#define PTE_PS	   (1ULL << 7)
#define PTE_PAT	   (1ULL << 7) /* in a 4 KiB PTE; the same bit is PS in a PDE */
#define PTE_G	   (1ULL << 8)
#define PTE_COW	   (1ULL << 9)	/* software bit: copy on write */
#define PTE_SHARED (1ULL << 10) /* software bit: a VM_SHARED page, fork shares it writable */
#define PTE_NX	   (1ULL << 63)
#define PTE_ADDR   0x000ffffffffff000ULL

void vmm_init(void);
uint64_t vmm_kernel_pml4(void);

/* Page-table operations on any address space (pml4 is physical). */
int vmm_map_page(uint64_t pml4, uint64_t va, uint64_t pa, uint64_t flags);
int vmm_unmap_page(uint64_t pml4, uint64_t va, uint64_t *pa_out);
/* vmm_unmap_page without the flush: the caller flushes (vmm_flush_all) */
int vmm_clear_page(uint64_t pml4, uint64_t va, uint64_t *pa_out);
void vmm_flush_all(void);
#define VMM_FLUSH_CEILING 33 /* pages: past this, one full flush beats invlpg each */
int vmm_translate(uint64_t pml4, uint64_t va, uint64_t *pa_out, uint64_t *flags_out);
/* Unmaps every present user page in [start, end), skipping absent tables; the count. */
/* Calls visit on every present user-half leaf in [start, end), skipping absent tables. */
uint64_t vmm_for_each_pte(uint64_t pml4, uint64_t start, uint64_t end,
			  void (*visit)(uint64_t *pte, uint64_t va, void *ctx), void *ctx);
uint64_t vmm_unmap_range(uint64_t pml4, uint64_t start, uint64_t end, void (*put)(uint64_t pa));
uint64_t *vmm_walk(uint64_t pml4, uint64_t va, bool create); /* leaf PTE or NULL */
/* Frees the last-level table that maps va (its 2 MiB) when no entry in it is present. */
void vmm_free_table(uint64_t pml4, uint64_t va);

#endif
