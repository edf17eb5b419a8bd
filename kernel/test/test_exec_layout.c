/*
 * exec under layouts the draws reach only rarely, built on purpose: a
 * dynamic glibc PIE (/bin/lx_glibc_dyn: two pages in its first PT_LOAD,
 * about 30 more above) mapped by exec_map_program with mmap_base drawn
 * right under the randomised stack, under the 2.6.29 rules.  There the
 * first PT_LOAD goes top-down below mmap_base or below the [stack], and the
 * later ones follow it upwards (2.6.29's load_elf_binary maps them
 * MAP_FIXED at load_bias + p_vaddr), into the stack's 8 MiB.  Linux 2.6.29
 * runs such an exec (its [stack] is the arg pages plus 20 pages and grows
 * on demand); so must this kernel, the [stack] ending at the segments.
 * About one exec in 130000 draws such a layout (paxtest's arg/env test,
 * some 1500 execs a run, met one as "Invalid argument").
 */
#include "boot/elf64.h"
#include "kernel/measure/policy.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

#define PROG		     "/bin/lx_glibc_dyn"
#define EXTRA_STACK_VM_PAGES 20

static char *ptrs[EXEC_PTRS_MAX];

/* Where mmap_base is put relative to the bottom of the stack's 8 MiB. */
static const struct {
	const char *what;
	int64_t pages;
} cases[] = {
	{"mmap_base inside the [stack] range (the exe goes below it)", 4},
	{"mmap_base one page under the [stack] range (the exe's top spills into it)", -1},
	{"mmap_base at the [stack] range's bottom", 0},
};

/* The regions are sorted and disjoint, the [stack] ends at stack_arg_top and holds sp. */
static const char *check_mm(struct mm_struct *mm, uint64_t entry, uint64_t sp)
{
	const struct vm_area *st = find_vma(mm, mm->stack_arg_top - 1);
	uint64_t need = (mm->arg_start & ~(PAGE_SIZE - 1)) - EXTRA_STACK_VM_PAGES * PAGE_SIZE;

	for (int i = 0; i + 1 < mm->nvmas; i++)
		if (mm->vmas[i].end > mm->vmas[i + 1].start)
			return "overlapping regions";
	if (!st || st->kind != VMA_STACK || st->end != mm->stack_arg_top || st->start > need)
		return "no [stack] from its first pages to stack_arg_top";
	if (sp < st->start || sp >= st->end)
		return "sp outside the [stack]";
	if (!find_vma(mm, entry) || !find_vma(mm, mm->exe_base + 0x2000))
		return "the interpreter's entry or the exe's text is not mapped";
	return 0;
}

static enum ktest_result one_case(struct ktest_ctx *t, const struct exec_ctx *c, int k)
{
	const struct aslr_rules *rules = aslr_rules_current();
	struct linux_binprm b = {c->req.prog.image,  c->req.prog.size,
				 c->req.filename,    c->req.argc,
				 c->req.envc,	     c->req.argv,
				 c->req.envp,	     current->signal->rlim_stack.cur,
				 c->req.prog.vm_ops, c->req.prog.vm_file};
	struct aslr_image img;
	struct elf_info ei;
	struct mm_struct *mm;
	uint64_t entry = 0, sp = 0;
	const char *bad;
	int rc;

	if ((rc = elf_check(b.image, b.size, b.filename, &ei)) || ei.type == ET_EXEC ||
	    !ei.interp_len)
		return ktest_fail(t, PROG " is not a dynamic PIE (%d)", rc);
	img = (struct aslr_image){ei.start, ei.end, ei.first_len, ei.align, false, true, false};
	if (!(mm = mm_create()))
		return ktest_fail(t, "mm_create");
	arch_pick_mmap_layout(mm, &img, exec_arg_bytes(&b), (uint32_t)current->tgid);
	/* the draws' layout, mmap_base moved next to the stack, the exe placed again */
	{
		const struct aslr_exec x = {aslr_current_profile(), 0, (uint32_t)current->tgid,
					    &img};

		mm->mmap_base = mm->stack_arg_top - STACK_VMA_SIZE + cases[k].pages * PAGE_SIZE;
		mm->exe_base = rules->exe_base(&x, mm);
		mm->brk_base = mm->start_brk = mm->brk = rules->brk_base(&x, mm);
	}
	rc = exec_map_program(mm, &c->req, &b, &ei, &entry, &sp);
	bad = rc ? "exec_map_program failed" : check_mm(mm, entry, sp);
	if (bad)
		ktest_fail(t,
			   "%s: %s (%d): stack_arg_top 0x%lx mmap_base 0x%lx exe 0x%lx-0x%lx "
			   "vdso 0x%lx",
			   cases[k].what, bad, rc, mm->stack_arg_top, mm->mmap_base, mm->exe_base,
			   mm->exe_base + ei.end, mm->vdso);
	mm_put(mm);
	return bad ? KTEST_FAIL : KTEST_PASS;
}

static enum ktest_result exec_pie_under_stack(struct ktest_ctx *t)
{
	struct policy want, saved;
	struct exec_ctx c;
	enum ktest_result r = KTEST_PASS;
	int rc;

	policy_current(&want);
	want.aslr_rules = ASLR_RULES_2629;
	want.aslr_ia32 = 0;
	want.randomize_va_space = 2;
	if (policy_select(&want, &saved))
		return ktest_fail(t, "cannot select the 2.6.29 rules");
	ptrs[0] = PROG;
	if ((rc = exec_prepare(PROG, ptrs, EXEC_PTRS_MAX, 1, 0, &c))) {
		policy_restore(&saved);
		return ktest_fail(t, "exec_prepare " PROG ": %d", rc);
	}
	for (int k = 0; k < (int)(sizeof(cases) / sizeof(cases[0])) && r == KTEST_PASS; k++)
		r = one_case(t, &c, k);
	exec_release(&c);
	policy_restore(&saved);
	return r;
}
KTEST(exec_pie_under_stack);
