/*
 * User address spaces: page tables plus a short list of regions (VMAs),
 * enough for /proc/<pid>/maps, demand-zero pages and copy-on-write fork.
 */
#ifndef KERNEL_MM_MM_H
#define KERNEL_MM_MM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/lib/spinlock.h"

#define TASK_SIZE	 0x00007ffffffff000ULL /* the x86_64 user half, as Linux */
#define IA32_PAGE_OFFSET 0xffffe000ULL	       /* an IA-32 task's TASK_SIZE (asm/page_64_types.h) */
/*
 * Regions per address space (Linux's vm.max_map_count is 65530): a fixed
 * array in the static mm pool, so 256; mmap, munmap and mprotect that would
 * need more give ENOMEM, as Linux past max_map_count.
 */
#define NR_VMAS	     256
#define VM_READ	     1
#define VM_WRITE     2
#define VM_EXEC	     4
#define VM_GROWSDOWN 8
/* MAP_SHARED|MAP_ANONYMOUS: its pages are shared with fork relatives, never copied on write */
#define VM_SHARED 16
/*
 * MAP_DROPPABLE (Linux 6.11): private anonymous memory the child of a fork
 * sees zeroed (VM_WIPEONFORK: the copy leaves its pages out).  6.12 may
 * also drop its pages under memory pressure and never dumps them; this
 * kernel drops none and dumps no core at all.
 */
#define VM_WIPEONFORK 32
#define VM_DROPPABLE  64

/* VMA_FILE: mmap of a file; VMA_EXE may be file-backed too (vm_file set). */
enum vma_kind { VMA_ANON, VMA_EXE, VMA_HEAP, VMA_STACK, VMA_FILE, VMA_VDSO, VMA_VVAR };

/*
 * A file-backed region's backing, as Linux's vm_file + vm_operations_struct:
 * mm sees an opaque referenced file and these operations, which the file
 * system (a layer above) provides.  Every region holding the file holds one
 * reference (get at map, split and fork; put at unmap and teardown), so a
 * mapping outlives close(fd).
 */
struct vm_operations_struct {
	void (*get)(void *file);
	void (*put)(void *file);
	/*
	 * Fills one page (PAGE_SIZE bytes at page, a kernel address) from byte
	 * offset off of the file: bytes past EOF are zero; a page wholly past
	 * EOF is -EIO, which the fault turns into SIGBUS as Linux's filemap_fault.
	 */
	int (*fill)(void *file, uint64_t off, void *page);
	/* For /proc/<pid>/maps: the path (NUL-terminated in n bytes), device and inode. */
	void (*show)(void *file, char *path, uint64_t n, uint32_t *dev, uint64_t *ino);
};

struct vm_area {
	uint64_t start, end; /* [start, end), page aligned */
	uint32_t flags;	     /* VM_* */
	enum vma_kind kind;
	uint64_t pgoff; /* byte offset in the file (or the executable), for faults and maps */
	void *vm_file;	/* NULL: anonymous (demand-zero) */
	const struct vm_operations_struct *vm_ops;
};

struct mm_struct {
	uint64_t pml4; /* physical */
	int users;
	/*
	 * Linux 2.6's mm->page_table_lock: a page fault holds it while it
	 * changes this mm's page tables, so that one taken without the big
	 * kernel lock (handle_mm_fault_unlocked) and one resolved under it
	 * on another CPU (another thread's, a future ptrace poke) do not meet
	 * half-way.  The regions and the page tables' other changes (mmap,
	 * munmap, mprotect, mremap, brk, fork) stay the big lock's, inside
	 * mm_write_begin/end, which keep the unlocked faults out (writers).
	 */
	spinlock_t page_table_lock;
	int writers; /* mm_write_begin calls not yet ended */
	int nvmas;   /* vmas[0 .. nvmas) */
	char exe_name[32];
	/* Layout, as Linux's mm_struct: /proc reads these. */
	uint64_t exe_base, start_code, end_code, start_data, end_data;
	uint64_t start_brk, brk, start_stack, stack_top, mmap_base;
	/*
	 * Linux's mm->task_size: the top of what mmap, mremap and brk hand out,
	 * TASK_SIZE, or IA32_PAGE_OFFSET for an IA-32 program (exec sets it).
	 */
	uint64_t task_size;
	/* setup_arg_pages: PAGE_ALIGN(arch_align_stack(stack_top)), the [stack] VMA's end */
	uint64_t stack_arg_top;
	/*
	 * setup_arg_pages: bprm->p once the arg pages moved down, the lowest
	 * argv string (Linux's mm->arg_start); the strings lie above it
	 */
	uint64_t arg_start;
	/* create_elf_tables: where argv's strings end and envp's lie (/proc/<pid>/environ, stat) */
	uint64_t arg_end, env_start, env_end;
	/* create_elf_tables: arch_align_stack(arg_start), where the platform string ends */
	uint64_t stack_align_sp;
	/*
	 * Drawn as the kernel of aslr_rules= draws them, kept for the vDSO and
	 * the auxv (AT_SYSINFO_EHDR, AT_RANDOM), which exec does not build yet.
	 */
	uint64_t vdso_base; /* vdso_addr(); 0 where that kernel makes no draw */
	uint64_t vdso;	    /* context.vdso: where the vDSO is mapped (vdso.c), 0: none */
	uint64_t vvar;	    /* its [vvar] data page: after the text, or below it (6.x) */
	uint8_t at_random[16];
	uint64_t rss_pages;
	bool elf_exec;	   /* an ET_EXEC program: at its link address, no exe-base draw */
	bool exe_in_mmap;  /* the exe was placed by mmap, below mmap_base (layout.c) */
	uint64_t brk_base; /* where the brk started before arch_randomize_brk */
	/*
	 * The executable's file (Linux's mm->exe_file, /proc/<pid>/exe): a
	 * file-system inode the mm layer cannot name, held through the hooks
	 * below (set by fs); NULL for an image without a file (the kernel's tests).
	 */
	void *exe_file;
	/*
	 * Last, so that what a new mm clears and fork copies stops at it: only
	 * the nvmas regions in use are copied (Linux 6.6's dup_mmap copies them
	 * one by one), and a new one's are not cleared.  All of them were 14 KiB
	 * each way per fork, 24,194 of a fork+exit+wait's instructions under
	 * the deterministic clock (each byte of REP MOVSB or STOSB counts).
	 */
	struct vm_area vmas[NR_VMAS]; /* sorted by start */
};

extern void (*exe_file_get)(void *file);
extern void (*exe_file_put)(void *file);

struct mm_struct *mm_create(void);		 /* empty user half, kernel half shared */
struct mm_struct *mm_dup(struct mm_struct *old); /* fork: copy-on-write */
/*
 * mm_dup in its two steps (mm.c says why): mm_dup_copy may run without
 * the big kernel lock when mm_dup_alone(old), mm_dup_finish runs under it.
 */
bool mm_dup_alone(const struct mm_struct *old);
struct mm_struct *mm_dup_copy(struct mm_struct *old, int *rc);
struct mm_struct *mm_dup_finish(struct mm_struct *mm, struct mm_struct *old, int rc);
void mm_put(struct mm_struct *mm); /* drops a user; frees at zero */
/*
 * The same, the last user's tables freed with the big kernel lock given up
 * (mm.c).  Only where that is safe: mm was current's and is no longer its
 * mm pointer, every task in the table is whole (none half made by a fork
 * or spawn of this CPU's), the caller holds no other lock, and it reads
 * nothing afterwards that the lock kept still until then (exec's static
 * argument buffers): exit, and the last step of exec.
 */
void mm_put_unlocked(struct mm_struct *mm);
int mm_add_vma(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
	       enum vma_kind kind, uint64_t pgoff);
/*
 * A file-backed region over the free range [start, end) (mmap.c): pages are
 * filled by ops->fill from byte offset pgoff (page aligned) at fault time,
 * private copies (a write is copy-on-write against the file).  Takes its own
 * reference (ops->get).  -EINVAL: unaligned or not free; -ENOMEM: NR_VMAS.
 */
int mm_map_file(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
		enum vma_kind kind, const struct vm_operations_struct *ops, void *file,
		uint64_t pgoff);
/*
 * mmap's MAP_FIXED: replaces whatever is mapped in [start, end) (as Linux,
 * the old mappings go first), then maps anonymous (file NULL) or the file.
 * -ENOMEM when the regions would not fit (checked before anything changes).
 */
int mm_map_fixed(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
		 enum vma_kind kind, const struct vm_operations_struct *ops, void *file,
		 uint64_t pgoff);
struct vm_area *find_vma(struct mm_struct *mm, uint64_t addr);
/* munmap: removes [start, end) from every region, splitting; holes are fine. */
int mm_unmap_range(struct mm_struct *mm, uint64_t start, uint64_t end);
/* After a change that takes translations away: every CPU that runs mm (arch/tlb.h). */
void flush_tlb_mm(struct mm_struct *mm);
void flush_tlb_mm_range(struct mm_struct *mm, uint64_t start, uint64_t end);
/*
 * Resolves a fault at addr (demand-zero, filled from the file, or
 * copy-on-write); -EFAULT if not allowed (SIGSEGV), -EIO for a file page
 * wholly past EOF (SIGBUS), -ENOMEM.
 */
int handle_mm_fault(struct mm_struct *mm, uint64_t addr, bool write);
/*
 * The same without the big kernel lock, for a fault from ring 3 (fault.c):
 * a demand-zero page, or copy-on-write (a copy only in an mm with one
 * user: in a shared one it needs a shootdown, which is the big lock's);
 * 0 when resolved, else -EAGAIN with nothing changed that matters, and the
 * caller takes the big lock and calls handle_mm_fault, which decides (a
 * file page, a signal, memory exhausted).  While a writer is inside
 * mm_write_begin/end, always -EAGAIN.
 */
int handle_mm_fault_unlocked(struct mm_struct *mm, uint64_t addr, bool write);
/*
 * Around every change of mm's regions or of its page tables other than a
 * fault's (the mm system calls, fork's copy), under the big kernel lock,
 * which orders the writers among themselves: the unlocked faults keep out
 * from begin, which waits for one in progress, to end.  Linux 6.4's
 * per-VMA locks give way to a writer the same way (vma_start_write; the
 * fault falls back to mmap_lock).
 */
void mm_write_begin(struct mm_struct *mm);
void mm_write_end(struct mm_struct *mm);
/* Called once per minor fault handled; the task layer charges it to current (min_flt). */
extern void (*account_minor_fault)(void);
/* Writes into another address space through the physmap (loading a program). */
int mm_copy_to(struct mm_struct *mm, uint64_t va, const void *src, uint64_t len);
/*
 * Reads another address space as Linux's access_process_vm: pages not yet
 * there are faulted in; the bytes copied, up to the first that cannot be.
 */
uint64_t mm_copy_from(struct mm_struct *mm, uint64_t va, void *dst, uint64_t len);
/* put_user into mm: VM_WRITE regions of the user half only; 0 or -EFAULT/-ENOMEM. */
int mm_put_user(struct mm_struct *mm, uint64_t va, const void *src, uint64_t len);
/*
 * mprotect: flags are VM_READ/WRITE/EXEC; -EINVAL unaligned, -ENOMEM a hole
 * (the regions before it changed, as Linux) or NR_VMAS (mprotect.c).
 */
int mm_mprotect(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags);
/*
 * mremap (mremap.c): lengths page aligned, new_len > 0, addr aligned; the
 * new address or -EFAULT (not one mapping), -ENOMEM, -EINVAL.
 */
long mm_mremap(struct mm_struct *mm, uint64_t addr, uint64_t old_len, uint64_t new_len,
	       bool may_move, bool fixed, uint64_t new_addr);
bool mm_range_free(struct mm_struct *mm, uint64_t start, uint64_t end);
uint64_t mm_get_unmapped_area(struct mm_struct *mm, uint64_t len);
int mm_nr_free(void);
/*
 * MAP_SHARED|MAP_ANONYMOUS: gives every absent page of [start, end) (inside
 * one VM_SHARED region) its frame now, so that a fork later shares it
 * (Linux's shmem object, reduced to the pages present at fork).  The syscall
 * layer calls it a chunk at a time with preemption points between; -ENOMEM.
 */
int mm_populate_shared(struct mm_struct *mm, uint64_t start, uint64_t end);

/*
 * What the address-space code spent, as running totals: the fork suite
 * (kernel/measure/) reads them at every fork and keeps the differences,
 * its records' cost breakdown.  The counts always run (one add each); the
 * cycles only while mm_cost_timing is set, read with LFENCE;RDTSC as the
 * canary's sample.  The copy-on-write figures are atomic adds, as faults
 * take them without the big kernel lock.
 */
struct mm_cost {
	uint64_t pt_pages;     /* page-table pages fork allocated for its copies */
	uint64_t pt_cycles;    /* copying page tables at fork and freeing them at teardown */
	uint64_t pages_copied; /* copy-on-write faults that copied a page */
	uint64_t copy_cycles;  /* those faults, allocation and copy_page included */
};
extern struct mm_cost mm_cost;
extern bool mm_cost_timing;

#endif
