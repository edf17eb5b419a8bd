/*
 * mprotect, as Linux's mm/mprotect.c: the range must be mapped throughout
 * (a hole: ENOMEM, the regions before it changed, as Linux); the regions are split at its ends,
 * given the new protection, merged with equal neighbours again, and every present page's entry is
 * rewritten at once so the hardware enforces it: no write without PROT_WRITE, NX without PROT_EXEC,
 * and PROT_NONE pages lose their user bit (Linux's _PAGE_PROTNONE clears the present bit instead;
 * here the page stays present for the kernel, which has no SMAP).  A page still shared with a fork
 * relative gains write access as copy-on-write, never directly, unless it is a MAP_SHARED page.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vma.h"
#include "kernel/mm/vmm.h"

/* Joins neighbours that mprotect made equal again (Linux's vma_merge). */
static void merge_vmas(struct mm_struct *mm)
{
	for (int i = 0; i + 1 < mm->nvmas;) {
		struct vm_area *a = &mm->vmas[i], *b = &mm->vmas[i + 1];

		if (a->end == b->start && a->flags == b->flags && a->kind == b->kind &&
		    a->vm_file == b->vm_file && a->vm_ops == b->vm_ops &&
		    ((a->kind != VMA_EXE && !a->vm_file) ||
		     a->pgoff + (a->end - a->start) == b->pgoff)) {
			a->end = b->end;
			vma_remove(mm, i + 1); /* drops b's file reference; a keeps one */
		} else {
			i++;
		}
	}
}

static void protect_one(uint64_t *pte, uint64_t va, void *ctx)
{
	uint32_t flags = *(const uint32_t *)ctx;
	uint64_t e = *pte & ~(PTE_W | PTE_NX | PTE_U);

	(void)va;

	if (flags & (VM_READ | VM_WRITE | VM_EXEC))
		e |= PTE_U;
	if (!(flags & VM_EXEC))
		e |= PTE_NX;
	if ((flags & VM_WRITE) && !(e & PTE_COW)) {
		if (page_ref_count(e & PTE_ADDR) > 1 && !(e & PTE_SHARED))
			e |= PTE_COW; /* shared with a fork relative: copy on write */
		else
			e |= PTE_W;
	}
	*pte = e;
}

/*
 * Only the pages that are there: a page at a time over the whole region, a
 * 64 GiB mapping held the CPU for 15-25 s (a 30-minute fuzz run).
 */
static void protect_ptes(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags)
{
	vmm_for_each_pte(mm->pml4, start, end, protect_one, &flags);
}

int mm_mprotect(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags)
{
	uint64_t at = start, stop;
	int need = 0;

	if ((start | end) & (PAGE_SIZE - 1) || end < start || end > TASK_SIZE)
		return -EINVAL;
	if (start == end)
		return 0;
	/* Up to the first hole (vmas are sorted); a hole at start: nothing changes. */
	for (int i = 0; i < mm->nvmas && at < end; i++) {
		const struct vm_area *v = &mm->vmas[i];

		if (v->end <= at)
			continue;
		if (v->start > at)
			break;
		/* [vvar] has no VM_MAYWRITE or VM_MAYEXEC (Linux 3.15's vvar_mapping) */
		if (v->kind == VMA_VVAR && (flags & (VM_WRITE | VM_EXEC)))
			return -EACCES;
		at = v->end;
	}
	if (at == start)
		return -ENOMEM;
	/*
	 * Linux 6.6's do_mprotect_pkey changes the regions in order and stops
	 * at a hole with ENOMEM, the ones before it changed: the same here.
	 */
	stop = at < end ? at : end;
	for (int i = 0; i < mm->nvmas; i++) {
		const struct vm_area *v = &mm->vmas[i];

		if (v->start < start && start < v->end)
			need++;
		if (v->start < stop && stop < v->end)
			need++;
	}
	if (mm->nvmas + need > NR_VMAS)
		return -ENOMEM;
	for (int i = 0; i < mm->nvmas; i++) {
		struct vm_area *v = &mm->vmas[i];

		if (v->end <= start || v->start >= stop)
			continue;
		if (v->start < start) {
			vma_split(mm, i, start);
			continue; /* the part at i + 1 is handled next */
		}
		if (v->end > stop)
			vma_split(mm, i, stop);
		v = &mm->vmas[i];
		v->flags = (v->flags & ~(uint32_t)(VM_READ | VM_WRITE | VM_EXEC)) | flags;
		protect_ptes(mm, v->start, v->end, v->flags);
	}
	merge_vmas(mm);
	flush_tlb_mm_range(mm, start, stop);
	return stop < end ? -ENOMEM : 0;
}
