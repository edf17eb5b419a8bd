/*
 * User address spaces.
 *
 * Pages are demand-zero (a region is only a promise until touched), or
 * filled from the file of a file-backed region at the first touch, and
 * fork shares every page read-only, marked PTE_COW, copying on the first
 * write; reference counts in the page allocator say when the last sharer
 * is gone.  Tearing down an address space returns every page and every
 * page-table page, which the page_leak test checks to the page.
 */
#include <stddef.h>

#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vma.h"
#include "kernel/mm/vmm.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/lib/threads.h"
#include "common/tsc.h"

/*
 * One address space per task slot, and per CPU one more: the one a fork
 * copies before it takes the child's slot, or the one an exec builds (or
 * frees) beside the task's own, each of which may give the big lock up.
 */
static struct mm_struct mm_pool[NR_TASKS + NR_CPUS];
struct mm_cost mm_cost;
bool mm_cost_timing;
static struct rng_lock_class page_table_lock_class;

static inline uint64_t cost_start(void)
{
	return mm_cost_timing ? tsc_start_lfence() : 0;
}

static inline void cost_stop(uint64_t t0, uint64_t *cycles)
{
	if (mm_cost_timing)
		__atomic_add_fetch(cycles, tsc_stop_lfence() - t0, __ATOMIC_RELAXED);
}
void (*exe_file_get)(void *file);
void (*exe_file_put)(void *file);

int mm_nr_free(void)
{
	int n = 0;

	for (unsigned i = 0; i < sizeof(mm_pool) / sizeof(mm_pool[0]); i++)
		if (!mm_pool[i].users)
			n++;
	return n;
}

/*
 * The fields after pml4 and users, up to the regions: what mm_create
 * clears and dup_mm copies.  users is outside it: mm_create claims a free
 * slot by turning users from 0 to 1, possibly without the big lock (fork),
 * and a slot being filled must not look free to another CPU meanwhile.
 */
static void *mm_head(struct mm_struct *mm)
{
	return &mm->page_table_lock;
}

static size_t mm_head_size(void)
{
	return offsetof(struct mm_struct, vmas) - offsetof(struct mm_struct, page_table_lock);
}

/* A free slot, its users turned from 0 to 1, or NULL. */
static struct mm_struct *mm_claim(void)
{
	for (unsigned i = 0; i < sizeof(mm_pool) / sizeof(mm_pool[0]); i++) {
		struct mm_struct *mm = &mm_pool[i];
		int free = 0;

		if (!__atomic_load_n(&mm->users, __ATOMIC_RELAXED) &&
		    __atomic_compare_exchange_n(&mm->users, &free, 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return mm;
	}
	return 0;
}

struct mm_struct *mm_create(void)
{
	uint64_t *kpml4 = phys_to_virt(vmm_kernel_pml4()), *pml4, pa;
	struct mm_struct *mm = mm_claim();

	if (!mm)
		return 0;
	pa = pmm_alloc_page();
	if (!pa) {
		__atomic_store_n(&mm->users, 0, __ATOMIC_RELEASE);
		return 0;
	}
	memset(mm_head(mm), 0, mm_head_size());
	mm->pml4 = pa;
	spin_lock_init(&mm->page_table_lock, &page_table_lock_class);
	mm->task_size = TASK_SIZE;
	pml4 = phys_to_virt(pa);
	memset(pml4, 0, 256 * 8);
	memcpy(pml4 + 256, kpml4 + 256, 256 * 8);
	return mm;
}

/* Frees the user half: leaf pages by reference, tables outright. */
static void free_level(uint64_t table_pa, int level)
{
	uint64_t *t = phys_to_virt(table_pa);

	for (int i = 0; i < (level == 4 ? 256 : 512); i++) {
		uint64_t e = t[i];

		if (!(e & PTE_P))
			continue;
		if (level == 1)
			page_ref_put(e & PTE_ADDR);
		else
			free_level(e & PTE_ADDR, level - 1);
		t[i] = 0;
	}
	if (level != 4)
		pmm_free_page(table_pa);
}

/*
 * Linux's flush_tlb_mm: after a change that takes translations of mm
 * away, this CPU (where mm is live) and every other CPU that runs it.
 */
void flush_tlb_mm(struct mm_struct *mm)
{
	flush_tlb_mm_range(mm, 0, TLB_FLUSH_ALL);
}

/* Linux 6.6's flush_tlb_mm_range: [start, end) only, page by page up to 33 pages. */
void flush_tlb_mm_range(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	flush_tlb_others_range(mm->pml4, start, end);
	flush_tlb_local_range(mm->pml4, start, end);
}

/*
 * Drops a user; the last frees the tables, given the big kernel lock up
 * meanwhile when unlock is set (mm_put_unlocked says when that is safe).
 * users stays 1 until the tables are freed, so mm_create passes the slot
 * over meanwhile.  The regions' files and the executable are the lock's.
 */
static void __mm_put(struct mm_struct *mm, bool unlock)
{
	uint64_t t0;
	bool held = false;

	if (!mm)
		return;
	if (__atomic_load_n(&mm->users, __ATOMIC_RELAXED) > 1) {
		__atomic_sub_fetch(&mm->users, 1, __ATOMIC_RELAXED);
		return;
	}
	/* the last user: no other CPU runs it (each holds a reference) */
	if ((read_cr3() & PTE_ADDR) == mm->pml4)
		load_mm_cr3(vmm_kernel_pml4());
	vma_put_files(mm);
	if (mm->exe_file && exe_file_put)
		exe_file_put(mm->exe_file);
	mm->exe_file = 0;
	if (unlock)
		held = release_kernel_lock();
	t0 = cost_start();
	free_level(mm->pml4, 4);
	pmm_free_page(mm->pml4);
	cost_stop(t0, &mm_cost.pt_cycles);
	reacquire_kernel_lock(held);
	__atomic_store_n(&mm->users, 0, __ATOMIC_RELEASE);
}

void mm_put(struct mm_struct *mm)
{
	__mm_put(mm, false);
}

void mm_put_unlocked(struct mm_struct *mm)
{
	__mm_put(mm, true);
}

/*
 * Copies one table level for fork; private leaf pages become shared
 * copy-on-write.  Each last-level table is copied under the parent's
 * page_table_lock, as Linux 2.6's copy_pte_range holds the source's: a
 * fault another CPU resolves in the parent (a ptrace poke) sees the table
 * before or after, never half of it.  Interrupts are off while it is held:
 * one taken meanwhile may spin for the big kernel lock, whose holder may
 * spin for this lock.
 */
static int dup_level(struct mm_struct *old, uint64_t *dst, uint64_t *src, int level)
{
	for (int i = 0; i < (level == 4 ? 256 : 512); i++) {
		uint64_t e = src[i], pa, flags;
		int rc;

		if (!(e & PTE_P))
			continue;
		if (level == 1) {
			/* MAP_SHARED: both sides write the one frame (no COW). */
			if ((e & PTE_W) && !(e & PTE_SHARED))
				e = (e & ~PTE_W) | PTE_COW;
			src[i] = e;
			page_ref_get(e & PTE_ADDR);
			dst[i] = e;
			continue;
		}
		pa = pmm_alloc_page();
		if (!pa)
			return -ENOMEM;
		__atomic_add_fetch(&mm_cost.pt_pages, 1, __ATOMIC_RELAXED);
		clear_page(phys_to_virt(pa));
		dst[i] = pa | (e & ~PTE_ADDR);
		if (level != 2) {
			rc = dup_level(old, phys_to_virt(pa), phys_to_virt(e & PTE_ADDR),
				       level - 1);
		} else {
			flags = irq_save();
			spin_lock(&old->page_table_lock);
			rc = dup_level(old, phys_to_virt(pa), phys_to_virt(e & PTE_ADDR), 1);
			spin_unlock(&old->page_table_lock);
			irq_restore(flags);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Fork's copy, in two steps so that a single-threaded parent's fork runs
 * the first without the big kernel lock (do_clone gives it up around it).
 * Why that is safe when the parent is its address space's one user
 * (mm_dup_alone; current, which is here): nothing else changes its
 * regions or its tables' shape meanwhile, and no other CPU holds its
 * translations, so nothing needs a shootdown until the lock is back
 * (mm_dup_finish flushes then).  The copy's regions name the parent's
 * files, which the parent holds meanwhile; the copy takes its own
 * references under the lock (the file system is its).  This CPU counts as
 * parked meanwhile and touches no user memory: its own stale writable
 * entries go at the flush.  A threaded parent's copy runs under the lock:
 * its other threads write on other CPUs while the pages turn
 * copy-on-write, and only the lock's holder can ask them to flush (tlb.h).
 */
bool mm_dup_alone(const struct mm_struct *old)
{
	return __atomic_load_n(&old->users, __ATOMIC_RELAXED) == 1;
}

/*
 * The first step: the new mm, the parent's regions and, private pages
 * turned copy-on-write on both sides, its tables.  NULL when out of
 * memory or of slots; a half-copied mm is returned with its error in *rc
 * for mm_dup_finish to free.
 */
struct mm_struct *mm_dup_copy(struct mm_struct *old, int *rc)
{
	struct mm_struct *mm;
	uint64_t t0;

	mm_write_begin(old);
	/*
	 * A threaded parent's other threads leave ring 3 before its writable
	 * pages become copy-on-write: a write through a stale entry would
	 * reach the child's copy.
	 */
	if (kernel_locked())
		flush_tlb_others(old->pml4);
	*rc = -ENOMEM;
	if (!(mm = mm_create()))
		return 0;
	memcpy(mm_head(mm), mm_head(old), mm_head_size());
	memcpy(mm->vmas, old->vmas, old->nvmas * sizeof(old->vmas[0]));
	/* not the parent's lock state (another of its threads may hold it) nor its writer */
	spin_lock_init(&mm->page_table_lock, &page_table_lock_class);
	mm->writers = 0;
	t0 = cost_start();
	*rc = dup_level(old, phys_to_virt(mm->pml4), phys_to_virt(old->pml4), 4);
	cost_stop(t0, &mm_cost.pt_cycles);
	/* VM_WIPEONFORK: the child's copy is demand-zero again (the parent keeps its pages) */
	for (int i = 0; !*rc && i < mm->nvmas; i++)
		if (mm->vmas[i].flags & VM_WIPEONFORK)
			mm->rss_pages -= vmm_unmap_range(mm->pml4, mm->vmas[i].start,
							 mm->vmas[i].end, page_ref_put);
	return mm;
}

/*
 * The second step, under the lock: the copy's references on its files and
 * executable, and the parent's writable entries, read-only now, flushed.
 * The copy, or NULL (a half copy freed: the parent keeps its pages, COW).
 */
struct mm_struct *mm_dup_finish(struct mm_struct *mm, struct mm_struct *old, int rc)
{
	if (mm) {
		vma_get_files(mm); /* the child's regions hold the files too (mm_put drops them) */
		if (mm->exe_file && exe_file_get)
			exe_file_get(mm->exe_file);
		if (rc) {
			mm_put(mm);
			mm = 0;
		}
	}
	flush_tlb_mm(old);
	mm_write_end(old);
	return mm;
}

/* Both steps under the lock. */
struct mm_struct *mm_dup(struct mm_struct *old)
{
	int rc;
	struct mm_struct *mm = mm_dup_copy(old, &rc);

	return mm_dup_finish(mm, old, rc);
}

static uint64_t vma_pte_flags(const struct vm_area *v)
{
	uint64_t f = PTE_P | PTE_U;

	if (v->flags & VM_WRITE)
		f |= PTE_W;
	if (!(v->flags & VM_EXEC))
		f |= PTE_NX;
	return f;
}

void (*account_minor_fault)(void);

/*
 * The fault itself, with mm->page_table_lock held.  unlocked: without the
 * big kernel lock, where a writer at work (mm_write_begin), a file page
 * (the file system is the big lock's) and a copy in a shared mm are
 * -EAGAIN before anything changes.  A copy in an mm with one user
 * needs no shootdown: no other CPU has it loaded (schedule() loads the next
 * task's on every switch, the kernel's for idle).  Making a page present
 * or writable in a shared one needs none either: another CPU holds no
 * entry for an absent page, and a read-only one only faults again, a
 * spurious fault (fault.c).
 */
static int __handle_mm_fault(struct mm_struct *mm, uint64_t addr, bool write, bool unlocked)
{
	struct vm_area *v;
	uint64_t *pte, pa, va = addr & ~(PAGE_SIZE - 1);

	if (unlocked && __atomic_load_n(&mm->writers, __ATOMIC_SEQ_CST))
		return -EAGAIN;
	if (addr >= TASK_SIZE || !(v = find_vma(mm, addr)))
		return -EFAULT;
	if (write && !(v->flags & VM_WRITE))
		return -EFAULT;
	/* PROT_NONE: x86 cannot map a page without read access, so map nothing. */
	if (!(v->flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;
	pte = vmm_walk(mm->pml4, va, true);
	if (!pte)
		return -ENOMEM;
	if (!(*pte & PTE_P)) {
		if (v->kind == VMA_VVAR)
			return -EIO; /* a [vvar] page with nothing behind it: vvar_fault's SIGBUS */
		if (unlocked && v->vm_file)
			return -EAGAIN;
		pa = pmm_alloc_page();
		if (!pa)
			return -ENOMEM;
		if (v->vm_file) {
			/* A private copy of the file's page: writes never reach the file. */
			int rc = v->vm_ops->fill(v->vm_file, v->pgoff + (va - v->start),
						 phys_to_virt(pa));

			if (rc) {
				pmm_free_page(pa);
				return rc;
			}
		} else {
			clear_page(phys_to_virt(pa));
		}
		/*
		 * A VM_SHARED page absent here was added by mremap after mmap
		 * populated the region: shared with the forks that follow.
		 */
		*pte = pa | vma_pte_flags(v) | ((v->flags & VM_SHARED) ? PTE_SHARED : 0);
		mm->rss_pages++;
		if (account_minor_fault)
			account_minor_fault();
	} else if (write && (*pte & PTE_COW)) {
		uint64_t old = *pte & PTE_ADDR;

		/* 1: no other mm maps it, and only this mm's own task could add one */
		if (page_ref_count(old) == 1) {
			*pte = (*pte & ~PTE_COW) | PTE_W;
		} else {
			uint64_t t0 = cost_start();

			if (unlocked && __atomic_load_n(&mm->users, __ATOMIC_RELAXED) != 1)
				return -EAGAIN;
			pa = pmm_alloc_page();
			if (!pa)
				return -ENOMEM;
			copy_page(phys_to_virt(pa), phys_to_virt(old));
			/* no CPU may go on reading the old frame once this one writes the copy */
			if (!unlocked)
				flush_tlb_others_range(mm->pml4, va, va + PAGE_SIZE);
			*pte = pa | vma_pte_flags(v);
			page_ref_put(old);
			__atomic_add_fetch(&mm_cost.pages_copied, 1, __ATOMIC_RELAXED);
			cost_stop(t0, &mm_cost.copy_cycles);
		}
		if (account_minor_fault)
			account_minor_fault();
	} else if (write && !(*pte & PTE_W)) {
		return -EFAULT;
	} else if (!write) {
		return -EFAULT; /* present and readable: the fault was something else */
	}
	if ((read_cr3() & PTE_ADDR) == mm->pml4)
		invlpg(va);
	return 0;
}

/* __handle_mm_fault with the mm's page_table_lock, interrupts off while it is held */
static int fault_under_ptl(struct mm_struct *mm, uint64_t addr, bool write, bool unlocked)
{
	uint64_t flags = irq_save();
	int rc;

	spin_lock(&mm->page_table_lock);
	rc = __handle_mm_fault(mm, addr, write, unlocked);
	spin_unlock(&mm->page_table_lock);
	irq_restore(flags);
	return rc;
}

int handle_mm_fault(struct mm_struct *mm, uint64_t addr, bool write)
{
	return mm ? fault_under_ptl(mm, addr, write, false) : -EFAULT;
}

/* Whatever it could not resolve, the locked path decides (and reports). */
int handle_mm_fault_unlocked(struct mm_struct *mm, uint64_t addr, bool write)
{
	return mm && fault_under_ptl(mm, addr, write, true) == 0 ? 0 : -EAGAIN;
}

/*
 * SEQ_CST on both sides: a fault that took the lock before the count rose
 * finishes before begin returns (begin waits for the lock), and one after
 * sees the count.
 */
void mm_write_begin(struct mm_struct *mm)
{
	uint64_t flags;

	__atomic_add_fetch(&mm->writers, 1, __ATOMIC_SEQ_CST);
	flags = irq_save();
	spin_lock(&mm->page_table_lock);
	spin_unlock(&mm->page_table_lock);
	irq_restore(flags);
}

void mm_write_end(struct mm_struct *mm)
{
	__atomic_sub_fetch(&mm->writers, 1, __ATOMIC_RELEASE);
}

uint64_t mm_copy_from(struct mm_struct *mm, uint64_t va, void *dst, uint64_t len)
{
	uint8_t *d = dst;
	uint64_t done = 0;

	if (va >= TASK_SIZE || len > TASK_SIZE - va)
		return 0;
	while (done < len) {
		uint64_t off = va & (PAGE_SIZE - 1), n = PAGE_SIZE - off, pa, fl;

		if (n > len - done)
			n = len - done;
		if (vmm_translate(mm->pml4, va, &pa, &fl) &&
		    (handle_mm_fault(mm, va, false) || vmm_translate(mm->pml4, va, &pa, &fl)))
			break;
		if (!(fl & PTE_U))
			break;
		memcpy(d + done, phys_to_virt(pa), n);
		done += n;
		va += n;
	}
	return done;
}

int mm_copy_to(struct mm_struct *mm, uint64_t va, const void *src, uint64_t len)
{
	const uint8_t *s = src;

	/* The kernel half is mapped in every address space: never through here. */
	if (va >= TASK_SIZE || len > TASK_SIZE - va)
		return -EFAULT;
	while (len) {
		uint64_t off = va & (PAGE_SIZE - 1), n = PAGE_SIZE - off, pa, fl;
		int rc;

		if (n > len)
			n = len;
		/* Populate (read fault) or unshare (write fault), as a user access would. */
		if (vmm_translate(mm->pml4, va, &pa, &fl))
			rc = handle_mm_fault(mm, va, false);
		else
			rc = (fl & PTE_COW) ? handle_mm_fault(mm, va, true) : 0;
		if (rc)
			return rc;
		if (vmm_translate(mm->pml4, va, &pa, &fl))
			return -EFAULT;
		memcpy(phys_to_virt(pa), s, n);
		s += n;
		va += n;
		len -= n;
	}
	return 0;
}

/*
 * put_user into mm, which need not be the current one (fork's
 * CLONE_CHILD_SETTID into the child, exit's clear_child_tid): only where a
 * user write could go, so a write fault of that mm's own (VM_WRITE, copy
 * on write broken, a page populated).  mm_copy_to is the loader's: it
 * fills a new program's read-only segments too.
 */
int mm_put_user(struct mm_struct *mm, uint64_t va, const void *src, uint64_t len)
{
	const uint8_t *s = src;

	if (!mm || va >= TASK_SIZE || len > TASK_SIZE - va)
		return -EFAULT;
	while (len) {
		uint64_t off = va & (PAGE_SIZE - 1), n = PAGE_SIZE - off, pa, fl;
		int rc = handle_mm_fault(mm, va, true);

		if (n > len)
			n = len;
		if (rc)
			return rc;
		if (vmm_translate(mm->pml4, va, &pa, &fl) || !(fl & PTE_W))
			return -EFAULT;
		memcpy(phys_to_virt(pa), s, n);
		s += n;
		va += n;
		len -= n;
	}
	return 0;
}

int mm_populate_shared(struct mm_struct *mm, uint64_t start, uint64_t end)
{
	struct vm_area *v = find_vma(mm, start);

	if (!v || !(v->flags & VM_SHARED) || end > v->end || ((start | end) & (PAGE_SIZE - 1)))
		return -EINVAL;
	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t *pte = vmm_walk(mm->pml4, va, true), pa, f = vma_pte_flags(v) | PTE_SHARED;

		if (!pte)
			return -ENOMEM;
		if (*pte & PTE_P)
			continue;
		pa = pmm_alloc_page();
		if (!pa)
			return -ENOMEM;
		clear_page(phys_to_virt(pa));
		/* PROT_NONE: present for the kernel only, as mprotect leaves such a page */
		if (!(v->flags & (VM_READ | VM_WRITE | VM_EXEC)))
			f &= ~PTE_U;
		*pte = pa | f;
		mm->rss_pages++;
	}
	return 0;
}
