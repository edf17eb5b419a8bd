/*
 * mmap (anonymous, MAP_SHARED anonymous and file-backed MAP_PRIVATE),
 * munmap, brk and mprotect, with Linux 6.6's checks in its order (arch/x86
 * sys_mmap, ksys_mmap_pgoff, do_mmap, __get_unmapped_area).  Not
 * implemented, with the errno a user sees: MAP_SHARED of a file (ENODEV, see
 * kernel/fs/filemap.h), MAP_GROWSDOWN and MAP_HUGETLB (EINVAL).
 */
#include "kernel/fs/filemap.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/task/sched.h"
#include "kernel/task/task.h"
#include "kernel/syscall/syscall.h"

#define PROT_READ	    1
#define PROT_WRITE	    2
#define PROT_EXEC	    4
#define MAP_SHARED	    0x01
#define MAP_PRIVATE	    0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_DROPPABLE	    0x08 /* Linux 6.11: private anonymous, wiped on fork (mm.h) */
#define MAP_TYPE	    0x0f
#define MAP_FIXED	    0x10
#define MAP_ANONYMOUS	    0x20
#define MAP_GROWSDOWN	    0x100
#define MAP_DENYWRITE	    0x800
#define MAP_EXECUTABLE	    0x1000
#define MAP_LOCKED	    0x2000
#define MAP_NORESERVE	    0x4000
#define MAP_POPULATE	    0x8000
#define MAP_NONBLOCK	    0x10000
#define MAP_STACK	    0x20000 /* a hint Linux takes and ignores (glibc's posix_spawn stack) */
#define MAP_HUGETLB	    0x40000
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17 */
/* LEGACY_MAP_MASK: what plain MAP_SHARED accepts; MAP_SHARED_VALIDATE refuses the rest. */
#define LEGACY_MAP_MASK                                                                            \
	(MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_DENYWRITE | MAP_EXECUTABLE |   \
	 MAP_UNINITIALIZED | MAP_GROWSDOWN | MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE |           \
	 MAP_NONBLOCK | MAP_STACK | MAP_HUGETLB)
#define MAP_UNINITIALIZED 0x4000000
/* Linux's TASK_SIZE, per task: IA32_PAGE_OFFSET for an IA-32 program (mm->task_size) */
#define TASK_SIZE_OF(mm) ((mm)->task_size)
#define MMAP_MIN_ADDR	 65536UL /* Debian's CONFIG_DEFAULT_MMAP_MIN_ADDR */

static uint32_t prot_to_vm(uint64_t prot)
{
	return ((prot & PROT_READ) ? VM_READ : 0) | ((prot & PROT_WRITE) ? VM_WRITE : 0) |
	       ((prot & PROT_EXEC) ? VM_EXEC : 0);
}

/*
 * Where a mapping without MAP_FIXED goes: the hint if the range there is
 * free (arch_get_unmapped_area_topdown), else top-down from mmap_base; 0: none.
 */
static uint64_t unmapped_area(struct mm_struct *mm, uint64_t hint, uint64_t len)
{
	hint = (hint + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (hint && hint >= MMAP_MIN_ADDR && hint <= TASK_SIZE_OF(current->mm) - len &&
	    mm_range_free(mm, hint, hint + len))
		return hint;
	return mm_get_unmapped_area(mm, len);
}

/*
 * MAP_SHARED|MAP_ANONYMOUS: Linux backs it with a shmem file whose pages
 * fork relatives find at fault time; here every page is given its frame at
 * mmap, so a fork shares them all (mm_populate_shared), 64 pages between
 * preemption points.  Out of memory half-way: the mapping goes, ENOMEM.
 */
#define SHARED_POPULATE_CHUNK (64 * PAGE_SIZE)
static int map_shared_anon(struct mm_struct *mm, uint64_t addr, uint64_t len)
{
	for (uint64_t at = addr; at < addr + len; at += SHARED_POPULATE_CHUNK) {
		uint64_t n = addr + len - at < SHARED_POPULATE_CHUNK ? addr + len - at
								     : SHARED_POPULATE_CHUNK;
		/* a CLONE_VM relative may have unmapped it while this one was preempted */
		int rc = mm_populate_shared(mm, at, at + n);

		if (rc) {
			mm_unmap_range(mm, addr, addr + len);
			return rc == -EINVAL ? -ENOMEM : rc;
		}
		cond_resched();
	}
	return 0;
}

static long do_mmap(const struct syscall_args *a)
{
	struct mm_struct *mm = current->mm;
	uint64_t addr = a->a0, len = a->a1, prot = a->a2, flags = a->a3, off = a->a5;
	const struct vm_operations_struct *ops = 0;
	enum vma_kind kind = VMA_ANON;
	struct file *f = 0;
	bool shared, droppable = (flags & MAP_TYPE) == MAP_DROPPABLE;
	uint32_t vm;
	int rc;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL; /* x86's sys_mmap, before anything else */
	if (!(flags & MAP_ANONYMOUS) && !(f = fget((uint64_t)(int)a->a4)))
		return -EBADF;
	if (!len || (prot & ~7ULL))
		return -EINVAL;
	if (f && (flags & MAP_TYPE) == MAP_SHARED_VALIDATE && (flags & ~(uint64_t)LEGACY_MAP_MASK))
		return -EOPNOTSUPP;
	/*
	 * 6.12's do_mmap: a file takes PRIVATE, SHARED or SHARED_VALIDATE;
	 * anonymous memory PRIVATE, SHARED or DROPPABLE (never locked, hugetlb
	 * or grows-down).
	 */
	if ((flags & MAP_TYPE) != MAP_PRIVATE && (flags & MAP_TYPE) != MAP_SHARED &&
	    !((flags & MAP_TYPE) == MAP_SHARED_VALIDATE && f) && !(droppable && !f))
		return -EINVAL;
	if (droppable && (flags & (MAP_LOCKED | MAP_HUGETLB | MAP_GROWSDOWN)))
		return -EINVAL;
	shared = (flags & MAP_TYPE) != MAP_PRIVATE && !droppable;
	if (flags & (MAP_GROWSDOWN | MAP_HUGETLB))
		return -EINVAL; /* not implemented here */
	if (len > TASK_SIZE_OF(current->mm))
		return -ENOMEM;
	len = (len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (off + len < off)
		return -EOVERFLOW;
	if (mm->nvmas >= NR_VMAS)
		return -ENOMEM; /* max_map_count */
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (flags & MAP_FIXED) {
		if (addr > TASK_SIZE_OF(current->mm) - len)
			return -ENOMEM;
		if (addr & (PAGE_SIZE - 1))
			return -EINVAL;
		if ((flags & MAP_FIXED_NOREPLACE) && !mm_range_free(mm, addr, addr + len) &&
		    addr >= PAGE_SIZE)
			return -EEXIST;
		if (addr < PAGE_SIZE)
			return -EPERM; /* below mmap_min_addr, as an unprivileged Linux caller */
	} else if (!(addr = unmapped_area(mm, addr, len))) {
		return -ENOMEM;
	}
	if (f) {
		rc = file_mmap_check(f, shared, prot & PROT_WRITE);
		if (rc < 0)
			return rc;
		if (rc != FILE_MMAP_ANON) {
			ops = &file_vm_ops;
			kind = VMA_FILE;
		} else {
			f = 0;
		}
	} else if (shared && len / PAGE_SIZE >= pmm_free_count()) {
		return -ENOMEM; /* its pages are allocated now (map_shared_anon) */
	}
	vm = prot_to_vm(prot) | (shared && !f ? VM_SHARED : 0) |
	     (droppable ? VM_DROPPABLE | VM_WIPEONFORK : 0);
	if (flags & MAP_FIXED)
		rc = mm_map_fixed(mm, addr, addr + len, vm, kind, ops, f, f ? off : 0);
	else
		rc = mm_map_file(mm, addr, addr + len, vm, kind, ops, f, f ? off : 0);
	if (!rc && (vm & VM_SHARED))
		rc = map_shared_anon(mm, addr, len);
	return rc ? rc : (long)addr;
}

static long do_munmap(const struct syscall_args *a)
{
	uint64_t addr = a->a0, len;

	/* Linux 6.6's do_vmi_munmap: len is checked before PAGE_ALIGN could wrap it. */
	if ((addr & (PAGE_SIZE - 1)) || !a->a1 || addr >= TASK_SIZE_OF(current->mm) ||
	    a->a1 > TASK_SIZE_OF(current->mm) - addr)
		return -EINVAL;
	len = (a->a1 + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	return mm_unmap_range(current->mm, addr, addr + len);
}

/* Linux's brk: returns the new break, or the old one when it cannot move. */
static long do_brk(const struct syscall_args *a)
{
	struct mm_struct *mm = current->mm;
	uint64_t want = a->a0, old_end, new_end;
	struct vm_area *heap = 0;

	if (want < mm->start_brk || want >= TASK_SIZE_OF(current->mm))
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

#define MREMAP_MAYMOVE	 1
#define MREMAP_FIXED	 2
#define MREMAP_DONTUNMAP 4 /* Linux 5.7: not implemented here (EINVAL) */

/* mremap(addr, old_len, new_len, flags, new_addr): Linux 6.6's checks, in its order. */
static long do_mremap(const struct syscall_args *a)
{
	uint64_t addr = a->a0, old_len = a->a1, new_len = a->a2, flags = a->a3, to = a->a4;
	bool fixed = flags & MREMAP_FIXED;

	if (flags & ~(uint64_t)(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if (fixed && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if (flags & MREMAP_DONTUNMAP)
		return -EINVAL;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	/* PAGE_ALIGN, wrapping as Linux's: ~0 becomes 0. */
	old_len = (old_len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	new_len = (new_len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (!new_len)
		return -EINVAL;
	if (fixed && ((to & (PAGE_SIZE - 1)) || new_len > TASK_SIZE_OF(current->mm) ||
		      to > TASK_SIZE_OF(current->mm) - new_len || to < PAGE_SIZE))
		return -EINVAL;
	/* Beyond the user half nothing is mapped: EFAULT, as vma_to_resize finds no region. */
	if (addr >= TASK_SIZE_OF(current->mm) || old_len > TASK_SIZE_OF(current->mm) - addr)
		return -EFAULT;
	if (new_len > TASK_SIZE_OF(current->mm) - PAGE_SIZE)
		return -ENOMEM;
	return mm_mremap(current->mm, addr, old_len, new_len, flags & MREMAP_MAYMOVE, fixed, to);
}

/* mprotect(addr, len, prot): as Linux, addr page-aligned, the range mapped throughout. */
static long do_mprotect(const struct syscall_args *a)
{
	uint64_t start = a->a0, len = (a->a1 + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	uint32_t fl = 0;

	if ((start & (PAGE_SIZE - 1)) || (a->a2 & ~7ULL))
		return -EINVAL;
	if (!a->a1)
		return 0;
	if (len < a->a1 || start >= TASK_SIZE_OF(current->mm) ||
	    len > TASK_SIZE_OF(current->mm) - start)
		return -ENOMEM;
	fl = prot_to_vm(a->a2);
	return mm_mprotect(current->mm, start, start + len, fl);
}

/*
 * The calls that change the caller's regions or page tables, each inside
 * mm_write_begin/end: a page fault another thread of the process takes
 * without the big kernel lock (kernel/mm/mm.c) waits for none of them, so
 * it must not run while they do.  Linux 6.6's take mmap_write_lock.
 */
static long mm_write(long (*fn)(const struct syscall_args *), const struct syscall_args *a)
{
	struct mm_struct *mm = current->mm;
	long rc;

	if (!mm)
		return fn(a);
	mm_write_begin(mm);
	rc = fn(a);
	mm_write_end(mm);
	return rc;
}

long sys_mmap(const struct syscall_args *a)
{
	return mm_write(do_mmap, a);
}

long sys_munmap(const struct syscall_args *a)
{
	return mm_write(do_munmap, a);
}

long sys_brk(const struct syscall_args *a)
{
	return mm_write(do_brk, a);
}

long sys_mremap(const struct syscall_args *a)
{
	return mm_write(do_mremap, a);
}

long sys_mprotect(const struct syscall_args *a)
{
	return mm_write(do_mprotect, a);
}
