/*
 * mprotect, as Linux's mm/mprotect.c: the range must be mapped throughout
 * (a hole: ENOMEM); the regions are split at its ends, given the new
 * protection, merged with equal neighbours again, and every present page's
 * entry is rewritten at once so the hardware enforces it: no write without
 * PROT_WRITE, NX without PROT_EXEC, and PROT_NONE pages lose their user bit
 * (Linux's _PAGE_PROTNONE clears the present bit instead; here the page
 * stays present for the kernel, which has no SMAP).  A page still shared
 * with a fork relative gains write access as copy-on-write, never directly.
 */
#include "kernel/arch/cpu.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"

/* Splits region i at addr (inside it): [start, addr) stays at i, the rest at i + 1. */
static void split_vma(struct mm_struct *mm, int i, uint64_t addr)
{
	struct vm_area tail = mm->vmas[i];

	tail.start = addr;
	tail.pgoff += addr - mm->vmas[i].start;
	mm->vmas[i].end = addr;
	for (int j = mm->nvmas; j > i + 1; j--)
		mm->vmas[j] = mm->vmas[j - 1];
	mm->vmas[i + 1] = tail;
	mm->nvmas++;
}

/* Joins neighbours that mprotect made equal again (Linux's vma_merge). */
static void merge_vmas(struct mm_struct *mm)
{
	for (int i = 0; i + 1 < mm->nvmas;) {
		struct vm_area *a = &mm->vmas[i], *b = &mm->vmas[i + 1];

		if (a->end == b->start && a->flags == b->flags && a->kind == b->kind &&
		    (a->kind != VMA_EXE || a->pgoff + (a->end - a->start) == b->pgoff)) {
			a->end = b->end;
			for (int j = i + 1; j < mm->nvmas - 1; j++)
				mm->vmas[j] = mm->vmas[j + 1];
			mm->nvmas--;
		} else {
			i++;
		}
	}
}

static void protect_ptes(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags)
{
	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t *pte = vmm_walk(mm->pml4, va, false), e;

		if (!pte || !(*pte & PTE_P))
			continue;
		e = *pte & ~(PTE_W | PTE_NX | PTE_U);
		if (flags & (VM_READ | VM_WRITE | VM_EXEC))
			e |= PTE_U;
		if (!(flags & VM_EXEC))
			e |= PTE_NX;
		if ((flags & VM_WRITE) && !(e & PTE_COW)) {
			if (page_ref_count(e & PTE_ADDR) > 1)
				e |= PTE_COW; /* shared with a fork relative: copy on write */
			else
				e |= PTE_W;
		}
		*pte = e;
	}
}

int mm_mprotect(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags)
{
	uint64_t at = start;
	int need = 0;

	if ((start | end) & (PAGE_SIZE - 1) || end < start || end > TASK_SIZE)
		return -EINVAL;
	if (start == end)
		return 0;
	/* The whole range mapped, with no hole (vmas are sorted). */
	for (int i = 0; i < mm->nvmas && at < end; i++) {
		const struct vm_area *v = &mm->vmas[i];

		if (v->end <= at)
			continue;
		if (v->start > at)
			return -ENOMEM;
		/* [vvar] has no VM_MAYWRITE or VM_MAYEXEC (Linux 3.15's vvar_mapping) */
		if (v->kind == VMA_VVAR && v->start < end && (flags & (VM_WRITE | VM_EXEC)))
			return -EACCES;
		if (v->start < start && start < v->end)
			need++;
		if (v->start < end && end < v->end)
			need++;
		at = v->end;
	}
	if (at < end)
		return -ENOMEM;
	if (mm->nvmas + need > NR_VMAS)
		return -ENOMEM;
	for (int i = 0; i < mm->nvmas; i++) {
		struct vm_area *v = &mm->vmas[i];

		if (v->end <= start || v->start >= end)
			continue;
		if (v->start < start) {
			split_vma(mm, i, start);
			continue; /* the part at i + 1 is handled next */
		}
		if (v->end > end)
			split_vma(mm, i, end);
		v = &mm->vmas[i];
		v->flags = (v->flags & ~(uint32_t)(VM_READ | VM_WRITE | VM_EXEC)) | flags;
		protect_ptes(mm, v->start, v->end, v->flags);
	}
	merge_vmas(mm);
	if ((read_cr3() & PTE_ADDR) == mm->pml4)
		write_cr3(read_cr3());
	return 0;
}
