/* mmap (anonymous, private), munmap, brk and mprotect. */
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/task/task.h"
#include "kernel/syscall/syscall.h"

#define PROT_READ     1
#define PROT_WRITE    2
#define PROT_EXEC     4
#define MAP_PRIVATE   0x02
#define MAP_FIXED     0x10
#define MAP_ANONYMOUS 0x20
#define MAP_NORESERVE 0x4000
#define MAP_STACK     0x20000 /* a hint Linux takes and ignores (glibc's posix_spawn stack) */

long sys_mmap(const struct syscall_args *a)
{
	struct mm_struct *mm = current->mm;
	uint64_t len = a->a1, addr;
	uint32_t fl = 0;
	int rc;

	/* Only what user programs here need; the rest says so with EINVAL. */
	if (!len || len > TASK_SIZE || (a->a2 & ~7ULL) ||
	    (a->a3 & ~(uint64_t)(MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK)) ||
	    !(a->a3 & MAP_ANONYMOUS) || !(a->a3 & MAP_PRIVATE) || (int)a->a4 != -1)
		return -EINVAL;
	len = (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	addr = mm_get_unmapped_area(mm, len);
	if (!addr)
		return -ENOMEM;
	fl |= (a->a2 & PROT_READ) ? VM_READ : 0;
	fl |= (a->a2 & PROT_WRITE) ? VM_WRITE : 0;
	fl |= (a->a2 & PROT_EXEC) ? VM_EXEC : 0;
	rc = mm_add_vma(mm, addr, addr + len, fl, VMA_ANON, 0);
	return rc ? rc : (long)addr;
}

long sys_munmap(const struct syscall_args *a)
{
	uint64_t addr = a->a0, len;

	/* Linux 6.6's do_vmi_munmap: len is checked before PAGE_ALIGN could wrap it. */
	if ((addr & (PAGE_SIZE - 1)) || !a->a1 || addr >= TASK_SIZE || a->a1 > TASK_SIZE - addr)
		return -EINVAL;
	len = (a->a1 + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	return mm_unmap_range(current->mm, addr, addr + len);
}

/* Linux's brk: returns the new break, or the old one when it cannot move. */
long sys_brk(const struct syscall_args *a)
{
	struct mm_struct *mm = current->mm;
	uint64_t want = a->a0, old_end, new_end;
	struct vm_area *heap = 0;

	if (want < mm->start_brk || want >= TASK_SIZE)
		return (long)mm->brk;
	old_end = (mm->brk + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	new_end = (want + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	for (int i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].kind == VMA_HEAP)
			heap = &mm->vmas[i];
	if (new_end > old_end) {
		if (!mm_range_free(mm, old_end, new_end))
			return (long)mm->brk;
		if (heap && heap->end == old_end)
			heap->end = new_end;
		else if (mm_add_vma(mm, old_end, new_end, VM_READ | VM_WRITE, VMA_HEAP, 0))
			return (long)mm->brk;
	} else if (new_end < old_end) {
		mm_unmap_range(mm, new_end, old_end);
	}
	mm->brk = want;
	return (long)mm->brk;
}

/* mprotect(addr, len, prot): as Linux, addr page-aligned, the range mapped throughout. */
long sys_mprotect(const struct syscall_args *a)
{
	uint64_t start = a->a0, len = (a->a1 + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	uint32_t fl = 0;

	if ((start & (PAGE_SIZE - 1)) || (a->a2 & ~7ULL))
		return -EINVAL;
	if (!a->a1)
		return 0;
	if (len < a->a1 || start >= TASK_SIZE || len > TASK_SIZE - start)
		return -ENOMEM;
	fl |= (a->a2 & PROT_READ) ? VM_READ : 0;
	fl |= (a->a2 & PROT_WRITE) ? VM_WRITE : 0;
	fl |= (a->a2 & PROT_EXEC) ? VM_EXEC : 0;
	return mm_mprotect(current->mm, start, start + len, fl);
}
