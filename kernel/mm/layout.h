#ifndef KERNEL_MM_LAYOUT_H
#define KERNEL_MM_LAYOUT_H

#include <stdint.h>

#include "kernel/mm/mm.h"

/*
 * The layout of a freshly exec'ed program: every draw load_elf_binary makes,
 * in the order of the kernel aslr_rules= names (see layout.c).  arg_bytes is
 * what copy_strings put at the top of the new stack before setup_arg_pages
 * moved it: bprm_mm_init's 8-byte slot (bprm->p = vm_end - sizeof(void *))
 * plus the filename, envp and argv strings.
 */
void arch_pick_mmap_layout(struct mm_struct *mm, uint64_t exe_span, uint64_t arg_bytes);

/* aslr_rules=: which kernel's rules exec follows */
enum { ASLR_RULES_2629, ASLR_RULES_6X, ASLR_NR_RULES };
const char *aslr_rules_name(int rules);

/* The profile's constants under the current rules, for the ASLR suite and tests. */
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
const struct aslr_profile *aslr_current_profile(void);
const struct aslr_profile *aslr_profile_by_index(int ia32);

#define ASLR_STACK_ALIGN 8192ULL /* arch_align_stack: sp -= rnd % 8192 */
/*
 * The [stack] VMA below stack_arg_top (exec.c), RLIMIT_STACK's 8 MiB mapped at
 * once.  Linux's is smaller at exec and grows on faults: 2.6.29's
 * setup_arg_pages expands the arg pages by EXTRA_STACK_VM_PAGES (20 pages),
 * 6.6's by 128 KiB (vm_end - RLIMIT_STACK when that is nearer).  So the
 * VMA's start differs (/proc/<pid>/maps), and what get_unmapped_area finds
 * free right below it (layout.c's 2.6.29 exe placement skips all 8 MiB); no
 * address on the stack does.
 */
#define STACK_VMA_SIZE (8ULL << 20)
/* The mmap base with no randomisation: TASK_SIZE - gap (mmap_rnd subtracts from it). */
uint64_t aslr_mmap_top(const struct aslr_profile *p);

extern int randomize_va_space; /* 0, 1, 2: as /proc/sys/kernel/randomize_va_space */
extern int aslr_ia32;	       /* aslr_profile=ia32 */
extern int aslr_rules;	       /* ASLR_RULES_* */

#endif
