/*
 * mode=bench suite=aslr: the ASLR entropy each get_random_int() variant
 * gives each region of a process's layout.
 *
 * For every available variant and both profiles (x86_64, ia32) the suite
 * selects the variant, spawns N copies of t_nop (samples=N, default 1000),
 * reads each child's mm_struct right after do_spawn returns (the child has
 * not run yet: the kernel is not preemptible) and reaps it.  Then, per region
 * (see aslr_region_value for what is measured), one record
 *
 *   @@ {"type":"aslr","rng":..,"profile":..,"region":..,"samples":N,"distinct":D,
 *       "bits_changed":B,"entropy_bits":H,"expected_bits":E,"chi2_p":P,...}
 *
 * Definitions:
 *   distinct       number of distinct values among the N samples
 *   bits_changed   popcount of the OR over (value XOR first value): the bit
 *                  positions that ever differ from the first sample
 *   entropy_bits   plug-in Shannon estimate over the observed values,
 *                  -sum p log2 p with p = count / N, in fixed point (3
 *                  decimals, kernel/measure/aslr_stats.c).  It can never exceed
 *                  log2 N (9.966 for N = 1000): N samples cannot show more
 *                  than N values, so a 28-bit rule reads as ~log2 N; it
 *                  measures repeats, and is only an estimate of the rule's
 *                  entropy when 2^E is well below N.
 *   expected_bits  the bit width of the rule for that region and profile
 *                  under aslr_rules (kernel/aslr/): stack 20/11 on
 *                  2.6.29 (its 32-bit shift drops 2 of STACK_RND_MASK's 22
 *                  bits), 22/11 on 6.x (pages), stack_offset 9
 *                  (log2(8192/16)), mmap 28/8, exe 28/8 (2.6.29: the exe
 *                  sits below mmap_base and carries its draw), brk 13
 *                  (log2(32 MiB / 4 KiB); 6.x x86_64: 18, 1 GiB); the
 *                  nominal width, also when randomize_va_space turns the
 *                  rule off (then chi2_p shows the values are not uniform)
 *   chi2_p         p-value of Pearson's chi-square test of uniformity over
 *                  K equal bins of the rule's range: the draw is recovered
 *                  from the value as an index in [0, 2^E) (aslr_region_index)
 *                  and binned by its top log2 K bits, K the largest power of
 *                  two <= min(2^E, N/5) (so each bin expects >= 5), df = K-1.
 *                  The p-value is computed exactly by the odd-df series in
 *                  stats.c (no floating point, no normal approximation);
 *                  absolute error < 1e-6 for K <= 4096, < 2e-5 for K <= 65536.
 *                  Left out when N < 10 (K would be 1).
 * Extras: min, max (hex strings of the value), value (what was measured),
 * chi2 (the statistic), chi2_bins (K), out_of_range (values outside the
 * rule's range or misaligned: 0 unless the layout code is wrong),
 * randomize_va_space, secure, wall_ms (the N spawns of this variant and profile).
 */
#include "common/jrec.h"
#include "kernel/arch/timer.h"
#include "kernel/measure/aslr_stats.h"
#include "kernel/measure/aslr_suite.h"
#include "kernel/measure/policy.h"
#include "kernel/run/run.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/char/random.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"

#define ASLR_DEFAULT_SAMPLES 1000
#define ASLR_MAX_SAMPLES     100000 /* memory: 64 bytes a sample, plus scratch */
#define STACK_OFFSET_BITS    9	    /* 8192 / 16 */

const char *const aslr_region_names[ASLR_NR_REGIONS] = {"stack", "stack_offset", "mmap", "brk",
							"exe"};

static const char *const value_kinds[ASLR_NR_REGIONS] = {
	"stack_top", "arg_start_16-aligned_sp", "mmap_base", "start_brk-exe_end", "exe_base"};

void aslr_read_layout(const struct mm_struct *mm, uint64_t canary, struct aslr_layout *out)
{
	memset(out, 0, sizeof(*out));
	out->stack_top = mm->stack_top;
	out->stack_arg_top = mm->stack_arg_top;
	out->arg_start = mm->arg_start;
	out->stack_align_sp = mm->stack_align_sp;
	out->mmap_base = mm->mmap_base;
	out->start_brk = mm->start_brk;
	out->brk_base = mm->brk_base;
	out->exe_base = mm->exe_base;
	out->exe_in_mmap = mm->exe_in_mmap;
	for (int i = 0; i < mm->nvmas; i++)
		if (mm->vmas[i].kind == VMA_EXE && mm->vmas[i].end > out->exe_end)
			out->exe_end = mm->vmas[i].end;
	out->canary = canary;
}

long aslr_spawn_layout(const char *prog, struct aslr_layout *out)
{
	char *argv[] = {(char *)prog};
	struct task_struct *t;
	bool found;
	int status;
	long pid = spawn_prog(prog, 1, argv);

	if (pid < 0)
		return pid;
	/* The child has not run: nothing preempts the kernel before do_wait sleeps. */
	t = find_task_by_pid((int)pid);
	found = t && t->mm;
	if (found)
		aslr_read_layout(t->mm, t->stack_canary, out);
	if (do_wait((int)pid, 0, &status, 0, 0) < 0)
		return -ECHILD;
	return found ? 0 : -ESRCH;
}

uint64_t aslr_region_value(const struct aslr_layout *l, enum aslr_region r)
{
	switch (r) {
	case ASLR_STACK:
		return l->stack_top;
	case ASLR_STACK_OFFSET:
		/* the strings sit above arg_start: only what lies below them moves */
		return (l->arg_start & ~0xfULL) - l->stack_align_sp;
	case ASLR_MMAP:
		return l->mmap_base;
	case ASLR_BRK:
		return l->start_brk - l->brk_base;
	default:
		return l->exe_base;
	}
}

uint32_t aslr_region_bits(enum aslr_region r, const struct aslr_profile *p)
{
	switch (r) {
	case ASLR_STACK:
		return p->stack_rnd_bits;
	case ASLR_STACK_OFFSET:
		return STACK_OFFSET_BITS;
	case ASLR_BRK:
		return p->brk_bits;
	default:
		return p->mmap_rnd_bits;
	}
}

static uint64_t page_up(uint64_t v)
{
	return (v + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

/*
 * The stack offset and brk rules round up (sp &= ~15 after subtracting,
 * PAGE_ALIGN after adding), so they yield 2^bits + 1 values: 0 (from a draw
 * of exactly 0) and the full range (from the last unit's other draws) share
 * one unit's worth of draws.  (v/unit - 1) mod 2^bits maps both to the same
 * index and every index to exactly one unit of draws: uniform.
 */
static bool rounded_up_index(uint64_t off, uint64_t unit, uint32_t bits, uint64_t *idx)
{
	uint64_t n = 1ULL << bits;

	if (off % unit || off > n * unit)
		return false;
	*idx = (off / unit + n - 1) % n;
	return true;
}

bool aslr_region_index(const struct aslr_layout *l, enum aslr_region r,
		       const struct aslr_profile *p, uint64_t *idx)
{
	uint64_t n = 1ULL << aslr_region_bits(r, p), v = aslr_region_value(l, r), top;

	switch (r) {
	case ASLR_STACK:
		top = page_up(p->stack_top);
		if (v % PAGE_SIZE || v > top)
			return false;
		*idx = (top - v) / PAGE_SIZE;
		return *idx < n;
	case ASLR_STACK_OFFSET:
		return rounded_up_index(v, 16, STACK_OFFSET_BITS, idx);
	case ASLR_MMAP:
		top = aslr_mmap_top(p);
		if (v % PAGE_SIZE || v > top)
			return false;
		*idx = (top - v) / PAGE_SIZE;
		return *idx < n;
	case ASLR_BRK:
		if (l->start_brk < l->brk_base)
			return false;
		if (aslr_rules_current()->brk_rounds_up) /* randomize_range */
			return rounded_up_index(v, PAGE_SIZE, p->brk_bits, idx);
		*idx = v / PAGE_SIZE; /* randomize_page */
		return v % PAGE_SIZE == 0 && *idx < n;
	default:
		if (l->exe_in_mmap) { /* below mmap_base, carrying its draw */
			top = aslr_mmap_top(p);
			if (v % PAGE_SIZE || v >= l->mmap_base || l->mmap_base > top)
				return false;
			*idx = (top - l->mmap_base) / PAGE_SIZE;
			return *idx < n;
		}
		if (v % PAGE_SIZE || v < p->dyn_base)
			return false;
		*idx = (v - p->dyn_base) / PAGE_SIZE;
		return *idx < n;
	}
}

/* ---- the suite ---------------------------------------------------------- */

struct region_result {
	uint32_t distinct, bits_changed, expected, bins, out_of_range;
	int64_t entropy_m; /* thousandths of a bit */
	int64_t chi2_m;	   /* thousandths */
	int64_t chi2_p_m;  /* thousandths; -1 when not computed */
	uint64_t min, max;
};

static void *alloc_bytes(uint64_t bytes)
{
	uint64_t pa = pmm_alloc_pages((bytes + PAGE_SIZE - 1) / PAGE_SIZE);

	return pa ? phys_to_virt(pa) : 0;
}

static void free_bytes(void *p, uint64_t bytes)
{
	if (p)
		pmm_free_pages(virt_to_phys(p), (bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}

static void analyse(const struct aslr_layout *lay, uint32_t n, enum aslr_region r,
		    const struct aslr_profile *p, uint64_t *vals, uint32_t *bins,
		    struct region_result *res)
{
	uint32_t kbits = 0, in_range = 0;

	memset(res, 0, sizeof(*res));
	res->expected = aslr_region_bits(r, p);
	for (uint32_t i = 0; i < n; i++)
		vals[i] = aslr_region_value(&lay[i], r);
	res->bits_changed = aslr_bits_changed(vals, n);
	aslr_sort_u64(vals, n);
	res->distinct = aslr_distinct_sorted(vals, n);
	res->entropy_m = aslr_entropy_milli_sorted(vals, n);
	res->min = n ? vals[0] : 0;
	res->max = n ? vals[n - 1] : 0;

	/* K = the largest power of two <= min(2^E, N/5) */
	while (kbits < res->expected && (2ULL << kbits) <= n / 5)
		kbits++;
	res->bins = 1U << kbits;
	res->chi2_p_m = -1;
	memset(bins, 0, res->bins * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t idx;

		if (!aslr_region_index(&lay[i], r, p, &idx)) {
			res->out_of_range++;
			continue;
		}
		bins[idx >> (res->expected - kbits)]++;
		in_range++;
	}
	if (res->bins >= 2 && in_range) {
		uint64_t x = aslr_chi2_q32(bins, res->bins, in_range);
		uint64_t pv = aslr_chi2_sf_q62(x, res->bins - 1);

		res->chi2_m = (int64_t)(((unsigned __int128)x * 1000 + (1ULL << 31)) >> 32);
		res->chi2_p_m = (int64_t)(((unsigned __int128)pv * 1000 + (1ULL << 61)) >> 62);
	}
}

static void emit(const struct rng_variant *v, const struct aslr_profile *p, enum aslr_region r,
		 uint32_t n, const struct region_result *res, uint64_t wall_ms)
{
	char line[640], hex[24];
	struct jrec j;

	jrec_begin(&j, line, sizeof(line), "aslr");
	jrec_str(&j, "rng", v->name);
	jrec_str(&j, "profile", p->name);
	jrec_str(&j, "aslr_rules", aslr_rules_current()->name);
	jrec_str(&j, "region", aslr_region_names[r]);
	jrec_u64(&j, "samples", n);
	jrec_u64(&j, "distinct", res->distinct);
	jrec_u64(&j, "bits_changed", res->bits_changed);
	jrec_fixed(&j, "entropy_bits", res->entropy_m, 3);
	jrec_u64(&j, "expected_bits", res->expected);
	if (res->chi2_p_m >= 0) {
		jrec_fixed(&j, "chi2_p", res->chi2_p_m, 3);
		jrec_fixed(&j, "chi2", res->chi2_m, 3);
	}
	jrec_u64(&j, "chi2_bins", res->bins);
	jrec_str(&j, "value", value_kinds[r]);
	ksnprintf(hex, sizeof(hex), "0x%lx", res->min);
	jrec_str(&j, "min", hex);
	ksnprintf(hex, sizeof(hex), "0x%lx", res->max);
	jrec_str(&j, "max", hex);
	jrec_u64(&j, "out_of_range", res->out_of_range);
	jrec_u64(&j, "randomize_va_space", (uint64_t)randomize_va_space);
	jrec_bool(&j, "secure", v->secure);
	jrec_u64(&j, "wall_ms", wall_ms);
	console_puts(jrec_end(&j));
}

static void print_row(const struct rng_variant *v, const struct aslr_profile *p, enum aslr_region r,
		      const struct region_result *res)
{
	char pv[16] = "-";

	if (res->chi2_p_m >= 0)
		ksnprintf(pv, sizeof(pv), "%ld.%03ld", res->chi2_p_m / 1000, res->chi2_p_m % 1000);
	kprintf("  %-17s %-7s %-13s %8u %5u %3ld.%03ld %5u %7s  0x%-14lx 0x%lx%s\n", v->name,
		p->name, aslr_region_names[r], res->distinct, res->bits_changed,
		res->entropy_m / 1000, res->entropy_m % 1000, res->expected, pv, res->min, res->max,
		res->out_of_range ? "  OUT OF RANGE" : "");
}

void aslr_suite(unsigned *measured, unsigned *failed)
{
	uint32_t n = run_samples ? run_samples : ASLR_DEFAULT_SAMPLES;
	struct policy want, saved;
	struct aslr_layout *lay;
	uint64_t *vals, t_all = jiffies;
	uint32_t *bins;

	policy_current(&want);
	policy_select(&want, &saved);
	if (n > ASLR_MAX_SAMPLES) {
		kprintf("aslr: samples=%u is more than this suite keeps; using %u\n", n,
			ASLR_MAX_SAMPLES);
		n = ASLR_MAX_SAMPLES;
	}
	lay = alloc_bytes((uint64_t)n * sizeof(*lay));
	vals = alloc_bytes((uint64_t)n * sizeof(*vals));
	bins = alloc_bytes(((uint64_t)n / 5 + 1) * sizeof(*bins));
	if (!lay || !vals || !bins) {
		kprintf("aslr: no memory for %u samples\n", n);
		(*failed)++;
		goto out;
	}
	kprintf("\naslr: layout entropy per region, %u spawns of t_nop per variant and profile, "
		"randomize_va_space=%d\n",
		n, randomize_va_space);
	kprintf("  entropy: plug-in Shannon estimate, at most log2(samples); chi2_p: uniformity "
		"over the rule's range\n");
	kprintf("  %-17s %-7s %-13s %8s %5s %7s %5s %7s  %-16s %s\n", "rng", "profile", "region",
		"distinct", "bits", "entropy", "exp", "chi2_p", "min", "max");
	for (int vi = 0, step = 0; rng_variants[vi]; vi++) {
		const struct rng_variant *v = rng_variants[vi];

		if (!run_variant_chosen(vi))
			continue;
		kprintf("[%d/%d] aslr %s ...\n", ++step, run_variant_count(), v->name);
		want.rng = v;
		if (!v->available() || policy_select(&want, 0)) {
			kprintf("  %-17s unavailable on this CPU\n", v->name);
			continue;
		}
		for (int prof = 0; prof < 2; prof++) {
			const struct aslr_profile *p = aslr_profile_by_index(prof);
			uint64_t t0 = jiffies, wall_ms;
			uint32_t got = 0, bad = 0;

			want.aslr_ia32 = prof;
			policy_select(&want, 0);
			for (; got < n; got++) {
				long rc = aslr_spawn_layout("t_nop", &lay[got]);

				if (rc) {
					kprintf("  %-17s %-7s spawn %u failed: %ld\n", v->name,
						p->name, got, rc);
					break;
				}
			}
			wall_ms = (jiffies - t0) * 1000 / timer_hz();
			if (got < n) {
				(*failed)++;
				continue;
			}
			for (int r = 0; r < ASLR_NR_REGIONS; r++) {
				struct region_result res;

				analyse(lay, n, (enum aslr_region)r, p, vals, bins, &res);
				emit(v, p, (enum aslr_region)r, n, &res, wall_ms);
				print_row(v, p, (enum aslr_region)r, &res);
				bad += res.out_of_range != 0;
			}
			if (bad)
				(*failed)++;
			else
				(*measured)++;
			kprintf("  %-17s %-7s %u spawns in %lu ms (%lu us each)\n", v->name,
				p->name, n, wall_ms, wall_ms * 1000 / n);
		}
	}
	kprintf("aslr: suite took %lu ms\n", (jiffies - t_all) * 1000 / timer_hz());
out:
	policy_restore(&saved);
	free_bytes(lay, (uint64_t)n * sizeof(*lay));
	free_bytes(vals, (uint64_t)n * sizeof(*vals));
	free_bytes(bins, ((uint64_t)n / 5 + 1) * sizeof(*bins));
}
