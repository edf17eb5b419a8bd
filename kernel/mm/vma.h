/* The region list's internals, shared by mm.c, mmap.c and mprotect.c only. */
#ifndef KERNEL_MM_VMA_H
#define KERNEL_MM_VMA_H

#include "kernel/mm/mm.h"

/* Inserts v at index i (the list stays sorted); takes a file reference. */
void vma_insert(struct mm_struct *mm, int i, const struct vm_area *v);
/* Removes region i; drops its file reference. */
void vma_remove(struct mm_struct *mm, int i);
/* Splits region i at addr (inside it): [start, addr) stays at i, the rest at i + 1. */
void vma_split(struct mm_struct *mm, int i, uint64_t addr);
/* One more reference on every region's file (fork), or one less (teardown). */
void vma_get_files(struct mm_struct *mm);
void vma_put_files(struct mm_struct *mm);

#endif
