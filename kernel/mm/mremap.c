/*
 * mremap, as Linux 6.6's mm/mremap.c for the cases programs use: shrink
 * in place, grow in place when the pages after the region are free, and
 * with MREMAP_MAYMOVE move the region (its present pages' entries are
 * moved, nothing is copied) to a free range or, with MREMAP_FIXED, to
 * new_addr, replacing what was mapped there.  glibc's realloc of a block
 * it got from mmap calls it.  Only anonymous and file-backed mmap regions
 * move or grow; the program's own, heap and stack regions (whose ends exec
 * and brk keep in the mm) give EFAULT here, and MREMAP_DONTUNMAP
 * (Linux 5.7) is EINVAL: not implemented.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vma.h"
#include "kernel/mm/vmm.h"

/* The move's two passes over the source's present entries (vmm_for_each_pte). */
struct move_ctx {
	uint64_t pml4, delta; /* destination = source + delta */
	bool failed;
};

static void prepare_one(uint64_t *pte, uint64_t va, void *ctx)
{
	struct move_ctx *c = ctx;

	(void)pte;
	if (!c->failed && !vmm_walk(c->pml4, va + c->delta, true))
		c->failed = true;
}

static void move_one(uint64_t *pte, uint64_t va, void *ctx)
{
	struct move_ctx *c = ctx;
	uint64_t *dst = vmm_walk(c->pml4, va + c->delta, false);

	*dst = *pte;
	*pte = 0;
}

/*
 * Moves the present entries of [old, old + len) to new: first every table
 * the destination needs (ENOMEM before anything moved), then the entries.
 * Both passes skip absent tables, as Linux's move_page_tables skips
 * pmd_none, so the cost follows what is mapped, not the length.
 */
static int move_ptes(struct mm_struct *mm, uint64_t old, uint64_t new, uint64_t len)
{
	struct move_ctx c = {mm->pml4, new - old, false};

	if (old + len < old)
		return -ENOMEM;
	vmm_for_each_pte(mm->pml4, old, old + len, prepare_one, &c);
	if (c.failed)
		return -ENOMEM;
	vmm_for_each_pte(mm->pml4, old, old + len, move_one, &c);
	return 0;
}

/* Moves [addr, addr + old_len) of v to [to, to + new_len) (to is free); -ENOMEM. */
static long move_vma(struct mm_struct *mm, struct vm_area *v, uint64_t addr, uint64_t old_len,
		     uint64_t new_len, uint64_t to)
{
	struct vm_area copy = *v;
	uint64_t moved = old_len < new_len ? old_len : new_len;
	int rc;

	copy.pgoff += addr - v->start;
	rc = move_ptes(mm, addr, to, moved);
	if (rc)
		return rc;
	/* mm_map_file takes its own file reference; the old region's goes with it. */
	rc = mm_map_file(mm, to, to + new_len, copy.flags, copy.kind, copy.vm_ops, copy.vm_file,
			 copy.pgoff);
	if (rc) {
		move_ptes(mm, to, addr, moved); /* the tables exist: cannot fail */
		return rc;
	}
	mm_unmap_range(mm, addr, addr + old_len);
	return (long)to;
}

long mm_mremap(struct mm_struct *mm, uint64_t addr, uint64_t old_len, uint64_t new_len,
	       bool may_move, bool fixed, uint64_t new_addr)
{
	struct vm_area *v;
	long rc;

	if (!fixed && new_len <= old_len) {
		/* Linux shrinks before it looks at the region: the tail is unmapped, holes and all.
		 */
		rc = mm_unmap_range(mm, addr + new_len, addr + old_len);
		return rc ? rc : (long)addr;
	}
	v = find_vma(mm, addr);
	if (!v || old_len > v->end - addr)
		return -EFAULT;
	if (!old_len)
		return -EINVAL; /* duplicating a private mapping: Linux refuses it */
	if (v->kind != VMA_ANON && v->kind != VMA_FILE)
		return -EFAULT;
	/* A move: a new region and a split of the old at most. */
	if (mm->nvmas + 2 > NR_VMAS && (fixed || new_len > old_len))
		return -ENOMEM;
	if (fixed) {
		if (new_addr < addr + old_len && addr < new_addr + new_len)
			return -EINVAL; /* Linux: the ranges may not overlap */
		rc = mm_unmap_range(mm, new_addr, new_addr + new_len);
		if (rc)
			return rc;
		v = find_vma(mm, addr);
		if (new_len < old_len) {
			mm_unmap_range(mm, addr + new_len, addr + old_len);
			old_len = new_len;
			v = find_vma(mm, addr);
		}
		rc = move_vma(mm, v, addr, old_len, new_len, new_addr);
	} else if (addr + old_len == v->end && new_len <= mm->task_size - addr &&
		   mm_range_free(mm, v->end, addr + new_len)) {
		/* vma_expandable: not past TASK_SIZE (IA32_PAGE_OFFSET for an IA-32 program) */
		v->end = addr + new_len; /* grows in place: demand-zero or filled at fault */
		return (long)addr;
	} else if (!may_move) {
		return -ENOMEM;
	} else {
		uint64_t to = mm_get_unmapped_area(mm, new_len);

		if (!to)
			return -ENOMEM;
		rc = move_vma(mm, v, addr, old_len, new_len, to);
	}
	flush_tlb_mm(mm);
	return rc;
}
