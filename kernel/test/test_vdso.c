/*
 * The vDSO (kernel/mm/vdso.c, kernel/arch/vdso/): tests/linux/lx_vdso.c as
 * static musl and static glibc checks it from ring 3 (symbols, versions,
 * times against the system calls, maps, fork); here the kernel side: every
 * exec maps the same two physical pages at a fresh address that follows
 * vdso_addr()'s rule, and with randomize_va_space=0 the address is the one
 * get_unmapped_area gives, the same every time, as on 2.6.29 (the drawn
 * hint overlaps the stack there, see kernel/aslr/linux_2_6_29.c).
 */
#include "kernel/measure/policy.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vdso.h"
#include "kernel/mm/vmm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/task.h"
#include "kernel/test/ktest.h"

#define NR_EXECS 16
#define PMD	 (2ULL << 20)

static enum ktest_result run_ok(struct ktest_ctx *t, const char *prog)
{
	char *argv[] = {(char *)prog};
	int status = -1;
	long pid = spawn_prog(prog, 1, argv);

	if (pid < 0)
		return ktest_fail(t, "spawn %s: %ld", prog, pid);
	if (do_wait((int)pid, 0, &status, 0, 0) < 0 || status != W_EXITCODE(0))
		return ktest_fail(t, "%s: status 0x%x (see its FAIL lines above)", prog, status);
	return KTEST_PASS;
}

static enum ktest_result linux_vdso_musl(struct ktest_ctx *t)
{
	return run_ok(t, "lx_vdso_musl");
}
KTEST(linux_vdso_musl);

static enum ktest_result linux_vdso_glibc(struct ktest_ctx *t)
{
	return run_ok(t, "lx_vdso_glibc");
}
KTEST(linux_vdso_glibc);

struct vdso_seen {
	uint64_t vdso, hint, arg_top, mmap_base, text_pa, vvar_pa;
	bool vvar_below; /* 6.x's layout */
};

/*
 * The two regions where the rule set puts them: 2.6.29's one text page with
 * [vvar]'s page after it; 6.x's four [vvar] pages right below two of text.
 */
static bool vdso_regions_as_ruled(const struct mm_struct *mm, const struct vm_area *v,
				  const struct vm_area *vv)
{
	if (!vv || vv->kind != VMA_VVAR || vv->start != mm->vvar)
		return false;
	if (mm->vvar < mm->vdso)
		return vv->end == mm->vdso && mm->vdso - mm->vvar == 4 * PAGE_SIZE &&
		       v->end == mm->vdso + 2 * PAGE_SIZE;
	return v->end == mm->vdso + PAGE_SIZE && mm->vvar == v->end &&
	       vv->end == mm->vdso + VDSO_MAP_LEN;
}

/* exec's result, read before the child runs (nothing preempts us before do_wait). */
static long spawn_seen(struct ktest_ctx *t, struct vdso_seen *s)
{
	char *argv[] = {"t_nop"};
	long pid = spawn_prog("t_nop", 1, argv), bad = 0;
	struct task_struct *p;
	uint64_t fl = 0, fl2 = 0;
	int status;

	if (pid < 0) {
		ktest_fail(t, "spawn t_nop: %ld", pid);
		return pid;
	}
	p = find_task_by_pid((int)pid);
	if (!p || !p->mm) {
		bad = -ESRCH;
	} else {
		struct mm_struct *mm = p->mm;
		struct vm_area *v = find_vma(mm, mm->vdso), *vv = find_vma(mm, mm->vvar);

		*s = (struct vdso_seen){
			mm->vdso, mm->vdso_base,      mm->stack_arg_top, mm->mmap_base, 0,
			0,	  mm->vvar < mm->vdso};
		/* [vdso] r-x, [vvar] r--, user pages, never writable */
		if (!mm->vdso || !v || v->kind != VMA_VDSO || v->start != mm->vdso ||
		    !vdso_regions_as_ruled(mm, v, vv) || v->flags != (VM_READ | VM_EXEC) ||
		    vv->flags != VM_READ)
			bad = -EINVAL;
		else if (vmm_translate(mm->pml4, mm->vdso, &s->text_pa, &fl) ||
			 vmm_translate(mm->pml4, mm->vvar, &s->vvar_pa, &fl2) ||
			 (fl & (PTE_W | PTE_NX)) || !(fl & PTE_U) || (fl2 & PTE_W) ||
			 !(fl2 & PTE_NX) || !(fl2 & PTE_U))
			bad = -EFAULT;
	}
	if (do_wait((int)pid, 0, &status, 0, 0) < 0 && !bad)
		bad = -ECHILD;
	if (bad)
		ktest_fail(t, "exec: [vdso]/[vvar] regions or pages wrong (%ld) at 0x%lx", bad,
			   s->vdso);
	return bad;
}

/*
 * The text page still holds the image: no process wrote to the shared copy.
 * Its first page (the 6.x image may go on into a second: its section headers).
 */
static bool text_intact(uint64_t text_pa, bool vvar_below)
{
	uint64_t size;
	const void *img = vdso_image(vvar_below, &size);

	return !memcmp(phys_to_virt(text_pa), img, size < PAGE_SIZE ? size : PAGE_SIZE);
}

/* Where vdso_addr() may put it: [arg top, the PMD end capped at TASK_SIZE_MAX) */
static bool follows_rule(const struct vdso_seen *s)
{
	uint64_t cap = (s->arg_top + VDSO_MAP_LEN + PMD - 1) & ~(PMD - 1);

	if (cap > TASK_SIZE)
		cap = TASK_SIZE;
	if (s->vdso == s->hint) /* the drawn address was free */
		return s->vdso >= s->arg_top && s->vdso + VDSO_MAP_LEN <= cap;
	/* taken (the stack) or past TASK_SIZE: get_unmapped_area's top-down pick */
	return (s->hint < s->arg_top || s->hint + VDSO_MAP_LEN > TASK_SIZE) &&
	       s->vdso + VDSO_MAP_LEN <= s->mmap_base;
}

/* Every exec: a new address by the rule, the same two shared pages. */
static enum ktest_result linux_vdso_exec(struct ktest_ctx *t)
{
	static struct vdso_seen seen[NR_EXECS];
	int distinct = 0;

	for (int i = 0; i < NR_EXECS; i++) {
		if (spawn_seen(t, &seen[i]))
			return KTEST_FAIL;
		if (!follows_rule(&seen[i]))
			return ktest_fail(t,
					  "exec %d: vdso 0x%lx (drawn 0x%lx, arg top 0x%lx, "
					  "mmap_base 0x%lx) breaks vdso_addr's rule",
					  i, seen[i].vdso, seen[i].hint, seen[i].arg_top,
					  seen[i].mmap_base);
		if (seen[i].text_pa != seen[0].text_pa || seen[i].vvar_pa != seen[0].vvar_pa ||
		    !text_intact(seen[i].text_pa, seen[i].vvar_below))
			return ktest_fail(t, "exec %d: its own vDSO pages, not the shared ones", i);
		distinct++;
		for (int j = 0; j < i; j++)
			if (seen[j].vdso == seen[i].vdso) {
				distinct--;
				break;
			}
	}
	/* 512 offsets (fewer near a PMD end): 16 execs at one address means no draw */
	if (randomize_va_space && distinct < 2)
		return ktest_fail(t, "%d execs, %d vDSO address(es): not re-drawn", NR_EXECS,
				  distinct);
	kprintf("linux_vdso_exec: %d execs, %d distinct vDSO addresses\n", NR_EXECS, distinct);
	return KTEST_PASS;
}
KTEST(linux_vdso_exec);

/*
 * mprotect may make the vDSO writable (its VMA has VM_MAYWRITE in Linux):
 * the write copies the page, the shared one stays intact; [vvar] refuses
 * with EACCES (no VM_MAYWRITE).  lx_vdso cannot prove the first on the
 * host: Linux 6.15+ may seal the vDSO (mprotect fails there).
 */
static enum ktest_result linux_vdso_cow(struct ktest_ctx *t)
{
	char *argv[] = {"t_nop"};
	long pid = spawn_prog("t_nop", 1, argv);
	struct task_struct *p = pid > 0 ? find_task_by_pid((int)pid) : 0;
	enum ktest_result r = KTEST_PASS;
	uint64_t shared = 0, own = 0, fl;
	uint8_t byte = 0x5a;
	int status, rc;

	if (!p || !p->mm)
		return ktest_fail(t, "spawn t_nop: %ld", pid);
	{
		struct mm_struct *mm = p->mm;
		uint64_t va = mm->vdso;

		if (vmm_translate(mm->pml4, va, &shared, &fl))
			r = ktest_fail(t, "no vDSO page mapped at 0x%lx", va);
		else if ((rc = mm_mprotect(mm, mm->vvar, mm->vvar + PAGE_SIZE,
					   VM_READ | VM_WRITE)) != -EACCES)
			r = ktest_fail(t, "mprotect([vvar], RW): %d, want -EACCES", rc);
		else if ((rc = mm_mprotect(mm, va, va + PAGE_SIZE, VM_READ | VM_WRITE | VM_EXEC)))
			r = ktest_fail(t, "mprotect([vdso], RWX): %d, want 0", rc);
		else if ((rc = mm_put_user(mm, va + 9, &byte, 1)))
			r = ktest_fail(t, "write to the writable vDSO: %d", rc);
		else if (vmm_translate(mm->pml4, va, &own, &fl) || own == shared)
			r = ktest_fail(t, "the write did not copy the page (0x%lx)", own);
		else if (!text_intact(shared, mm->vvar < mm->vdso) ||
			 *((uint8_t *)phys_to_virt(own) + 9) != byte)
			r = ktest_fail(t,
				       "the shared vDSO page changed, or the copy lacks the write");
	}
	do_wait((int)pid, 0, &status, 0, 0);
	return r;
}
KTEST(linux_vdso_cow);

/* randomize_va_space=0, both rule sets: get_unmapped_area's address, every time. */
static enum ktest_result linux_vdso_norandom(struct ktest_ctx *t)
{
	struct policy want, saved;
	enum ktest_result r = KTEST_PASS;

	policy_current(&want);
	want.randomize_va_space = 0;
	policy_select(&want, &saved);
	for (int rules = 0; rules < ASLR_NR_RULES && r == KTEST_PASS; rules++) {
		struct vdso_seen a, b;

		want.aslr_rules = rules;
		policy_select(&want, 0);
		if (spawn_seen(t, &a) || spawn_seen(t, &b))
			r = KTEST_FAIL;
		else if (a.vdso != b.vdso || a.vdso == a.hint || !follows_rule(&a))
			r = ktest_fail(t,
				       "aslr_rules=%s: vdso 0x%lx then 0x%lx (drawn 0x%lx), want "
				       "one get_unmapped_area address below mmap_base 0x%lx",
				       aslr_rules_name(rules), a.vdso, b.vdso, a.hint, a.mmap_base);
		else
			kprintf("linux_vdso_norandom: aslr_rules=%s: t_nop's vdso at 0x%lx "
				"(drawn 0x%lx, mmap_base 0x%lx)\n",
				aslr_rules_name(rules), a.vdso, a.hint, a.mmap_base);
	}
	policy_restore(&saved);
	return r;
}
KTEST(linux_vdso_norandom);
