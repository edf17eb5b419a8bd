/*
 * The region list of an address space: a sorted array of at most NR_VMAS
 * regions, anonymous or file-backed.  A file-backed region holds one
 * reference on its file (Linux's get_file in vma dup/split, fput in
 * remove_vma), so the file outlives its descriptor while mapped.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vma.h"
#include "kernel/mm/vmm.h"

static void vma_file_get(const struct vm_area *v)
{
	if (v->vm_file)
		v->vm_ops->get(v->vm_file);
}

static void vma_file_put(const struct vm_area *v)
{
	if (v->vm_file)
		v->vm_ops->put(v->vm_file);
}

void vma_insert(struct mm_struct *mm, int i, const struct vm_area *v)
{
	for (int j = mm->nvmas; j > i; j--)
		mm->vmas[j] = mm->vmas[j - 1];
	mm->vmas[i] = *v;
	mm->nvmas++;
	vma_file_get(v);
}

void vma_remove(struct mm_struct *mm, int i)
{
	struct vm_area old = mm->vmas[i];

	for (int j = i; j < mm->nvmas - 1; j++)
		mm->vmas[j] = mm->vmas[j + 1];
	mm->nvmas--;
	vma_file_put(&old);
}

void vma_split(struct mm_struct *mm, int i, uint64_t addr)
{
	struct vm_area tail = mm->vmas[i];

	tail.start = addr;
	tail.pgoff += addr - mm->vmas[i].start;
	mm->vmas[i].end = addr;
	vma_insert(mm, i + 1, &tail);
}

void vma_get_files(struct mm_struct *mm)
{
	for (int i = 0; i < mm->nvmas; i++)
		vma_file_get(&mm->vmas[i]);
}

void vma_put_files(struct mm_struct *mm)
{
	for (int i = 0; i < mm->nvmas; i++)
		vma_file_put(&mm->vmas[i]);
}

struct vm_area *find_vma(struct mm_struct *mm, uint64_t addr)
{
	for (int i = 0; i < mm->nvmas; i++)
		if (addr >= mm->vmas[i].start && addr < mm->vmas[i].end)
			return &mm->vmas[i];
	return 0;
}

bool mm_range_free(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	if (start >= end || end > TASK_SIZE || start < PAGE_SIZE)
		return false;
	for (int i = 0; i < mm->nvmas; i++)
		if (start < mm->vmas[i].end && end > mm->vmas[i].start)
			return false;
	return true;
}

int mm_map_file(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
		enum vma_kind kind, const struct vm_operations_struct *ops, void *file,
		uint64_t pgoff)
{
	struct vm_area v = {start, end, flags, kind, pgoff, file, file ? ops : 0};
	int i;

	if ((start | end | pgoff) & (PAGE_SIZE - 1) || !mm_range_free(mm, start, end) ||
	    (file && (!ops || !ops->get || !ops->put || !ops->fill)))
		return -EINVAL;
	if (mm->nvmas >= NR_VMAS)
		return -ENOMEM;
	for (i = mm->nvmas; i > 0 && mm->vmas[i - 1].start > start; i--)
		;
	vma_insert(mm, i, &v);
	return 0;
}

int mm_add_vma(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
	       enum vma_kind kind, uint64_t pgoff)
{
	struct vm_area v = {start, end, flags, kind, pgoff, 0, 0};
	int i;

	kernel_lock_assert_held("mm_add_vma");
	if ((start | end) & (PAGE_SIZE - 1) || !mm_range_free(mm, start, end))
		return -EINVAL;
	if (mm->nvmas >= NR_VMAS)
		return -ENOMEM;
	for (i = mm->nvmas; i > 0 && mm->vmas[i - 1].start > start; i--)
		;
	vma_insert(mm, i, &v);
	return 0;
}

/* Walks the page tables, not the range: munmap of terabytes costs what is mapped. */
static void unmap_pages(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	mm->rss_pages -= vmm_unmap_range(mm->pml4, start, end, page_ref_put);
}

/* Does unmapping [start, end) split a region in two (one region more)? */
static bool unmap_splits(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	for (int i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].start < start && end < mm->vmas[i].end)
			return true;
	return false;
}

/* Removes [start, end) from every region, splitting where needed. */
int mm_unmap_range(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	kernel_lock_assert_held("mm_unmap_range");
	if (mm->nvmas >= NR_VMAS && unmap_splits(mm, start, end))
		return -ENOMEM; /* Linux's __split_vma past max_map_count */
	for (int i = 0; i < mm->nvmas; i++) {
		struct vm_area *v = &mm->vmas[i];
		uint64_t lo = start > v->start ? start : v->start;
		uint64_t hi = end < v->end ? end : v->end;

		if (lo >= hi)
			continue;
		if (lo > v->start && hi < v->end) {
			vma_split(mm, i, hi); /* i keeps [start, hi), i + 1 the tail */
			mm->vmas[i].end = lo;
			unmap_pages(mm, lo, hi);
			return 0;
		}
		unmap_pages(mm, lo, hi);
		if (lo == v->start && hi == v->end) {
			vma_remove(mm, i);
			i--;
		} else if (lo == v->start) {
			v->pgoff += hi - v->start;
			v->start = hi;
		} else {
			v->end = lo;
		}
	}
	return 0;
}

int mm_map_fixed(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
		 enum vma_kind kind, const struct vm_operations_struct *ops, void *file,
		 uint64_t pgoff)
{
	int rc;

	kernel_lock_assert_held("mm_map_fixed");
	if ((start | end | pgoff) & (PAGE_SIZE - 1) || start < PAGE_SIZE || start >= end ||
	    end > TASK_SIZE || (file && (!ops || !ops->get || !ops->put || !ops->fill)))
		return -EINVAL;
	/* A split in the middle and the new region: never fail half-way. */
	if (mm->nvmas + 1 + unmap_splits(mm, start, end) > NR_VMAS)
		return -ENOMEM;
	rc = mm_unmap_range(mm, start, end);
	if (!rc)
		rc = mm_map_file(mm, start, end, flags, kind, ops, file, pgoff);
	return rc;
}

/* Top-down from mmap_base, below every existing region (Linux's default layout). */
uint64_t mm_get_unmapped_area(struct mm_struct *mm, uint64_t len)
{
	uint64_t end = mm->mmap_base;

	len = (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (!len || len > end - PAGE_SIZE)
		return 0;
	for (int i = mm->nvmas - 1; i >= 0; i--) {
		const struct vm_area *v = &mm->vmas[i];

		if (v->start >= end)
			continue;
		if (v->end <= end - len)
			return end - len;
		end = v->start;
		if (end < len + PAGE_SIZE)
			return 0;
	}
	return end - len;
}
