/*
 * Address-space layout randomisation of one exec, draw by draw, under the
 * rules of the kernel aslr_rules= names.  Every get_random_int() goes to the
 * variant selected with rng=, which is the whole point.
 *
 * aslr_rules=2.6.29 (default), bit-exact to Linux 2.6.29 on x86_64 (a 64-bit
 * task, or a 32-bit one for aslr_profile=ia32).  load_elf_binary draws:
 *   1 mmap_base        arch/x86/mm/mmap.c mmap_rnd(): get_random_int() % 2^28
 *                      pages (% 2^8 for ia32) below TASK_SIZE - gap, gap =
 *                      RLIMIT_STACK clamped to [128 MiB, TASK_SIZE / 6 * 5]
 *   2 stack top        fs/binfmt_elf.c randomize_stack_top(): "unsigned int
 *                      random_variable = get_random_int() & STACK_RND_MASK;
 *                      random_variable <<= PAGE_SHIFT;" - the shift is done in
 *                      32 bits, so of the 22 bits of 0x3fffff only 20 survive
 *                      on x86_64 (CVE-2015-1593, fixed in 4.0); 11 for ia32
 *   3 arg pages        fs/exec.c setup_arg_pages(): stack_top =
 *                      PAGE_ALIGN(arch_align_stack(stack_top)), the [stack]
 *                      end.  do_execve had copied the strings to the top of
 *                      bprm_mm_init's page, highest first (bprm->p = vm_end -
 *                      sizeof(void *); copy_strings_kernel(filename),
 *                      copy_strings(envp), copy_strings(argv)); setup_arg_pages
 *                      shifts them down with the page (bprm->p -= stack_shift;
 *                      mm->arg_start = bprm->p), so of this draw the strings
 *                      keep only the page the rounding lands on
 *   4 vDSO             arch/x86/vdso/vma.c vdso_addr(mm->start_stack, len),
 *                      start_stack = bprm->p (load_elf_binary sets it before
 *                      arch_setup_additional_pages), the lowest argv string:
 *                      start + (get_random_int() & (PTRS_PER_PTE - 1)) pages,
 *                      capped at the next PMD boundary; get_unmapped_area
 *                      page-aligns that hint.  32-bit tasks get their vDSO
 *                      from get_unmapped_area, no draw
 *   5 stack offset     fs/binfmt_elf.c create_elf_tables(): p =
 *                      arch_align_stack(bprm->p) (arch/x86/kernel/process_64.c:
 *                      sp -= get_random_int() % 8192; sp &= ~0xf), below the
 *                      strings: it moves the platform string, AT_RANDOM's
 *                      bytes, the auxv, the envp/argv pointers and argc, never
 *                      the strings themselves
 *   6 AT_RANDOM        create_elf_tables(): get_random_bytes(k_rand_bytes, 16),
 *                      the nonblocking pool whatever get_random_int() is
 *   7 brk              process_64.c arch_randomize_brk(): randomize_range(brk,
 *                      brk + 32 MiB, 0), with randomize_va_space=2
 *   exe                no draw: on x86 a PIE's load_bias is 0 and the first
 *                      elf_map() lands top-down right below mmap_base, or
 *                      below the [stack] VMA (mapped first, by
 *                      setup_arg_pages) when the randomised stack lies there
 *
 * aslr_rules=6.x follows Linux 6.6 (arch/x86/mm/mmap.c, fs/binfmt_elf.c,
 * arch/x86/entry/vdso/vma.c, arch/x86/kernel/process.c, mm/util.c):
 *   1 mmap_base        arch_rnd(mmap64_rnd_bits = 28), then the compat base
 *                      arch_rnd(mmap32_rnd_bits = 8): both drawn for every
 *                      exec; gap = RLIMIT_STACK + stack_maxrandom_size +
 *                      stack_guard_gap (256 pages), clamped as above
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
 *   7 AT_RANDOM        get_random_bytes(16): the ChaCha20 CRNG (chacha20-batched)
 *   8 brk              randomize_page(brk, 1 GiB) (32 MiB for ia32):
 *                      get_random_long() % pages, no rounding up
 * Linux 6.6 draws get_random_long() from its u64 batch and
 * get_random_u32_below(8192) from its u16 batch; here every draw is one
 * get_random_int() of the selected variant (the widths above all fit in 32
 * bits), so 6.x is the rules and the order, not the bytes of those batches.
 *
 * randomize_va_space: 0 = nothing random (PF_RANDOMIZE clear: no draws but
 * the vDSO's and AT_RANDOM, as in both kernels), 1 = stack, offset, mmap,
 * exe, 2 = also brk.
 */
#include "kernel/params/param.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/random/random.h"
#include "rng/pool.h"

#define SZ_128M	     (128ULL << 20)
#define RLIMIT_STACK (8ULL << 20)
#define PMD_SIZE     (2ULL << 20)
#define PTRS_PER_PTE 512
#define VDSO_LEN     (2 * PAGE_SIZE) /* vdso_size: text + vvar */
#define GUARD_GAP    (256 * PAGE_SIZE)

int randomize_va_space = 2;
int aslr_ia32;
int aslr_rules;
param_enum(randomize_va_space, randomize_va_space, "0|1|2", "2",
	   "as /proc/sys/kernel/randomize_va_space: 0 none, 1 no brk, 2 all");
param_enum(aslr_profile, aslr_ia32, "x86_64|ia32", "x86_64", "the process layout exec builds");
param_enum(aslr_rules, aslr_rules, "2.6.29|6.x", "2.6.29",
	   "which kernel's ASLR rules exec follows");

/* gap of 6.x: RLIMIT_STACK + (STACK_RND_MASK << PAGE_SHIFT) + stack_guard_gap */
#define GAP_6X(mask) (RLIMIT_STACK + ((uint64_t)(mask) << PAGE_SHIFT) + GUARD_GAP)

static const struct aslr_profile profiles[ASLR_NR_RULES][2] = {
	[ASLR_RULES_2629] =
		{
			{"x86_64", 0x00007ffffffff000ULL, 0x00007ffffffff000ULL, 0, SZ_128M, 20, 22,
			 28, 13, 1},
			{"ia32", 0xffffe000ULL, 0xffffe000ULL, 0, SZ_128M, 11, 11, 8, 13, 0},
		},
	[ASLR_RULES_6X] =
		{
			{"x86_64", 0x00007ffffffff000ULL, 0x00007ffffffff000ULL,
			 0x0000555555554000ULL, GAP_6X(0x3fffff), 22, 22, 28, 18, 1},
			{"ia32", 0xffffe000ULL, 0xffffe000ULL, 0x00400000ULL, SZ_128M, 11, 11, 8,
			 13, 0},
		},
};

const char *aslr_rules_name(int rules)
{
	return rules == ASLR_RULES_6X ? "6.x" : "2.6.29";
}

const struct aslr_profile *aslr_profile_by_index(int ia32)
{
	return &profiles[aslr_rules == ASLR_RULES_6X][ia32 ? 1 : 0];
}

const struct aslr_profile *aslr_current_profile(void)
{
	return aslr_profile_by_index(aslr_ia32);
}

static uint64_t page_align(uint64_t v)
{
	return (v + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

/* 6.6 __get_random_u32_below(): Lemire's multiply-shift with rejection */
static uint32_t get_random_u32_below(uint32_t ceil)
{
	uint64_t mult = (uint64_t)ceil * get_random_int();

	if ((uint32_t)mult < ceil) {
		uint32_t bound = -ceil % ceil;

		while ((uint32_t)mult < bound)
			mult = (uint64_t)ceil * get_random_int();
	}
	return (uint32_t)(mult >> 32);
}

/* 2.6.29 mmap_rnd() / 6.6 arch_rnd(): pages of offset */
static uint64_t mmap_rnd(uint32_t bits)
{
	if (!randomize_va_space)
		return 0;
	if (aslr_rules == ASLR_RULES_2629)
		return ((uint64_t)get_random_int() % (1ULL << bits)) << PAGE_SHIFT;
	return ((uint64_t)get_random_int() & ((1ULL << bits) - 1)) << PAGE_SHIFT;
}

static uint64_t randomize_stack_top(const struct aslr_profile *p)
{
	uint64_t mask = (1ULL << p->stack_mask_bits) - 1;

	if (!randomize_va_space)
		return page_align(p->stack_top);
	if (aslr_rules == ASLR_RULES_2629) {
		/* 2.6.29: unsigned int random_variable, shifted in 32 bits */
		unsigned int random_variable = get_random_int() & (unsigned int)mask;

		random_variable <<= PAGE_SHIFT;
		return page_align(p->stack_top) - random_variable;
	}
	return page_align(p->stack_top) - (((uint64_t)get_random_int() & mask) << PAGE_SHIFT);
}

static uint64_t arch_align_stack(uint64_t sp)
{
	if (randomize_va_space)
		sp -= aslr_rules == ASLR_RULES_2629 ? get_random_int() % ASLR_STACK_ALIGN
						    : get_random_u32_below(ASLR_STACK_ALIGN);
	return sp & ~0xfULL;
}

/*
 * vdso_addr() of 2.6.29 / 6.6 for a 64-bit task, from start = bprm->p (not
 * page aligned); the end is capped at TASK_SIZE_MAX (6.6: DEFAULT_MAP_WINDOW,
 * the same 0x7ffffffff000).  2.6.29 adds the pages to the unaligned start and
 * arch_get_unmapped_area_topdown PAGE_ALIGNs the hint; 6.6 aligns start
 * first.  An address whose range is taken (the stack) is only a hint: map_vdso
 * falls back to get_unmapped_area, as arch_setup_additional_pages does.
 */
static uint64_t vdso_addr(uint64_t start)
{
	uint64_t end, addr;

	if (aslr_rules == ASLR_RULES_2629) {
		end = (start + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
		if (end >= TASK_SIZE)
			end = TASK_SIZE;
		end -= VDSO_LEN;
		addr = start + ((uint64_t)(get_random_int() & (PTRS_PER_PTE - 1)) << PAGE_SHIFT);
		return page_align(addr >= end ? end : addr);
	}
	start = page_align(start);
	end = (start + VDSO_LEN + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	if (end >= TASK_SIZE)
		end = TASK_SIZE;
	end -= VDSO_LEN;
	if (end <= start)
		return start;
	return start + ((uint64_t)get_random_u32_below((uint32_t)((end - start) >> PAGE_SHIFT) + 1)
			<< PAGE_SHIFT);
}

/* 2.6.29 randomize_range(start, end, 0): PAGE_ALIGN(rnd % range + start), 0 if empty */
static uint64_t randomize_range(uint64_t start, uint64_t end)
{
	if (end <= start)
		return 0;
	return page_align(get_random_int() % (end - start) + start);
}

/* 6.6 randomize_page(start, range) with a page-aligned start */
static uint64_t randomize_page(uint64_t start, uint64_t range)
{
	range >>= PAGE_SHIFT;
	if (!range)
		return start;
	return start + (((uint64_t)get_random_int() % range) << PAGE_SHIFT);
}

uint64_t aslr_mmap_top(const struct aslr_profile *p)
{
	uint64_t gap = p->mmap_gap, gap_max = p->task_size / 6 * 5;

	if (gap < SZ_128M)
		gap = SZ_128M;
	else if (gap > gap_max)
		gap = gap_max;
	return page_align(p->task_size - gap);
}

/* get_random_bytes() of the kernel the rules name (AT_RANDOM) */
static void get_random_bytes_rules(void *buf, size_t len)
{
	const struct rng_variant *crng = rng_find("chacha20-batched");

	if (aslr_rules == ASLR_RULES_2629)
		pool2629_get_random_bytes(buf, len);
	else
		crng->get_bytes(buf, len);
}

static void pick_brk(struct mm_struct *mm, const struct aslr_profile *p)
{
	uint64_t b;

	if (randomize_va_space < 2)
		return;
	if (aslr_rules == ASLR_RULES_2629) {
		b = randomize_range(mm->start_brk, mm->start_brk + (1ULL << (p->brk_bits + 12)));
		if (b) /* arch_randomize_brk: "?: mm->brk" */
			mm->start_brk = b;
	} else {
		mm->start_brk = randomize_page(mm->start_brk, 1ULL << (p->brk_bits + 12));
	}
}

void arch_pick_mmap_layout(struct mm_struct *mm, uint64_t exe_span, uint64_t arg_bytes)
{
	const struct aslr_profile *p = aslr_current_profile();
	const struct aslr_profile *p64 = aslr_profile_by_index(0), *p32 = aslr_profile_by_index(1);
	uint64_t span = page_align(exe_span), mmap64, mmap32;

	/* 1: arch_pick_mmap_layout (6.x draws the 64-bit base, then the compat one) */
	if (aslr_rules == ASLR_RULES_2629) {
		mm->mmap_base = page_align(aslr_mmap_top(p) - mmap_rnd(p->mmap_rnd_bits));
	} else {
		mmap64 = page_align(aslr_mmap_top(p64) - mmap_rnd(p64->mmap_rnd_bits));
		mmap32 = page_align(aslr_mmap_top(p32) - mmap_rnd(p32->mmap_rnd_bits));
		mm->mmap_base = aslr_ia32 ? mmap32 : mmap64;
	}
	/* 2, 3: setup_arg_pages(bprm, randomize_stack_top(STACK_TOP), ...) */
	mm->stack_top = randomize_stack_top(p);
	mm->stack_arg_top = page_align(arch_align_stack(mm->stack_top));
	/* setup_arg_pages: bprm->p -= stack_shift; mm->arg_start = bprm->p */
	mm->arg_start = mm->stack_arg_top - arg_bytes;
	/* the exe: 2.6.29 maps it top-down below mmap_base; 6.x draws its base */
	if (aslr_rules == ASLR_RULES_2629) {
		uint64_t stack_lo = mm->stack_arg_top - STACK_VMA_SIZE;

		mm->exe_base = mm->mmap_base - span;
		if (mm->exe_base < mm->stack_arg_top && mm->mmap_base > stack_lo)
			mm->exe_base = stack_lo - span; /* get_unmapped_area skips the stack */
	} else if (!mm->elf_exec) {
		mm->exe_base = p->dyn_base + mmap_rnd(p->mmap_rnd_bits);
	}
	/* ET_EXEC (binfmt_elf.c sets elf_exec) sits at its link address: no base, no draw */
	if (mm->elf_exec)
		mm->exe_base = 0;
	/* 4: arch_setup_additional_pages: vdso_addr(mm->start_stack = bprm->p) */
	mm->start_stack = mm->arg_start; /* create_elf_tables moves it to the final sp */
	mm->vdso_base = p->vdso_draw ? vdso_addr(mm->start_stack) : 0;
	/* 5, 6: create_elf_tables: p = arch_align_stack(bprm->p), below the strings */
	mm->stack_align_sp = arch_align_stack(mm->arg_start);
	get_random_bytes_rules(mm->at_random, sizeof(mm->at_random));
	/* 7: arch_randomize_brk */
	mm->start_brk = page_align(mm->exe_base + span);
	pick_brk(mm, p);
	mm->brk = mm->start_brk;
}
