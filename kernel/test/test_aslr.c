/*
 * ASLR tests: spawn real programs and check the layouts the kernel built
 * (the children's mm_structs, read right after do_spawn returns, before the
 * child runs) against the rules of kernel/aslr/.
 *
 * Every test switches the policy (variant, randomize_va_space, profile,
 * rule set) with policy_select() and puts it back with policy_restore(),
 * and (aslr_ipid_collision) restores the rng platform.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/measure/aslr_stats.h"
#include "kernel/measure/aslr_suite.h"
#include "kernel/measure/policy.h"
#include "kernel/run/run.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/char/random.h"
#include "rng/variants.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

#define MAX_SPAWNS 1000

static struct aslr_layout lays[MAX_SPAWNS];
static uint64_t vals[MAX_SPAWNS];

/*
 * The current policy with rng (NULL: the current variant), randomize_va_space
 * and the profile (-1: the current one); the old policy in *saved.
 */
static int select_policy(struct policy *saved, const struct rng_variant *rng, int rva, int ia32)
{
	struct policy want;

	policy_current(&want);
	if (rng)
		want.rng = rng;
	want.randomize_va_space = rva;
	if (ia32 >= 0)
		want.aslr_ia32 = ia32;
	return policy_select(&want, saved);
}

/* Switches the rule set and profile inside a test that selected its policy. */
static void select_layout(int rules, int ia32)
{
	struct policy want;

	policy_current(&want);
	want.aslr_rules = rules;
	want.aslr_ia32 = ia32;
	policy_select(&want, 0);
}

static enum ktest_result restore(const struct policy *s, enum ktest_result r)
{
	policy_restore(s);
	return r;
}

/* Spawns t_nop n times into lays[]; 0 or the first error. */
static long spawn_n(uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		long rc = aslr_spawn_layout("t_nop", &lays[i]);

		if (rc)
			return rc;
	}
	return 0;
}

static uint32_t distinct_of(uint32_t n, enum aslr_region r)
{
	for (uint32_t i = 0; i < n; i++)
		vals[i] = aslr_region_value(&lays[i], r);
	aslr_sort_u64(vals, n);
	return aslr_distinct_sorted(vals, n);
}

static uint64_t page_up(uint64_t v)
{
	return (v + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

/* randomize_va_space=0: the same layout every time, and the unrandomised one. */
static enum ktest_result aslr_off(struct ktest_ctx *t)
{
	const uint32_t n = 8;
	struct policy s;
	const struct aslr_profile *p;
	long rc;

	if (select_policy(&s, &rng_variant_chacha20_batched, 0, 0))
		return ktest_skip(t, "chacha20-batched unavailable");
	p = aslr_current_profile();
	rc = spawn_n(n);
	if (rc)
		return restore(&s, ktest_fail(t, "spawn: %ld", rc));
	for (uint32_t i = 0; i < n; i++) {
		const struct aslr_layout *l = &lays[i];

		for (int r = 0; r < ASLR_NR_REGIONS; r++)
			if (aslr_region_value(l, r) != aslr_region_value(&lays[0], r))
				return restore(
					&s,
					ktest_fail(t, "spawn %u: %s 0x%lx, spawn 0 had 0x%lx", i,
						   aslr_region_names[r], aslr_region_value(l, r),
						   aslr_region_value(&lays[0], r)));
		if (l->stack_top != page_up(p->stack_top) ||
		    l->stack_align_sp != (l->arg_start & ~0xfULL) ||
		    l->stack_arg_top != l->stack_top || l->mmap_base != aslr_mmap_top(p) ||
		    (l->exe_in_mmap ? !(l->exe_base < l->mmap_base && l->mmap_base <= l->exe_end)
				    : l->exe_base != p->dyn_base) ||
		    l->start_brk != l->brk_base)
			return restore(&s, ktest_fail(t,
						      "spawn %u: not the unrandomised layout "
						      "(stack 0x%lx mmap 0x%lx exe 0x%lx)",
						      i, l->stack_top, l->mmap_base, l->exe_base));
	}
	return restore(&s, KTEST_PASS);
}
KTEST(aslr_off);

/*
 * One layout against the rules (written out here, independently of the
 * suite's aslr_region_index).  The two rules that round up can reach the
 * end of their range: arch_align_stack's sp &= ~15 after sp -= rnd % 8192
 * gives offsets 0..8192 inclusive, randomize_range's PAGE_ALIGN gives brk
 * offsets 0..32 MiB inclusive (Linux's code does the same); 6.x's
 * randomize_page does not round up.  setup_arg_pages moves the [stack] end
 * down by at most two pages (PAGE_ALIGN of top - 0..8191, 16-byte aligned).
 * The strings t_nop's spawn copies (8-byte slot, "/bin/t_nop", "t_nop") sit
 * right under that end, the offset below them (arg_start rounded down to 16).
 */
#define T_NOP_ARG_BYTES (8 + sizeof("/bin/t_nop") + sizeof("t_nop"))

static const char *check_layout(const struct aslr_layout *l, const struct aslr_profile *p)
{
	uint64_t stop = page_up(p->stack_top), mtop = aslr_mmap_top(p);
	uint64_t off = (l->arg_start & ~0xfULL) - l->stack_align_sp;
	uint64_t brk_range = 1ULL << (p->brk_bits + PAGE_SHIFT);

	if (l->stack_top % PAGE_SIZE || l->stack_top > stop ||
	    l->stack_top <= stop - ((1ULL << p->stack_rnd_bits) << PAGE_SHIFT))
		return "stack top";
	if (l->stack_arg_top % PAGE_SIZE || l->stack_arg_top > l->stack_top ||
	    l->stack_top - l->stack_arg_top > 2 * PAGE_SIZE)
		return "arg pages top";
	if (l->arg_start != l->stack_arg_top - T_NOP_ARG_BYTES)
		return "argument strings";
	if (l->stack_align_sp > (l->arg_start & ~0xfULL) || off % 16 || off > ASLR_STACK_ALIGN)
		return "stack offset";
	if (l->mmap_base % PAGE_SIZE || l->mmap_base > mtop ||
	    l->mmap_base <= mtop - ((1ULL << p->mmap_rnd_bits) << PAGE_SHIFT))
		return "mmap base";
	if (l->start_brk % PAGE_SIZE || l->start_brk < l->brk_base ||
	    l->start_brk > l->brk_base + brk_range ||
	    (!aslr_rules_current()->brk_rounds_up && l->start_brk == l->brk_base + brk_range))
		return "brk";
	if (l->brk_base % PAGE_SIZE) /* the exe's end, or a 6.x loader's ELF_ET_DYN_BASE */
		return "brk base";
	if (l->exe_in_mmap) /* placed by mmap: top-down right below mmap_base (or the [stack]) */
		return l->exe_base % PAGE_SIZE == 0 &&
				       ((l->exe_base < l->mmap_base &&
					 l->mmap_base <= l->exe_end) ||
					(l->exe_base < l->stack_arg_top - STACK_VMA_SIZE &&
					 l->stack_arg_top - STACK_VMA_SIZE <= l->exe_end))
			       ? 0
			       : "exe base";
	if (l->exe_base % PAGE_SIZE || l->exe_base < p->dyn_base ||
	    l->exe_base >= p->dyn_base + ((1ULL << p->mmap_rnd_bits) << PAGE_SHIFT))
		return "exe base";
	return 0;
}

/* chacha20-batched, both profiles: every region moves and stays in its range. */
static enum ktest_result aslr_regions(struct ktest_ctx *t)
{
	const uint32_t n = 64;
	struct policy s;

	if (select_policy(&s, &rng_variant_chacha20_batched, 2, -1))
		return ktest_skip(t, "chacha20-batched unavailable");
	for (int k = 0; k < 2 * ASLR_NR_RULES; k++) { /* both profiles under both rule sets */
		int prof = k & 1;
		const struct aslr_profile *p;
		long rc;

		select_layout(k >> 1, prof);
		p = aslr_profile_by_index(prof);
		if ((rc = spawn_n(n)))
			return restore(&s, ktest_fail(t, "%s: spawn: %ld", p->name, rc));
		for (uint32_t i = 0; i < n; i++) {
			const char *bad = check_layout(&lays[i], p);

			if (bad)
				return restore(&s,
					       ktest_fail(t,
							  "%s spawn %u: %s out of range or "
							  "misaligned (stack 0x%lx sp 0x%lx "
							  "mmap 0x%lx brk 0x%lx exe 0x%lx)",
							  p->name, i, bad, lays[i].stack_top,
							  lays[i].stack_align_sp, lays[i].mmap_base,
							  lays[i].start_brk, lays[i].exe_base));
		}
		for (int r = 0; r < ASLR_NR_REGIONS; r++)
			if (distinct_of(n, r) < 2)
				return restore(&s,
					       ktest_fail(t, "%s: %s never changed in %u spawns",
							  p->name, aslr_region_names[r], n));
	}
	return restore(&s, KTEST_PASS);
}
KTEST(aslr_regions);

/*
 * The 2009 weakness: ipid-2.6.29 is a function of pid + jiffies alone (for
 * the 300 s key period), so two spawns that see equal pid + jiffies get the
 * same layout.  The pid is what the kernel's platform gives the variants
 * during do_spawn (the new task's own, as exec in Linux); jiffies is
 * injected so that pid + jiffies equals the chosen sum whatever that pid is
 * — two spawns with consecutive pids thus see jiffies j and j - 1.
 */
static bool inject_on;
static uint64_t injected_sum;

static uint32_t test_pid(void)
{
	return random_platform()->current_pid();
}

static uint64_t test_jiffies(void)
{
	return inject_on ? injected_sum - test_pid() : jiffies;
}

static uint64_t test_cycles(void)
{
	return rdtsc();
}

static struct rng_platform test_platform = {
	.current_pid = test_pid, .jiffies = test_jiffies, .get_cycles = test_cycles, .hz = 250};

static bool same_layout(const struct aslr_layout *a, const struct aslr_layout *b)
{
	return a->stack_top == b->stack_top && a->stack_arg_top == b->stack_arg_top &&
	       a->stack_align_sp == b->stack_align_sp && a->mmap_base == b->mmap_base &&
	       a->start_brk == b->start_brk && a->exe_base == b->exe_base;
}

/* Spawns with rng `name` at pid + jiffies == sum; lays[i]. */
static long spawn_at_sum(uint64_t sum, uint32_t i)
{
	injected_sum = sum;
	return aslr_spawn_layout("t_nop", &lays[i]);
}

static enum ktest_result aslr_ipid_collision(struct ktest_ctx *t)
{
	static const char *const names[] = {"ipid-2.6.29", "md4-2.6.30", "chacha20-batched"};
	struct policy s;
	enum ktest_result res = KTEST_PASS;
	uint64_t sum;

	if (select_policy(&s, 0, 2, 0))
		return ktest_fail(t, "policy_select");
	test_platform.hz = timer_hz();
	/*
	 * Pids stay below 32768, so every injected jiffies value (sum - pid) lies
	 * ahead of now and never wraps, and within the key period as long as the
	 * test runs in the first ~160 s after the key was drawn.
	 */
	sum = jiffies + 32768;
	rng_set_platform(&test_platform);
	inject_on = true;
	for (unsigned v = 0; v < 3 && res == KTEST_PASS; v++) {
		bool weak = v == 0;
		long rc;

		struct policy want;

		policy_current(&want);
		want.rng = rng_find(names[v]);
		if (policy_select(&want, 0)) {
			res = ktest_fail(t, "%s unavailable", names[v]);
			break;
		}
		/* #0 and #1 at the same pid + jiffies; #2 one jiffy later (control) */
		if ((rc = spawn_at_sum(sum, 0)) || (rc = spawn_at_sum(sum, 1)) ||
		    (rc = spawn_at_sum(sum + 1, 2))) {
			res = ktest_fail(t, "%s: spawn: %ld", names[v], rc);
			break;
		}
		if (weak && (!same_layout(&lays[0], &lays[1]) || lays[0].canary != lays[1].canary))
			res = ktest_fail(t,
					 "%s: equal pid+jiffies gave different layouts "
					 "(mmap 0x%lx vs 0x%lx)",
					 names[v], lays[0].mmap_base, lays[1].mmap_base);
		else if (weak && same_layout(&lays[0], &lays[2]))
			res = ktest_fail(t, "%s: pid+jiffies one apart gave the same layout",
					 names[v]);
		else if (!weak && (same_layout(&lays[0], &lays[1]) ||
				   lays[0].mmap_base == lays[1].mmap_base))
			res = ktest_fail(t,
					 "%s: equal pid+jiffies gave the same layout "
					 "(mmap 0x%lx)",
					 names[v], lays[0].mmap_base);
	}
	inject_on = false;
	rng_set_platform(random_platform());
	return restore(&s, res);
}
KTEST(aslr_ipid_collision);

static void sleep_ms(unsigned ms)
{
	sleep_until(jiffies + (uint64_t)ms * timer_hz() / 1000 + 1, (const void *)sleep_ms);
}

/* fork copies the parent's layout; only spawn re-randomises. */
static enum ktest_result aslr_fork_inherits(struct ktest_ctx *t)
{
	char *argv[] = {"t_layout"};
	struct aslr_layout pl, cl;
	struct task_struct *parent = 0, *child = 0;
	struct policy s;
	int status = -1;
	long pid;

	if (select_policy(&s, &rng_variant_chacha20_batched, 2, -1))
		return ktest_skip(t, "chacha20-batched unavailable");
	pid = spawn_prog("t_layout", 1, argv);
	if (pid < 0)
		return restore(&s, ktest_fail(t, "spawn t_layout: %ld", pid));
	parent = find_task_by_pid((int)pid);
	for (int tries = 0; tries < 15 && !child; tries++) {
		sleep_ms(10);
		for (int i = 0; i < NR_TASKS; i++)
			if (tasks[i].state != TASK_UNUSED && tasks[i].state != TASK_ZOMBIE &&
			    tasks[i].parent == parent && tasks[i].mm)
				child = &tasks[i];
	}
	if (child && parent && parent->mm) {
		aslr_read_layout(parent->mm, 0, &pl);
		aslr_read_layout(child->mm, 0, &cl);
	}
	do_wait((int)pid, 0, &status, 0, 0);
	if (!child)
		return restore(&s, ktest_fail(t, "t_layout's child never appeared"));
	if (status != W_EXITCODE(0))
		return restore(&s, ktest_fail(t, "t_layout: status 0x%x", status));
	if (!same_layout(&pl, &cl) || pl.exe_end != cl.exe_end)
		return restore(&s,
			       ktest_fail(t,
					  "child's layout differs: stack 0x%lx/0x%lx "
					  "mmap 0x%lx/0x%lx exe 0x%lx/0x%lx brk 0x%lx/0x%lx",
					  pl.stack_top, cl.stack_top, pl.mmap_base, cl.mmap_base,
					  pl.exe_base, cl.exe_base, pl.start_brk, cl.start_brk));
	return restore(&s, KTEST_PASS);
}
KTEST(aslr_fork_inherits);

/* The ia32 profile: mmap (and exe) bases take at most 2^8 page positions. */
static enum ktest_result aslr_ia32_bits(struct ktest_ctx *t)
{
	const uint32_t n = 300;
	const struct aslr_profile *p = aslr_profile_by_index(1);
	uint64_t top = aslr_mmap_top(p);
	struct policy s;
	uint32_t d;
	long rc;

	if (select_policy(&s, &rng_variant_chacha20_batched, 2, 1))
		return ktest_skip(t, "chacha20-batched unavailable");
	if ((rc = spawn_n(n)))
		return restore(&s, ktest_fail(t, "spawn: %ld", rc));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t m = lays[i].mmap_base, e = lays[i].exe_base;

		if (m % PAGE_SIZE || m > top || top - m >= (256ULL << PAGE_SHIFT))
			return restore(&s, ktest_fail(t, "mmap base 0x%lx outside [0x%lx, 0x%lx]",
						      m, top - ((uint64_t)255 << PAGE_SHIFT), top));
		if (p->dyn_base &&
		    (e % PAGE_SIZE || e < p->dyn_base || e - p->dyn_base >= (256ULL << PAGE_SHIFT)))
			return restore(&s, ktest_fail(t, "exe base 0x%lx outside 2^8 pages", e));
	}
	d = distinct_of(n, ASLR_MMAP);
	if (d > 256 || d < 128)
		return restore(&s, ktest_fail(t,
					      "%u distinct mmap bases in %u spawns, expected "
					      "128..256",
					      d, n));
	return restore(&s, KTEST_PASS);
}
KTEST(aslr_ia32_bits);

/*
 * 1000 spawns give >= 990 distinct mmap bases on x86_64 (28 bits of pages:
 * a repeat is rare) and <= 256 on ia32 (8 bits: at most 256 exist).
 */
static enum ktest_result aslr_distinct_1000(struct ktest_ctx *t)
{
	const uint32_t n = 1000;
	uint32_t d[2];
	uint64_t t0 = jiffies;
	struct policy s;
	long rc;

	if (select_policy(&s, &rng_variant_chacha20_batched, 2, -1))
		return ktest_skip(t, "chacha20-batched unavailable");
	for (int prof = 0; prof < 2; prof++) {
		select_layout(aslr_rules_current()->id, prof);
		if ((rc = spawn_n(n)))
			return restore(&s, ktest_fail(t, "spawn: %ld", rc));
		d[prof] = distinct_of(n, ASLR_MMAP);
	}
	kprintf("aslr_distinct_1000: %u distinct mmap bases on x86_64, %u on ia32, 2 x %u spawns "
		"in %lu ms\n",
		d[0], d[1], n, (jiffies - t0) * 1000 / timer_hz());
	if (d[0] < 990)
		return restore(&s, ktest_fail(t,
					      "x86_64: %u distinct mmap bases in %u spawns, "
					      "expected >= 990",
					      d[0], n));
	if (d[1] > 256)
		return restore(&s, ktest_fail(t,
					      "ia32: %u distinct mmap bases in %u spawns, "
					      "expected <= 256",
					      d[1], n));
	return restore(&s, KTEST_PASS);
}
KTEST(aslr_distinct_1000);
