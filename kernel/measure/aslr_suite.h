/*
 * The ASLR suite (mode=bench suite=aslr) and the helpers the ASLR tests
 * share with it: spawn a program, read the child's layout from its
 * mm_struct (the kernel's own view, the ground truth), reap it.
 */
#ifndef KERNEL_MEASURE_ASLR_SUITE_H
#define KERNEL_MEASURE_ASLR_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/mm/layout.h"

struct mm_struct;

/* One process's layout, as its mm_struct holds it. */
struct aslr_layout {
	uint64_t stack_top;	 /* randomize_stack_top */
	uint64_t stack_arg_top;	 /* setup_arg_pages: the [stack] VMA's end */
	uint64_t arg_start;	 /* bprm->p: the lowest argv string, a fixed distance below */
	uint64_t stack_align_sp; /* create_elf_tables: arch_align_stack(arg_start) */
	uint64_t mmap_base;	 /* TASK_SIZE - gap - mmap_rnd */
	uint64_t start_brk;	 /* arch_randomize_brk(brk_base) */
	uint64_t brk_base;	 /* the brk before it: the exe's end (6.x: + a page, or a
				    loader's ELF_ET_DYN_BASE) */
	uint64_t exe_base; /* below mmap_base (2.6.29, 6.x loaders) or ELF_ET_DYN_BASE + rnd */
	bool exe_in_mmap;  /* placed by mmap below mmap_base, carrying its draw */
	uint64_t exe_end;  /* end of the highest executable segment (page aligned) */
	uint64_t canary;   /* the task's stack canary (drawn at fork, before the layout) */
};

enum aslr_region { ASLR_STACK, ASLR_STACK_OFFSET, ASLR_MMAP, ASLR_BRK, ASLR_EXE, ASLR_NR_REGIONS };

extern const char *const aslr_region_names[ASLR_NR_REGIONS];

void aslr_read_layout(const struct mm_struct *mm, uint64_t canary, struct aslr_layout *out);

/* Spawns prog (argv = { prog }), reads the child's layout, reaps it: 0 or -errno. */
long aslr_spawn_layout(const char *prog, struct aslr_layout *out);

/*
 * The value a region's statistics are computed over: stack = stack_top,
 * stack_offset = (arg_start & ~15) - stack_align_sp (what create_elf_tables'
 * arch_align_stack moved sp, in whole 16-byte units), mmap = mmap_base,
 * brk = start_brk - brk_base (the brk rule's own offset; the address
 * start_brk may also carry the exe base's randomness), exe = exe_base.
 */
uint64_t aslr_region_value(const struct aslr_layout *l, enum aslr_region r);

/* Bits the rule for region r draws under profile p and the current aslr_rules. */
uint32_t aslr_region_bits(enum aslr_region r, const struct aslr_profile *p);

/*
 * The draw the rule made, recovered from the layout: an index in
 * [0, 2^bits) that is uniform when get_random_int() is.  false when the
 * value is outside the rule's range or misaligned.
 */
bool aslr_region_index(const struct aslr_layout *l, enum aslr_region r,
		       const struct aslr_profile *p, uint64_t *idx);

/* mode=bench suite=aslr; adds the (variant, profile) pairs measured and failed. */
void aslr_suite(unsigned *measured, unsigned *failed);

#endif
