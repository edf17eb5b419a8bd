/*
 * The ASLR rules of Linux 6.x, followed from Linux 6.6: arch/x86/mm/mmap.c,
 * fs/binfmt_elf.c, fs/exec.c, arch/x86/entry/vdso/vma.c,
 * arch/x86/kernel/process.c, mm/util.c and drivers/char/random.c.
 * aslr_rules=6.x.  load_elf_binary draws:
 *   1 mmap_base        arch_rnd(mmap64_rnd_bits = 28), then the compat base
 *                      arch_rnd(mmap32_rnd_bits = 8): both drawn for every
 *                      exec; gap = RLIMIT_STACK + stack_maxrandom_size +
 *                      stack_guard_gap (256 pages), clamped as in 2.6.29
 *   2 stack top        get_random_long() & STACK_RND_MASK, shifted in 64 bits:
 *                      22 bits (11 for ia32)
 *   3 arg pages        as 2.6.29 (arch_align_stack: get_random_u32_below(8192));
 *                      fs/exec.c copies the strings in the same order to the
 *                      same place (bprm->p = vm_end - sizeof(void *))
 *   4 exe              PIE with an interpreter: ELF_ET_DYN_BASE + arch_mmap_rnd()
 *                      (DEFAULT_MAP_WINDOW / 3 * 2 on x86_64, 0x400000 for ia32)
 *   5 vDSO             vdso_addr(mm->start_stack = bprm->p, as setup_arg_pages
 *                      sets it): PAGE_ALIGN(start), then
 *                      get_random_u32_below(pages to the PMD end + 1)
 *   6 stack offset     as 2.6.29: create_elf_tables' arch_align_stack(bprm->p),
 *                      below the strings
 *   7 AT_RANDOM        get_random_bytes(16): the ChaCha20 CRNG
 *   8 brk              randomize_page(brk, 1 GiB) (32 MiB for ia32):
 *                      get_random_long() % pages, no rounding up
 */
#include "kernel/mm/layout.h"
#include "kernel/char/random.h"

#define RLIMIT_STACK (8ULL << 20)
#define PMD_SIZE     (2ULL << 20)
#define VDSO_LEN     (2 * PAGE_SIZE) /* vdso_size: text + vvar */
#define GUARD_GAP    (256 * PAGE_SIZE)

/* gap: RLIMIT_STACK + (STACK_RND_MASK << PAGE_SHIFT) + stack_guard_gap */
#define GAP_6X(mask) (RLIMIT_STACK + ((uint64_t)(mask) << PAGE_SHIFT) + GUARD_GAP)

/* __get_random_u32_below(): Lemire's multiply-shift with rejection */
static uint32_t get_random_u32_below(const struct aslr_exec *x, uint32_t ceil)
{
	uint64_t mult = (uint64_t)ceil * get_random_int_for(x->pid);

	if ((uint32_t)mult < ceil) {
		uint32_t bound = -ceil % ceil;

		while ((uint32_t)mult < bound)
			mult = (uint64_t)ceil * get_random_int_for(x->pid);
	}
	return (uint32_t)(mult >> 32);
}

/* arch_rnd(): pages of offset */
static uint64_t arch_rnd(const struct aslr_exec *x, uint32_t bits)
{
	if (!randomize_va_space)
		return 0;
	return ((uint64_t)get_random_int_for(x->pid) & ((1ULL << bits) - 1)) << PAGE_SHIFT;
}

static const struct aslr_rules linux_6_x;

/* arch_pick_mmap_layout: the 64-bit base, then the compat one, for every task */
static uint64_t mmap_base(const struct aslr_exec *x)
{
	const struct aslr_profile *p64 = &linux_6_x.profile[0], *p32 = &linux_6_x.profile[1];
	uint64_t mmap64, mmap32;

	mmap64 = page_align(aslr_mmap_top(p64) - arch_rnd(x, p64->mmap_rnd_bits));
	mmap32 = page_align(aslr_mmap_top(p32) - arch_rnd(x, p32->mmap_rnd_bits));
	return x->ia32 ? mmap32 : mmap64;
}

static uint64_t randomize_stack_top(const struct aslr_exec *x)
{
	uint64_t mask = (1ULL << x->p->stack_mask_bits) - 1;

	if (!randomize_va_space)
		return page_align(x->p->stack_top);
	return page_align(x->p->stack_top) -
	       (((uint64_t)get_random_int_for(x->pid) & mask) << PAGE_SHIFT);
}

static uint64_t arch_align_stack(const struct aslr_exec *x, uint64_t sp)
{
	if (randomize_va_space)
		sp -= get_random_u32_below(x, ASLR_STACK_ALIGN);
	return sp & ~0xfULL;
}

/* load_elf_binary: a PIE's load_bias = ELF_ET_DYN_BASE + arch_mmap_rnd() */
static uint64_t exe_base(const struct aslr_exec *x, const struct mm_struct *mm, uint64_t span)
{
	(void)mm;
	(void)span;
	return x->p->dyn_base + arch_rnd(x, x->p->mmap_rnd_bits);
}

/*
 * vdso_addr() for a 64-bit task: start = bprm->p is page-aligned first; the
 * end is capped at DEFAULT_MAP_WINDOW (0x7ffffffff000).  A taken range is
 * only a hint, as in 2.6.29.
 */
static uint64_t vdso_addr(const struct aslr_exec *x, uint64_t start)
{
	uint64_t end;

	start = page_align(start);
	end = (start + VDSO_LEN + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	if (end >= TASK_SIZE)
		end = TASK_SIZE;
	end -= VDSO_LEN;
	if (end <= start)
		return start;
	return start +
	       ((uint64_t)get_random_u32_below(x, (uint32_t)((end - start) >> PAGE_SHIFT) + 1)
		<< PAGE_SHIFT);
}

/* arch_randomize_brk: randomize_page(brk, range) with a page-aligned brk */
static uint64_t randomize_page(const struct aslr_exec *x, uint64_t brk)
{
	uint64_t range = (1ULL << (x->p->brk_bits + 12)) >> PAGE_SHIFT;

	if (!range)
		return brk;
	return brk + (((uint64_t)get_random_int_for(x->pid) % range) << PAGE_SHIFT);
}

static const struct aslr_rules linux_6_x = {
	.id = ASLR_RULES_6X,
	.name = "6.x",
	.profile =
		{
			{"x86_64", 0x00007ffffffff000ULL, 0x00007ffffffff000ULL,
			 0x0000555555554000ULL, GAP_6X(0x3fffff), 22, 22, 28, 18, 1},
			{"ia32", 0xffffe000ULL, 0xffffe000ULL, 0x00400000ULL, 128ULL << 20, 11, 11,
			 8, 13, 0},
		},
	.mmap_base = mmap_base,
	.stack_top = randomize_stack_top,
	.align_stack = arch_align_stack,
	.exe_base = exe_base,
	.vdso_addr = vdso_addr,
	.at_random = get_random_bytes,
	.randomize_brk = randomize_page,
	.brk_rounds_up = false,
};
ASLR_RULES(linux_6_x);
