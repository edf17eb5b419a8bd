#ifndef KERNEL_MM_LAYOUT_H
#define KERNEL_MM_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"

/*
 * The layout of a freshly exec'ed program: every draw load_elf_binary makes,
 * in the order of the kernel aslr_rules= names (kernel/aslr/).  arg_bytes is
 * what copy_strings put at the top of the new stack before setup_arg_pages
 * moved it: bprm_mm_init's 8-byte slot (bprm->p = vm_end - sizeof(void *))
 * plus the filename, envp and argv strings.  pid is the task the program
 * runs in: the pid the 2009 generators mix into every draw (in Linux, exec
 * runs in the process that gets the new layout).
 */
struct aslr_image;
void arch_pick_mmap_layout(struct mm_struct *mm, const struct aslr_image *img, uint64_t arg_bytes,
			   uint32_t pid);

/*
 * What load_elf_binary's placement reads of the program: its type, whether
 * it names an interpreter, and the sizes elf_map maps.
 */
struct aslr_image {
	uint64_t start;	    /* the lowest PT_LOAD's page (ELF_PAGESTART(first p_vaddr)) */
	uint64_t end;	    /* the last PT_LOAD's p_vaddr + p_memsz */
	uint64_t first_len; /* elf_map's size for the first PT_LOAD: p_filesz + page offset, aligned
			     */
	uint64_t align;	    /* 6.x maximum_alignment(): the largest power-of-two PT_LOAD p_align */
	bool exec;	    /* ET_EXEC: at its link address, no draw */
	bool interp;	    /* PT_INTERP: a program (6.x: ELF_ET_DYN_BASE), not a loader */
	bool ia32; /* an IA-32 program (ELFCLASS32): the ia32 rules, whatever the profile */
};

/* aslr_rules=: which kernel's rules exec follows */
enum { ASLR_RULES_2629, ASLR_RULES_6X, ASLR_NR_RULES };

/* The profile's constants under one rule set, for the ASLR suite and tests. */
struct aslr_profile {
	const char *name;
	uint64_t task_size, stack_top;
	uint64_t dyn_base; /* ELF_ET_DYN_BASE; 0: the exe sits below mmap_base (2.6.29) */
	uint64_t mmap_gap; /* mmap_base = PAGE_ALIGN(task_size - gap - rnd) */
	uint32_t
		stack_rnd_bits; /* bits of randomize_stack_top that survive (20 on 2.6.29 x86_64) */
	uint32_t stack_mask_bits; /* STACK_RND_MASK's width */
	uint32_t mmap_rnd_bits, brk_bits;
	int vdso_draw; /* vdso_addr() draws (64-bit tasks only) */
};

/* What one exec's draws read besides the rule set: the task's profile, pid and program. */
struct aslr_exec {
	const struct aslr_profile *p;
	int ia32;     /* a 32-bit task (aslr_profile=ia32) */
	uint32_t pid; /* the task exec builds the layout for */
	const struct aslr_image *img;
};

/*
 * One kernel's ASLR rules: each operation is one draw of load_elf_binary
 * (or the placement that replaces it), called in the order
 * arch_pick_mmap_layout lists; randomize_va_space=0 is each rule's own
 * business, as it is in Linux.  The rule sets live in kernel/aslr/, one
 * file per Linux version, and reach mm through the .aslr_rules section
 * (ASLR_RULES below): mm owns the interface, never includes them.
 */
struct aslr_rules {
	int id;				/* ASLR_RULES_*: the aslr_rules= value */
	const char *name;		/* "2.6.29", "6.x" */
	const char *uts_release;	/* what uname(2) reports: that kernel's release */
	struct aslr_profile profile[2]; /* [0] x86_64, [1] ia32 */
	/* 1 arch_pick_mmap_layout: mm->mmap_base */
	uint64_t (*mmap_base)(const struct aslr_exec *x);
	/* 2 randomize_stack_top(STACK_TOP) */
	uint64_t (*stack_top)(const struct aslr_exec *x);
	/* 3 and 5: arch_align_stack(sp), before setup_arg_pages' PAGE_ALIGN and in
	 * create_elf_tables */
	uint64_t (*align_stack)(const struct aslr_exec *x, uint64_t sp);
	/*
	 * An ET_DYN program's load_bias (x->img says whether it has an
	 * interpreter); mm holds mmap_base and the [stack] bounds
	 */
	uint64_t (*exe_base)(const struct aslr_exec *x, const struct mm_struct *mm);
	/* 4 vdso_addr(start) for a 64-bit task, where profile.vdso_draw is set */
	uint64_t (*vdso_addr)(const struct aslr_exec *x, uint64_t start);
	/* 6 create_elf_tables' get_random_bytes(k_rand_bytes, 16) */
	void (*at_random)(void *buf, size_t len);
	/* 7 where the brk starts before arch_randomize_brk (mm->exe_base: the load_bias) */
	uint64_t (*brk_base)(const struct aslr_exec *x, const struct mm_struct *mm);
	/* arch_randomize_brk(mm) with randomize_va_space=2: the new start_brk */
	uint64_t (*randomize_brk)(const struct aslr_exec *x, uint64_t brk);
	/* randomize_range (2.6.29) rounds the brk up to a page, randomize_page (6.x) does not */
	bool brk_rounds_up;
	/* dup_task_struct's stack canary: get_random_int() (2.6.29), get_random_canary() (6.x) */
	uint64_t (*stack_canary)(void);
	/*
	 * The 64-bit vDSO as 6.12's map_vdso lays it out: four [vvar] pages
	 * right below two pages of text (vdso.c); else the text page with
	 * [vvar] after it.
	 */
	bool vdso_vvar_below;
	/*
	 * __ptrace_may_access's first test: the reader's own thread group is
	 * itself (6.12: same_thread_group), or only the reader's own task
	 * (2.6.29: task == current).
	 */
	bool ptrace_group_is_self;
	/* exec's auxv has 6.12's AT_MINSIGSTKSZ, AT_HWCAP2 and AT_RSEQ_* entries */
	bool auxv_612;
	/* CONFIG_HZ of that kernel's arch/x86/configs/x86_64_defconfig: the default hz= */
	unsigned hz;
};

/* The stack canary fork gives a new task, as the selected rule set draws it. */
uint64_t get_random_canary(void);

/* Registers a rule set (one per kernel/aslr/ file); a pointer, as .ktests does. */
#define ASLR_RULES(r)                                                                              \
	static const struct aslr_rules *const aslr_rules_ptr_##r                                   \
		__attribute__((used, section(".aslr_rules"))) = &r

/* The rule set aslr_rules= selected, and the one with a given id (NULL: none). */
const struct aslr_rules *aslr_rules_current(void);
const struct aslr_rules *aslr_rules_by_id(int id);
const char *aslr_rules_name(int rules);

const struct aslr_profile *aslr_current_profile(void);
const struct aslr_profile *aslr_profile_by_index(int ia32);

#define ASLR_STACK_ALIGN 8192ULL /* arch_align_stack: sp -= rnd % 8192 */
/*
 * The [stack] VMA below stack_arg_top (exec.c), RLIMIT_STACK's 8 MiB mapped at
 * once, or down to the highest region below stack_arg_top when that is nearer
 * (a 2.6.29 PIE's later segments, above mmap_base drawn just under the stack).
 * Linux's is smaller at exec and grows on faults: 2.6.29's setup_arg_pages
 * expands the arg pages by EXTRA_STACK_VM_PAGES (20 pages), 6.12's by 128 KiB
 * (vm_end - RLIMIT_STACK when that is nearer).  So the VMA's start differs
 * (/proc/<pid>/maps), and what get_unmapped_area finds free right below it
 * (2.6.29's exe placement skips all 8 MiB); no address on the stack does.
 */
#define STACK_VMA_SIZE (8ULL << 20)
/* The mmap base with no randomisation: TASK_SIZE - gap (mmap_rnd subtracts from it). */
uint64_t aslr_mmap_top(const struct aslr_profile *p);

static inline uint64_t page_align(uint64_t v)
{
	return (v + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

extern int randomize_va_space; /* 0, 1, 2: as /proc/sys/kernel/randomize_va_space */
extern int aslr_ia32;	       /* aslr_profile=ia32 */
extern int aslr_rules;	       /* ASLR_RULES_*: read through aslr_rules_current() */

#endif
