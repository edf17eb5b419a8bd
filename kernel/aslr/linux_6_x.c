/*
 * The ASLR rules of Linux 6.x, followed from one release: Linux 6.12 (LTS;
 * read in Debian's linux-source-6.12, 6.12.118): arch/x86/mm/mmap.c,
 * fs/binfmt_elf.c, fs/exec.c, arch/x86/entry/vdso/vma.c,
 * arch/x86/kernel/process.c, mm/util.c, linux/kernel/fork.c,
 * include/linux/random.h and drivers/char/random.c.  aslr_rules=6.x.
 * The draws, in load_elf_binary's order, with the batch each comes from:
 *   0 canary           dup_task_struct at fork (linux/kernel/fork.c:1170):
 *                      get_random_canary() = get_random_long() & CANARY_MASK
 *                      (0xffffffffffffff00): u64
 *   1 mmap_base        setup_new_exec -> arch_pick_mmap_layout (mmap.c:129-151):
 *                      arch_rnd(mmap64_rnd_bits = 28), then the compat base
 *                      arch_rnd(mmap32_rnd_bits = 8), both for every exec;
 *                      arch_rnd = get_random_long() & mask: two u64.  gap =
 *                      RLIMIT_STACK + stack_maxrandom_size + stack_guard_gap
 *                      (256 pages), clamped to [128 MiB, TASK_SIZE / 6 * 5]
 *   2 stack top        randomize_stack_top (mm/util.c:351-365):
 *                      get_random_long() & STACK_RND_MASK, shifted in 64
 *                      bits: 22 bits (11 for ia32): u64
 *   3 arg pages        setup_arg_pages (fs/exec.c:753) arch_align_stack
 *                      (process.c:1018-1023): sp -= get_random_u32_below(8192),
 *                      a constant bound <= 2^16: (8192 * get_random_u16()) >> 16
 *                      (include/linux/random.h:81-84, no rejection for a
 *                      power of two): u16
 *   4 exe              binfmt_elf.c:1125-1172: a program (ET_DYN with
 *                      PT_INTERP) at ELF_ET_DYN_BASE + arch_mmap_rnd() (u64),
 *                      aligned down to its largest PT_LOAD p_align; a loader
 *                      (static PIE, no PT_INTERP) has load_bias 0: elf_map
 *                      maps total_size top-down in the mmap area, no draw
 *   5 vDSO             map_vdso(image, 0) (vdso/vma.c:236, 323): no hint, no
 *                      draw: get_unmapped_area top-down in the mmap area
 *   6 stack offset     create_elf_tables (binfmt_elf.c:184) arch_align_stack(p)
 *                      below the strings: u16
 *   7 AT_RANDOM        create_elf_tables (binfmt_elf.c:217) get_random_bytes(16)
 *   8 brk              binfmt_elf.c:1300-1331: a static PIE's brk moves to
 *                      ELF_PAGEALIGN(ELF_ET_DYN_BASE) (CONFIG_COMPAT_BRK is off
 *                      in x86_64_defconfig); any other brk is the bss end plus
 *                      a one-page gap when randomize_va_space > 1; then
 *                      arch_randomize_brk (process.c:1025-1031):
 *                      randomize_page(brk, 1 GiB) (32 MiB for ia32):
 *                      brk + (get_random_long() % pages << PAGE_SHIFT): u64
 * The u64 and u16 requests go to kernel/char/random.c, which says what a
 * variant with one 32-bit output gives for them.
 */
#include "kernel/mm/layout.h"
#include "kernel/char/random.h"

#define RLIMIT_STACK (8ULL << 20)
#define GUARD_GAP    (256 * PAGE_SIZE)
#define CANARY_MASK  0xffffffffffffff00ULL

/* gap: RLIMIT_STACK + (STACK_RND_MASK << PAGE_SHIFT) + stack_guard_gap */
#define GAP_6X(mask) (RLIMIT_STACK + ((uint64_t)(mask) << PAGE_SHIFT) + GUARD_GAP)

/* ELF_ET_DYN_BASE (asm/elf.h:242): DEFAULT_MAP_WINDOW / 3 * 2, not page aligned */
static uint64_t elf_et_dyn_base(const struct aslr_exec *x)
{
	return x->ia32 ? 0x400000ULL : 0x7ffffffff000ULL / 3 * 2;
}

/* get_random_u32_below(8192), a constant bound: the u16 path, a power of two */
static uint32_t below_8192(const struct aslr_exec *x)
{
	return (8192U * get_random_u16_for(x->pid)) >> 16;
}

/* arch_rnd(): pages of offset */
static uint64_t arch_rnd(const struct aslr_exec *x, uint32_t bits)
{
	if (!randomize_va_space)
		return 0;
	return (get_random_long_for(x->pid) & ((1ULL << bits) - 1)) << PAGE_SHIFT;
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
	return page_align(x->p->stack_top) - ((get_random_long_for(x->pid) & mask) << PAGE_SHIFT);
}

static uint64_t arch_align_stack(const struct aslr_exec *x, uint64_t sp)
{
	if (randomize_va_space)
		sp -= below_8192(x);
	return sp & ~0xfULL;
}

/*
 * load_bias of an ET_DYN program.  With PT_INTERP: ELF_ET_DYN_BASE +
 * arch_mmap_rnd(), aligned down, then ELF_PAGESTART(load_bias - vaddr).
 * Without: elf_map(total_size) at no hint, top-down below mmap_base (the
 * [stack] lies above mmap_base: the gap covers its randomisation), aligned
 * down when a PT_LOAD asks for more than a page.
 */
static uint64_t exe_base(const struct aslr_exec *x, const struct mm_struct *mm)
{
	const struct aslr_image *img = x->img;
	uint64_t align = img->align > PAGE_SIZE ? img->align : PAGE_SIZE, at;

	if (img->interp) {
		at = elf_et_dyn_base(x) + arch_rnd(x, x->p->mmap_rnd_bits);
		at &= ~(align - 1);
		return (at - img->start) & ~(PAGE_SIZE - 1);
	}
	at = (mm->mmap_base - page_align(img->end - img->start)) & ~(align - 1);
	return at - img->start;
}

/* binfmt_elf.c:1308-1323: a loader's brk moves; any other gets a one-page gap */
static uint64_t brk_base(const struct aslr_exec *x, const struct mm_struct *mm)
{
	if (!x->img->exec && !x->img->interp)
		return page_align(elf_et_dyn_base(x));
	return page_align(mm->exe_base + x->img->end) + (randomize_va_space > 1 ? PAGE_SIZE : 0);
}

/* arch_randomize_brk: randomize_page(brk, range), a page-aligned brk: no rounding up */
static uint64_t randomize_page(const struct aslr_exec *x, uint64_t brk)
{
	uint64_t range = (1ULL << (x->p->brk_bits + PAGE_SHIFT)) >> PAGE_SHIFT;

	return brk + ((get_random_long_for(x->pid) % range) << PAGE_SHIFT);
}

static uint64_t canary_6x(void)
{
	return get_random_long() & CANARY_MASK;
}

static const struct aslr_rules linux_6_x = {
	.id = ASLR_RULES_6X,
	.name = "6.x",
	.profile =
		{
			{"x86_64", 0x00007ffffffff000ULL, 0x00007ffffffff000ULL,
			 0x0000555555554000ULL, GAP_6X(0x3fffff), 22, 22, 28, 18, 0},
			{"ia32", 0xffffe000ULL, 0xffffe000ULL, 0x00400000ULL, 128ULL << 20, 11, 11,
			 8, 13, 0},
		},
	.mmap_base = mmap_base,
	.stack_top = randomize_stack_top,
	.align_stack = arch_align_stack,
	.exe_base = exe_base,
	.vdso_addr = 0,
	.at_random = get_random_bytes,
	.brk_base = brk_base,
	.randomize_brk = randomize_page,
	.brk_rounds_up = false,
	.stack_canary = canary_6x,
	.uts_release = "6.12.0-aslrbench",
	.vdso_vvar_below = true,
	.ptrace_group_is_self = true,
	.auxv_612 = true,
	/* linux/kernel/ptrace.c: same_thread_group(task, current) */ /* vdso-layout.lds.S: vvar_start = .
								   - 4 * PAGE_SIZE */
	.hz = 1000, /* 6.12 x86_64_defconfig:42 CONFIG_HZ_1000=y */
};
ASLR_RULES(linux_6_x);
