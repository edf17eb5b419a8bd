/*
 * User address spaces: page tables plus a short list of regions (VMAs),
 * enough for /proc/<pid>/maps, demand-zero pages and copy-on-write fork.
 */
#ifndef KERNEL_MM_MM_H
#define KERNEL_MM_MM_H

#include <stdbool.h>
#include <stdint.h>

#define TASK_SIZE    0x00007ffffffff000ULL /* the x86_64 user half, as Linux */
#define NR_VMAS	     32
#define VM_READ	     1
#define VM_WRITE     2
#define VM_EXEC	     4
#define VM_GROWSDOWN 8

enum vma_kind { VMA_ANON, VMA_EXE, VMA_HEAP, VMA_STACK, VMA_VDSO, VMA_VVAR };

struct vm_area {
	uint64_t start, end; /* [start, end), page aligned */
	uint32_t flags;	     /* VM_* */
	enum vma_kind kind;
	uint64_t pgoff; /* offset in the executable, for maps */
};

struct mm_struct {
	uint64_t pml4; /* physical */
	int users;
	struct vm_area vmas[NR_VMAS]; /* sorted by start */
	int nvmas;
	char exe_name[32];
	/* Layout, as Linux's mm_struct: /proc reads these. */
	uint64_t exe_base, start_code, end_code, start_data, end_data;
	uint64_t start_brk, brk, start_stack, stack_top, mmap_base;
	/* setup_arg_pages: PAGE_ALIGN(arch_align_stack(stack_top)), the [stack] VMA's end */
	uint64_t stack_arg_top;
	/* sp after create_elf_tables' arch_align_stack, before the initial stack is written */
	uint64_t stack_align_sp;
	/*
	 * Drawn as the kernel of aslr_rules= draws them, kept for the vDSO and
	 * the auxv (AT_SYSINFO_EHDR, AT_RANDOM), which exec does not build yet.
	 */
	uint64_t vdso_base; /* vdso_addr(); 0 where that kernel makes no draw */
	uint64_t vdso;	    /* context.vdso: where the vDSO is mapped (vdso.c), 0: none */
	uint8_t at_random[16];
	uint64_t rss_pages;
	bool elf_exec; /* an ET_EXEC program: at its link address, no exe-base draw */
};

struct mm_struct *mm_create(void);		 /* empty user half, kernel half shared */
struct mm_struct *mm_dup(struct mm_struct *old); /* fork: copy-on-write */
void mm_put(struct mm_struct *mm);		 /* drops a user; frees at zero */
int mm_add_vma(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags,
	       enum vma_kind kind, uint64_t pgoff);
struct vm_area *find_vma(struct mm_struct *mm, uint64_t addr);
int mm_unmap_range(struct mm_struct *mm, uint64_t start, uint64_t end);
/* Resolves a fault at addr (demand-zero or copy-on-write); -EFAULT if not allowed. */
int handle_mm_fault(struct mm_struct *mm, uint64_t addr, bool write);
/* Called once per minor fault handled; the task layer charges it to current (min_flt). */
extern void (*account_minor_fault)(void);
/* Writes into another address space through the physmap (loading a program). */
int mm_copy_to(struct mm_struct *mm, uint64_t va, const void *src, uint64_t len);
/* put_user into mm: VM_WRITE regions of the user half only; 0 or -EFAULT/-ENOMEM. */
int mm_put_user(struct mm_struct *mm, uint64_t va, const void *src, uint64_t len);
/* mprotect: flags are VM_READ/WRITE/EXEC; -EINVAL unaligned, -ENOMEM a hole (mprotect.c). */
int mm_mprotect(struct mm_struct *mm, uint64_t start, uint64_t end, uint32_t flags);
bool mm_range_free(struct mm_struct *mm, uint64_t start, uint64_t end);
uint64_t mm_get_unmapped_area(struct mm_struct *mm, uint64_t len);
int mm_nr_free(void);

#endif
