/*
 * Address-space layout randomisation of one exec, draw by draw, under the
 * rules of the kernel aslr_rules= names.  Every get_random_int() goes to the
 * variant selected with rng=, which is the whole point.
 *
 * What differs between kernels is in kernel/aslr/, one file per Linux
 * version (linux_2_6_29.c, linux_6_x.c): each says which draws it makes and
 * how.  What stays here is the order load_elf_binary calls them in and what
 * no rule set changes: the arg pages (fs/exec.c setup_arg_pages: stack_top =
 * PAGE_ALIGN(arch_align_stack(stack_top)), the strings moved down with the
 * page), start_stack = bprm->p (the lowest argv string) as the vDSO's start,
 * a non-PIE (ET_EXEC) at its link address with no draw, brk right after the
 * exe, and the mmap gap's clamp.
 *
 * Linux 6.6 draws get_random_long() from its u64 batch and
 * get_random_u32_below(8192) from its u16 batch; here every draw is one
 * get_random_int() of the selected variant (the widths all fit in 32 bits),
 * so 6.x is the rules and the order, not the bytes of those batches.
 *
 * randomize_va_space: 0 = nothing random (PF_RANDOMIZE clear: no draws but
 * the vDSO's and AT_RANDOM, as in both kernels), 1 = stack, offset, mmap,
 * exe, 2 = also brk.
 */
#include "kernel/params/param.h"
#include "kernel/mm/layout.h"

#define SZ_128M (128ULL << 20)

int randomize_va_space = 2;
int aslr_ia32;
int aslr_rules;
param_enum(randomize_va_space, randomize_va_space, "0|1|2", "2",
	   "as /proc/sys/kernel/randomize_va_space: 0 none, 1 no brk, 2 all");
param_enum(aslr_profile, aslr_ia32, "x86_64|ia32", "x86_64", "the process layout exec builds");
param_enum(aslr_rules, aslr_rules, "2.6.29|6.x", "2.6.29",
	   "which kernel's ASLR rules exec follows");

extern const struct aslr_rules *const __aslr_rules_start[], *const __aslr_rules_end[];

const struct aslr_rules *aslr_rules_by_id(int id)
{
	for (const struct aslr_rules *const *r = __aslr_rules_start; r < __aslr_rules_end; r++)
		if ((*r)->id == id)
			return *r;
	return 0;
}

const struct aslr_rules *aslr_rules_current(void)
{
	return aslr_rules_by_id(aslr_rules);
}

const char *aslr_rules_name(int rules)
{
	const struct aslr_rules *r = aslr_rules_by_id(rules);

	return r ? r->name : "?";
}

const struct aslr_profile *aslr_profile_by_index(int ia32)
{
	return &aslr_rules_current()->profile[ia32 ? 1 : 0];
}

const struct aslr_profile *aslr_current_profile(void)
{
	return aslr_profile_by_index(aslr_ia32);
}

/* mmap_base's gap: RLIMIT_STACK (and 6.x's extra) clamped to [128 MiB, TASK_SIZE / 6 * 5] */
uint64_t aslr_mmap_top(const struct aslr_profile *p)
{
	uint64_t gap = p->mmap_gap, gap_max = p->task_size / 6 * 5;

	if (gap < SZ_128M)
		gap = SZ_128M;
	else if (gap > gap_max)
		gap = gap_max;
	return page_align(p->task_size - gap);
}

void arch_pick_mmap_layout(struct mm_struct *mm, uint64_t exe_span, uint64_t arg_bytes,
			   uint32_t pid)
{
	const struct aslr_rules *rules = aslr_rules_current();
	const struct aslr_exec x = {aslr_current_profile(), aslr_ia32, pid};
	uint64_t span = page_align(exe_span);

	/* 1: arch_pick_mmap_layout */
	mm->mmap_base = rules->mmap_base(&x);
	/* 2, 3: setup_arg_pages(bprm, randomize_stack_top(STACK_TOP), ...) */
	mm->stack_top = rules->stack_top(&x);
	mm->stack_arg_top = page_align(rules->align_stack(&x, mm->stack_top));
	/* setup_arg_pages: bprm->p -= stack_shift; mm->arg_start = bprm->p */
	mm->arg_start = mm->stack_arg_top - arg_bytes;
	/* ET_EXEC (binfmt_elf.c sets elf_exec) sits at its link address: no base, no draw */
	mm->exe_base = mm->elf_exec ? 0 : rules->exe_base(&x, mm, span);
	/* 4: arch_setup_additional_pages: vdso_addr(mm->start_stack = bprm->p) */
	mm->start_stack = mm->arg_start; /* create_elf_tables moves it to the final sp */
	mm->vdso_base = x.p->vdso_draw ? rules->vdso_addr(&x, mm->start_stack) : 0;
	/* 5, 6: create_elf_tables: p = arch_align_stack(bprm->p), below the strings */
	mm->stack_align_sp = rules->align_stack(&x, mm->arg_start);
	rules->at_random(mm->at_random, sizeof(mm->at_random));
	/* 7: arch_randomize_brk */
	mm->start_brk = page_align(mm->exe_base + span);
	if (randomize_va_space >= 2)
		mm->start_brk = rules->randomize_brk(&x, mm->start_brk);
	mm->brk = mm->start_brk;
}
