/*
 * The ASLR rules of Linux 2.6.29 on x86_64, bit-exact (a 64-bit task, or a
 * 32-bit one for aslr_profile=ia32), from arch/x86/mm/mmap.c,
 * fs/binfmt_elf.c, fs/exec.c, arch/x86/vdso/vma.c,
 * arch/x86/kernel/process_64.c and drivers/char/random.c.  aslr_rules=2.6.29,
 * the default.  load_elf_binary draws:
 *   1 mmap_base        mmap_rnd(): get_random_int() % 2^28 pages (% 2^8 for
 *                      ia32) below TASK_SIZE - gap, gap = RLIMIT_STACK
 *                      clamped to [128 MiB, TASK_SIZE / 6 * 5]
 *   2 stack top        randomize_stack_top(): "unsigned int random_variable =
 *                      get_random_int() & STACK_RND_MASK; random_variable <<=
 *                      PAGE_SHIFT;" - the shift is done in 32 bits, so of the
 *                      22 bits of 0x3fffff only 20 survive on x86_64
 *                      (CVE-2015-1593, fixed in 4.0); 11 for ia32
 *   3 arg pages        setup_arg_pages(): stack_top =
 *                      PAGE_ALIGN(arch_align_stack(stack_top)), the [stack]
 *                      end.  do_execve had copied the strings to the top of
 *                      bprm_mm_init's page, highest first (bprm->p = vm_end -
 *                      sizeof(void *); copy_strings_kernel(filename),
 *                      copy_strings(envp), copy_strings(argv)); setup_arg_pages
 *                      shifts them down with the page (bprm->p -= stack_shift;
 *                      mm->arg_start = bprm->p), so of this draw the strings
 *                      keep only the page the rounding lands on
 *   4 vDSO             vdso_addr(mm->start_stack, len), start_stack = bprm->p
 *                      (load_elf_binary sets it before
 *                      arch_setup_additional_pages), the lowest argv string:
 *                      start + (get_random_int() & (PTRS_PER_PTE - 1)) pages,
 *                      capped at the next PMD boundary; get_unmapped_area
 *                      page-aligns that hint.  32-bit tasks get their vDSO
 *                      from get_unmapped_area, no draw
 *   5 stack offset     create_elf_tables(): p = arch_align_stack(bprm->p)
 *                      (process_64.c: sp -= get_random_int() % 8192; sp &=
 *                      ~0xf), below the strings: it moves the platform string,
 *                      AT_RANDOM's bytes, the auxv, the envp/argv pointers and
 *                      argc, never the strings themselves
 *   6 AT_RANDOM        create_elf_tables(): get_random_bytes(k_rand_bytes, 16),
 *                      the nonblocking pool whatever get_random_int() is
 *   7 brk              arch_randomize_brk(): randomize_range(brk, brk + 32 MiB,
 *                      0), with randomize_va_space=2
 *   exe                no draw: on x86 a PIE's load_bias is 0
 *                      (binfmt_elf.c:839-847 of v2.6.29) and elf_map(...,
 *                      total_size 0) maps only the first PT_LOAD, its
 *                      p_filesz + page offset, top-down right below
 *                      mmap_base (or below the [stack] VMA, mapped first by
 *                      setup_arg_pages, when the randomised stack lies
 *                      there); the later segments follow at load_bias +
 *                      p_vaddr, above it, and the brk after them
 *   canary             dup_task_struct at fork (linux/kernel/fork.c:242):
 *                      get_random_int(), before the child's exec draws
 */
#include "kernel/mm/layout.h"
#include "kernel/char/random.h"
#include "rng/pool.h"

#define PMD_SIZE     (2ULL << 20)
#define PTRS_PER_PTE 512
#define VDSO_LEN     (2 * PAGE_SIZE) /* vdso_size: text + vvar */

static uint64_t mmap_rnd(const struct aslr_exec *x)
{
	if (!randomize_va_space)
		return 0;
	return ((uint64_t)get_random_int_for(x->pid) % (1ULL << x->p->mmap_rnd_bits)) << PAGE_SHIFT;
}

static uint64_t mmap_base(const struct aslr_exec *x)
{
	return page_align(aslr_mmap_top(x->p) - mmap_rnd(x));
}

static uint64_t randomize_stack_top(const struct aslr_exec *x)
{
	unsigned int mask = (unsigned int)((1ULL << x->p->stack_mask_bits) - 1);
	unsigned int random_variable;

	if (!randomize_va_space)
		return page_align(x->p->stack_top);
	/* unsigned int random_variable, shifted in 32 bits */
	random_variable = get_random_int_for(x->pid) & mask;
	random_variable <<= PAGE_SHIFT;
	return page_align(x->p->stack_top) - random_variable;
}

static uint64_t arch_align_stack(const struct aslr_exec *x, uint64_t sp)
{
	if (randomize_va_space)
		sp -= get_random_int_for(x->pid) % ASLR_STACK_ALIGN;
	return sp & ~0xfULL;
}

/*
 * The first PT_LOAD top-down below mmap_base; get_unmapped_area skips the
 * [stack] VMA if it is in the way.  load_bias += where it landed - vaddr.
 */
static uint64_t exe_base(const struct aslr_exec *x, const struct mm_struct *mm)
{
	uint64_t len = x->img->first_len, stack_lo = mm->stack_arg_top - STACK_VMA_SIZE;
	uint64_t base = mm->mmap_base - len;

	if (base < mm->stack_arg_top && mm->mmap_base > stack_lo)
		base = stack_lo - len;
	return base - x->img->start;
}

/*
 * vdso_addr() for a 64-bit task, from start = bprm->p (not page aligned);
 * the end is capped at TASK_SIZE_MAX.  The pages are added to the unaligned
 * start and arch_get_unmapped_area_topdown PAGE_ALIGNs the hint.  An address
 * whose range is taken (the stack) is only a hint: map_vdso falls back to
 * get_unmapped_area, as arch_setup_additional_pages does.
 */
static uint64_t vdso_addr(const struct aslr_exec *x, uint64_t start)
{
	uint64_t end, addr;

	end = (start + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	if (end >= TASK_SIZE)
		end = TASK_SIZE;
	end -= VDSO_LEN;
	addr = start + ((uint64_t)(get_random_int_for(x->pid) & (PTRS_PER_PTE - 1)) << PAGE_SHIFT);
	return page_align(addr >= end ? end : addr);
}

/* randomize_range(start, end, 0): PAGE_ALIGN(rnd % range + start), 0 if empty */
static uint64_t randomize_range(const struct aslr_exec *x, uint64_t start, uint64_t end)
{
	if (end <= start)
		return 0;
	return page_align(get_random_int_for(x->pid) % (end - start) + start);
}

/* set_brk: the brk right after the last segment */
static uint64_t brk_base(const struct aslr_exec *x, const struct mm_struct *mm)
{
	return page_align(mm->exe_base + x->img->end);
}

static uint64_t arch_randomize_brk(const struct aslr_exec *x, uint64_t brk)
{
	uint64_t b = randomize_range(x, brk, brk + (1ULL << (x->p->brk_bits + 12)));

	return b ? b : brk; /* "?: mm->brk" */
}

static uint64_t stack_canary(void)
{
	return get_random_int();
}

static const struct aslr_rules linux_2_6_29 = {
	.id = ASLR_RULES_2629,
	.name = "2.6.29",
	.profile =
		{
			{"x86_64", 0x00007ffffffff000ULL, 0x00007ffffffff000ULL, 0, 128ULL << 20,
			 20, 22, 28, 13, 1},
			{"ia32", 0xffffe000ULL, 0xffffe000ULL, 0, 128ULL << 20, 11, 11, 8, 13, 0},
		},
	.mmap_base = mmap_base,
	.stack_top = randomize_stack_top,
	.align_stack = arch_align_stack,
	.exe_base = exe_base,
	.vdso_addr = vdso_addr,
	.at_random = pool2629_get_random_bytes,
	.brk_base = brk_base,
	.randomize_brk = arch_randomize_brk,
	.brk_rounds_up = true,
	.stack_canary = stack_canary,
	.uts_release = "2.6.29-aslrbench",
	.hz = 1000, /* x86_64_defconfig:295-296 CONFIG_HZ_1000=y, CONFIG_HZ=1000 */
};
ASLR_RULES(linux_2_6_29);
