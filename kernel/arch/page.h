/*
 * Physical and virtual addresses of the kernel half, as Linux's
 * asm/page.h (__va/__pa): arch/ code (ACPI tables, the local APIC) reads
 * physical memory through these before and after mm/ builds the physmap.
 */
#ifndef KERNEL_ARCH_PAGE_H
#define KERNEL_ARCH_PAGE_H

#include <stdbool.h>
#include <stdint.h>

/* All physical memory is mapped here (2 MiB pages, no execute). */
#define PHYS_OFFSET 0xffff800000000000ULL

extern uint64_t kernel_phys_base; /* where the loader put the image */

void *phys_to_virt(uint64_t phys);
uint64_t virt_to_phys(const void *virt); /* kernel image and physmap only */
uint64_t vmm_physmap_top(void);		 /* phys_to_virt is valid below this */
bool physmap_is_live(void);
/* vmm_init, once the physmap covers [0, top) and CR3 points at it. */
void physmap_set_live(uint64_t top);

/* Zero one 4 KiB page, copy one (kernel/arch/clear_page.c; as Linux's asm/page_64.h). */
void clear_page(void *page);
void copy_page(void *to, const void *from);

#endif
