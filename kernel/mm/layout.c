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
 * a non-PIE (ET_EXEC) at its link address with no draw, and the mmap gap's
 * clamp.  Where the brk starts is the rule set's (6.x moves a static PIE's).
 *
 * Each rule set draws the widths its kernel draws: 2.6.29 one
 * get_random_int() a site; 6.x (followed from Linux 6.12) get_random_long()
 * from the u64 batch and get_random_u32_below(8192) from the u16 batch
 * (kernel/char/random.h says what a 32-bit-only variant gives for those).
 *
 * aslr_profile=: x86_64 (the default) lays a 64-bit program out by the x86_64
 * rules, ia32 by the 32-bit rules (a 64-bit process in a 32-bit layout, the
 * project's first ia32 profile, kept so its figures stay comparable); an
 * IA-32 program (ELFCLASS32) gets the ia32 rules under either.
 *
 * randomize_va_space: 0 = nothing random (PF_RANDOMIZE clear: no draws but
 * the vDSO's and AT_RANDOM, as in both kernels), 1 = stack, offset, mmap,
 * exe, 2 = also brk.
 */
#include "kernel/params/param.h"
#include "kernel/mm/layout.h"

#define SZ_128M (128ULL << 20)

/* The big kernel lock: /proc/sys/kernel/randomize_va_space writes it, exec reads it. */
int randomize_va_space = 2;
/* Set from the command line before the other CPUs start; read-only from then on. */
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

uint64_t get_random_canary(void)
{
	return aslr_rules_current()->stack_canary();
}

void arch_pick_mmap_layout(struct mm_struct *mm, const struct aslr_image *img, uint64_t arg_bytes,
			   uint32_t pid)
{
	const struct aslr_rules *rules = aslr_rules_current();
	/*
	 * An IA-32 program is always laid out by the ia32 rules, as Linux lays
	 * out every compat task (mmap_is_ia32(), TASK_SIZE = IA32_PAGE_OFFSET);
	 * aslr_profile=ia32 also gives a 64-bit program the 32-bit layout.
	 */
	int ia32 = aslr_ia32 || img->ia32;
	const struct aslr_exec x = {aslr_profile_by_index(ia32), ia32, pid, img};

	/* 1: arch_pick_mmap_layout */
	mm->mmap_base = rules->mmap_base(&x);
	/* 2, 3: setup_arg_pages(bprm, randomize_stack_top(STACK_TOP), ...) */
	mm->stack_top = rules->stack_top(&x);
	mm->stack_arg_top = page_align(rules->align_stack(&x, mm->stack_top));
	/* setup_arg_pages: bprm->p -= stack_shift; mm->arg_start = bprm->p */
	mm->arg_start = mm->stack_arg_top - arg_bytes;
	/* ET_EXEC (binfmt_elf.c sets elf_exec) sits at its link address: no base, no draw */
	mm->exe_base = img->exec ? 0 : rules->exe_base(&x, mm);
	/* placed by mmap below mmap_base (2.6.29's PIEs, 6.x's loaders), not at ELF_ET_DYN_BASE */
	mm->exe_in_mmap = !img->exec && !(img->interp && x.p->dyn_base);
	/* 4: arch_setup_additional_pages: vdso_addr(mm->start_stack = bprm->p) */
	mm->start_stack = mm->arg_start; /* create_elf_tables moves it to the final sp */
	mm->vdso_base = x.p->vdso_draw ? rules->vdso_addr(&x, mm->start_stack) : 0;
	/* 5, 6: create_elf_tables: p = arch_align_stack(bprm->p), below the strings */
	mm->stack_align_sp = rules->align_stack(&x, mm->arg_start);
	rules->at_random(mm->at_random, sizeof(mm->at_random));
	/* 7: arch_randomize_brk, from where the rule set starts the brk */
	mm->brk_base = rules->brk_base(&x, mm);
	mm->start_brk = mm->brk_base;
	if (randomize_va_space >= 2)
		mm->start_brk = rules->randomize_brk(&x, mm->brk_base);
	mm->brk = mm->start_brk;
	/* an IA-32 program's mappings end below IA32_PAGE_OFFSET (mmap, brk, mremap) */
	mm->task_size = img->ia32 ? IA32_PAGE_OFFSET : TASK_SIZE;
}
