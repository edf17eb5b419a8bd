/* User memory access: see uaccess.h. */
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vmm.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/errno.h"

uint64_t __copy_user(void *dst, const void *src, uint64_t n);
int __get_user_u8(uint8_t *dst, const uint8_t *src);

struct mm_struct *(*uaccess_current_mm)(void);

bool access_ok(uint64_t addr, uint64_t size)
{
	return addr < TASK_SIZE && size <= TASK_SIZE - addr;
}

/*
 * The page tables' answer for the page at va: a leaf that is present and
 * user (and writable, for a write) allows the access, as mmap, mprotect
 * and copy-on-write never leave a leaf wider than its VMA's rights (the
 * vDSO's and vvar's pages are VMAs too).  Any other leaf, a page not
 * faulted in yet, copy-on-write or PROT_NONE, is for the VMAs to decide.
 * Only a user address space reaches here, and it exists only once the
 * physmap does.
 */
static inline __attribute__((always_inline)) bool leaf_allows(uint64_t pml4, uint64_t va,
							      uint64_t need)
{
	const uint64_t *t = (const uint64_t *)(pml4 + PHYS_OFFSET);
	uint64_t e = t[(va >> 39) & 511];

	/* need holds PTE_P: a missing entry fails the last test at any level */
	if (!(e & PTE_P))
		return false;
	t = (const uint64_t *)((e & PTE_ADDR) + PHYS_OFFSET);
	e = t[(va >> 30) & 511];
	if ((e & (PTE_P | PTE_PS)) != PTE_P) /* absent, or a 1 GiB leaf */
		return (e & need) == need;
	t = (const uint64_t *)((e & PTE_ADDR) + PHYS_OFFSET);
	e = t[(va >> 21) & 511];
	if ((e & (PTE_P | PTE_PS)) != PTE_P) /* absent, or a 2 MiB leaf */
		return (e & need) == need;
	t = (const uint64_t *)((e & PTE_ADDR) + PHYS_OFFSET);
	e = t[(va >> 12) & 511];
	return (e & need) == need;
}

/* The regions' answer, for what the leaves did not allow. */
static __attribute__((noinline)) bool regions_allow(struct mm_struct *mm, uint64_t addr, uint64_t n,
						    bool write)
{
	uint32_t need = write ? VM_WRITE : VM_READ | VM_WRITE | VM_EXEC;
	uint64_t end = addr + n;

	while (addr < end) {
		struct vm_area *v = find_vma(mm, addr);

		if (!v || !(v->flags & need))
			return false;
		addr = v->end;
	}
	return true;
}

/*
 * The mappings under [addr, addr + n) must allow the access, as Linux's
 * handle_mm_fault decides for a kernel access to a user page: a PROT_NONE
 * page (mprotect leaves its frame mapped for the kernel, user bit clear) or
 * a hole is EFAULT, never read or written behind the user's back.  x86
 * reads wherever it may write or execute.  The leaves are asked first,
 * inline in each copy: a walk of the page tables costs about a third of
 * find_vma's scan of the regions, and most copies meet pages in use; the
 * regions decide the rest.
 */
static inline __attribute__((always_inline)) bool vmas_allow(uint64_t addr, uint64_t n, bool write)
{
	struct mm_struct *mm = uaccess_current_mm ? uaccess_current_mm() : 0;
	uint64_t need = PTE_P | PTE_U | (write ? PTE_W : 0);

	if (!mm)
		return true; /* a kernel thread: no user mappings to honour */
	for (uint64_t p = addr & ~(PAGE_SIZE - 1); p < addr + n; p += PAGE_SIZE)
		if (!leaf_allows(mm->pml4, p, need))
			return regions_allow(mm, addr, n, write);
	return true;
}

int copy_from_user(void *dst, uint64_t src, size_t n)
{
	if (!access_ok(src, n) || !vmas_allow(src, n, false))
		return -EFAULT;
	return __copy_user(dst, (const void *)src, n) ? -EFAULT : 0;
}

int copy_to_user(uint64_t dst, const void *src, size_t n)
{
	if (!access_ok(dst, n) || !vmas_allow(dst, n, true))
		return -EFAULT;
	return __copy_user((void *)dst, src, n) ? -EFAULT : 0;
}

int __futex_cmpxchg_u32(uint32_t *uaddr, uint32_t old, uint32_t new, uint32_t *cur);

int futex_atomic_cmpxchg_inatomic(uint32_t *curval, uint64_t uaddr, uint32_t oldval,
				  uint32_t newval)
{
	if (uaddr % sizeof(uint32_t) || !access_ok(uaddr, sizeof(uint32_t)) ||
	    !vmas_allow(uaddr, sizeof(uint32_t), true))
		return -EFAULT;
	return __futex_cmpxchg_u32((uint32_t *)uaddr, oldval, newval, curval);
}

size_t copy_to_user_partial(uint64_t dst, const void *src, size_t n)
{
	size_t done = 0;

	while (done < n) {
		uint64_t a = dst + done, chunk = PAGE_SIZE - (a & (PAGE_SIZE - 1)), left;

		if (chunk > n - done)
			chunk = n - done;
		if (!access_ok(a, chunk) || !vmas_allow(a, chunk, true))
			break;
		left = __copy_user((void *)a, (const uint8_t *)src + done, chunk);
		done += chunk - left;
		if (left)
			break;
	}
	return n - done;
}

/*
 * Without the lock the VMA array may be changing under this CPU (only the
 * lock holder reads it), so the page tables decide: a leaf that is present,
 * user and writable allows the write, as mmap, mprotect and copy-on-write
 * never leave a leaf wider than its VMA's rights (a PROT_NONE page keeps
 * its frame with the user bit clear; a copy-on-write one is read-only).
 * The walk and the copy are safe against a thread on another CPU that
 * unmaps: a page-table page or a frame is freed only after a shootdown has
 * waited for every CPU running this address space to be out of the kernel
 * or spinning for the lock (tlb.h), and this CPU is neither while it walks
 * and copies with interrupts off (an interrupt that took the lock here
 * would make it count as parked, its walk half done).
 */
static bool leaves_writable(uint64_t pml4, uint64_t addr, size_t n)
{
	uint64_t end = addr + n;

	for (uint64_t p = addr & ~(PAGE_SIZE - 1); p < end; p += PAGE_SIZE)
		if (!leaf_allows(pml4, p, PTE_P | PTE_U | PTE_W))
			return false;
	return true;
}

int copy_to_user_nofault(uint64_t dst, const void *src, size_t n)
{
	struct mm_struct *mm = uaccess_current_mm ? uaccess_current_mm() : 0;
	uint64_t left = n, flags;

	if (!mm || !access_ok(dst, n))
		return -EFAULT;
	flags = irq_save();
	if (leaves_writable(mm->pml4, dst, n)) {
		pagefault_disable();
		left = __copy_user((void *)dst, src, n);
		pagefault_enable();
	}
	irq_restore(flags);
	return left ? -EFAULT : 0;
}

long strncpy_from_user(char *dst, uint64_t src, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		uint64_t a = src + i;
		/* The mapping is checked once per page the string reaches. */
		bool new_page = i == 0 || a % PAGE_SIZE == 0;

		if (!access_ok(a, 1) || (new_page && !vmas_allow(a, 1, false)) ||
		    __get_user_u8((uint8_t *)dst + i, (const uint8_t *)a))
			return -EFAULT;
		if (!dst[i])
			return (long)i;
	}
	return -ENAMETOOLONG;
}
