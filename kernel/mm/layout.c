/*
 * Address-space layout randomisation, rule by rule as Linux 2.6.29's x86
 * code (arch/x86/mm/mmap.c, fs/binfmt_elf.c, arch/x86/kernel/process_64.c),
 * with each random number drawn through get_random_int(), i.e. from the
 * variant selected with rng= — which is the whole point:
 *
 *   stack top     randomize_stack_top: (get_random_int() & STACK_RND_MASK) pages
 *                 below STACK_TOP; 22 bits on x86_64, 11 on ia32
 *   stack offset  arch_align_stack: sp -= get_random_int() % 8192; sp &= ~0xf
 *   mmap base     mmap_rnd: get_random_int() % 2^28 pages (x86_64), % 2^8 (ia32),
 *                 below TASK_SIZE - gap (gap = RLIMIT_STACK clamped to >= 128 MiB)
 *   brk           arch_randomize_brk: randomize_range(brk, brk + 32 MiB), only
 *                 with randomize_va_space=2
 *   exe base      PIE: ELF_ET_DYN_BASE + mmap_rnd (the Linux 4.1+ rule; 2.6.29
 *                 put a PIE wherever get_unmapped_area found room)
 *
 * randomize_va_space: 0 = nothing random, 1 = stack, offset, mmap and exe,
 * 2 = also brk (Linux's meaning).  The ia32 profile reproduces a 32-bit
 * task's layout (4 GiB address space, the "8 bits" of the article) with the
 * same 64-bit programs.
 */
#include "kernel/boot/cmdline.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/random/random.h"

#define MMAP_MIN_GAP (128ULL << 20)
#define RLIMIT_STACK (8ULL << 20)
#define BRK_RANGE    ASLR_BRK_RANGE

int randomize_va_space = 2;
int aslr_ia32;

static const struct aslr_profile profiles[2] = {
	{"x86_64", 0x00007ffffffff000ULL, 0x00007ffffffff000ULL, 0x0000555555554000ULL, 22, 28},
	{"ia32", 0xffffe000ULL, 0xffffe000ULL, 0xaaaaa000ULL, 11, 8},
};

const struct aslr_profile *aslr_profile_by_index(int ia32)
{
	return &profiles[ia32 ? 1 : 0];
}

const struct aslr_profile *aslr_current_profile(void)
{
	return aslr_profile_by_index(aslr_ia32);
}

static uint64_t page_align(uint64_t v)
{
	return (v + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

static uint64_t mmap_rnd(const struct aslr_profile *p)
{
	if (!randomize_va_space)
		return 0;
	return ((uint64_t)get_random_int() % (1ULL << p->mmap_rnd_bits)) << PAGE_SHIFT;
}

static uint64_t randomize_stack_top(const struct aslr_profile *p)
{
	uint64_t rnd = 0;

	if (randomize_va_space) {
		rnd = get_random_int() & ((1ULL << p->stack_rnd_bits) - 1);
		rnd <<= PAGE_SHIFT;
	}
	return page_align(p->stack_top) - rnd;
}

static uint64_t arch_align_stack(uint64_t sp)
{
	if (randomize_va_space)
		sp -= get_random_int() % ASLR_STACK_ALIGN;
	return sp & ~0xfULL;
}

/* randomize_range(start, end, 0): a page-aligned address in [start, end). */
static uint64_t randomize_range(uint64_t start, uint64_t end)
{
	if (end <= start)
		return 0;
	return page_align(get_random_int() % (end - start) + start);
}

uint64_t aslr_mmap_top(const struct aslr_profile *p)
{
	uint64_t gap = RLIMIT_STACK < MMAP_MIN_GAP ? MMAP_MIN_GAP : RLIMIT_STACK;

	return page_align(p->task_size - gap);
}

void arch_pick_mmap_layout(struct mm_struct *mm, uint64_t exe_span)
{
	const struct aslr_profile *p = aslr_current_profile();

	/* Linux's order of draws in load_elf_binary: mmap layout, stack top, ... */
	mm->mmap_base = page_align(aslr_mmap_top(p) - mmap_rnd(p));
	mm->stack_top = randomize_stack_top(p);
	/* load_elf_binary draws the PIE base for ET_DYN only; ET_EXEC sits at its link address. */
	mm->exe_base = mm->elf_exec ? 0 : p->dyn_base + mmap_rnd(p);
	mm->start_stack = arch_align_stack(mm->stack_top);
	mm->stack_align_sp = mm->start_stack; /* setup_stack moves start_stack down */
	mm->start_brk = page_align(mm->exe_base + exe_span);
	if (randomize_va_space > 1) {
		uint64_t b = randomize_range(mm->start_brk, mm->start_brk + BRK_RANGE);

		if (b)
			mm->start_brk = b;
	}
	mm->brk = mm->start_brk;
}
