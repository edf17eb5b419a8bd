/*
 * mode=bench in the kernel: bench/'s timer and rng suites with interrupts
 * really off, then the two suites only a kernel with processes can run:
 *
 *   fork   cycles per fork+exit+wait, measured by a ring-3 program (b_fork)
 *          around the system calls as a user would see them, with each RNG
 *          variant supplying the child's canary; the kernel times that one
 *          get_random_int() call inside fork, so rng_share_pct is measured,
 *          not estimated from the rng suite.  Its records break each
 *          fork+exit+wait down (mm's running totals, struct mm_cost, read at
 *          every fork's canary draw: one fork to the next is one whole
 *          cycle): page-table pages copied and the cycles spent copying and
 *          freeing page tables, pages copied on write and their cycles, the
 *          RNG's cycles, and the rest; and apart from those, the cycles the
 *          big kernel lock was held, the serial part of the cycle.
 *   spawn  cycles per spawn+exit+wait of an empty program (ASLR draws five
 *          numbers from the variant per spawn).
 *   aslr   layout entropy per region per variant (kernel/measure/aslr_suite.c).
 *   scale  every variant from 1 .. N CPUs at once: calls per second, and per
 *          call the lock acquisitions and shared cache-line writes
 *          (kernel/measure/scale.c).
 *
 * The user program hands its raw samples to the kernel (bench_submit), which
 * computes the statistics with the same code as every other suite.
 */
#include "common/cpu.h"
#include "bench/harness.h"
#include "common/jrec.h"
#include "bench/platform.h"
#include "bench/stats.h"
#include "common/tsc.h"
#include "bench/suites.h"
#include "kernel/measure/aslr_suite.h"
#include "kernel/measure/job.h"
#include "kernel/measure/policy.h"
#include "kernel/measure/scale.h"
#include "kernel/run/run.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vmm.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/char/random.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"

#define PROC_ENSEMBLES 5
#define PROC_SAMPLES   40
#define MAX_PROC_N     (64 * 1024)

static uint32_t *fork_rng_samples;
static uint32_t fork_rng_count, fork_rng_cap;

/*
 * The cost breakdown: per fork+exit+wait cycle, the growth of mm_cost's
 * totals from one fork's canary draw to the next (so n forks give n - 1).
 */
enum { COST_PT_PAGES, COST_PT_CYCLES, COST_PAGES_COPIED, COST_COPY_CYCLES, COST_LOCKED, NR_COST };
static uint32_t *fork_cost_samples[NR_COST];
static struct mm_cost fork_cost_prev;
static uint64_t fork_locked_prev;

static uint32_t cost_delta(uint64_t now, uint64_t before)
{
	return now - before > 0xffffffffu ? 0xffffffffu : (uint32_t)(now - before);
}

/* fork's hook: one sample per fork; unhooked when full, so later forks run untimed. */
static void fork_rng_sample(uint32_t cycles)
{
	struct mm_cost now = mm_cost;
	struct kernel_lock_stat ls;
	uint64_t locked;

	/* this CPU's: the measuring program and its children run on it alone */
	kernel_lock_stat_read(smp_processor_id(), &ls);
	locked = ls.held_cycles;

	if (fork_rng_count) {
		uint32_t i = fork_rng_count - 1;

		fork_cost_samples[COST_PT_PAGES][i] =
			cost_delta(now.pt_pages, fork_cost_prev.pt_pages);
		fork_cost_samples[COST_PT_CYCLES][i] =
			cost_delta(now.pt_cycles, fork_cost_prev.pt_cycles);
		fork_cost_samples[COST_PAGES_COPIED][i] =
			cost_delta(now.pages_copied, fork_cost_prev.pages_copied);
		fork_cost_samples[COST_COPY_CYCLES][i] =
			cost_delta(now.copy_cycles, fork_cost_prev.copy_cycles);
		fork_cost_samples[COST_LOCKED][i] = cost_delta(locked, fork_locked_prev);
	}
	fork_cost_prev = now;
	fork_locked_prev = locked;
	fork_rng_samples[fork_rng_count++] = cycles;
	if (fork_rng_count >= fork_rng_cap) {
		fork_rng_sample_hook = 0;
		mm_cost_timing = false;
		kernel_lock_timing = false;
	}
}

/* Median in milli (the mean of the two middle ones when n is even); sorts s. */
static int64_t median_m(uint32_t *s, uint32_t n)
{
	if (!n)
		return 0;
	stats_sort_u32(s, n);
	if (n % 2)
		return (int64_t)s[n / 2] * 1000;
	return ((int64_t)s[n / 2 - 1] + s[n / 2]) * 500;
}

/* Samples submitted by the running b_fork/b_spawn: [0] overhead, [1] timed. */
static uint32_t *submitted[2];
static uint32_t submitted_n[2], submit_cap;

static struct bench_run run;
static struct bench_config cfg;

extern const char __kernel_start[], __kernel_end[];

long sys_bench_submit(const struct syscall_args *a)
{
	uint64_t kind = a->a0, n = a->a2;

	if (!submit_cap || current->parent != find_task_by_pid(1))
		return -EPERM;
	if (kind > 1 || n > submit_cap)
		return -EINVAL;
	if (copy_from_user(submitted[kind], a->a1, n * sizeof(uint32_t)))
		return -EFAULT;
	submitted_n[kind] = (uint32_t)n;
	return 0;
}

static uint32_t *alloc_u32(uint64_t n)
{
	uint64_t pa = pmm_alloc_pages((n * 4 + PAGE_SIZE - 1) / PAGE_SIZE);

	return pa ? phys_to_virt(pa) : 0;
}

static void free_u32(uint32_t *p, uint64_t n)
{
	if (p)
		pmm_free_pages(virt_to_phys(p), (n * 4 + PAGE_SIZE - 1) / PAGE_SIZE);
}

static uint32_t min_of(const uint32_t *s, uint32_t n)
{
	uint32_t m = 0xffffffffu;

	for (uint32_t i = 0; i < n; i++)
		if (s[i] < m)
			m = s[i];
	return n ? m : 0;
}

/* Statistics of `n` samples in E ensembles, overhead already subtracted. */
static int stats_of(uint32_t *s, uint32_t e, uint32_t per, uint32_t overhead,
		    struct bench_result *res)
{
	uint64_t work[2 * PROC_ENSEMBLES];

	memset(res, 0, sizeof(*res));
	res->ensembles = e;
	res->samples = per;
	res->overhead = overhead;
	res->per = 1;
	res->serialise = cfg.serialise;
	res->irqs_off = false;
	res->clamped = bench_subtract(s, (uint64_t)e * per, overhead);
	return stats_compute(s, e, per, work, &res->st);
}

/* Runs the measuring program; 0 when it exited cleanly and submitted everything. */
static int run_measurer(const char *prog, const char *target, uint32_t n)
{
	char e[12], s[12];
	char *argv[] = {(char *)prog, (char *)bench_serialise_name(cfg.serialise), e, s,
			(char *)target};
	int status = -1;
	struct task_struct *p;
	long pid;

	ksnprintf(e, sizeof(e), "%u", PROC_ENSEMBLES);
	ksnprintf(s, sizeof(s), "%u", n / PROC_ENSEMBLES);
	submitted_n[0] = submitted_n[1] = 0;
	pid = spawn_prog(prog, target ? 5 : 4, argv);
	/*
	 * On the boot CPU alone, with its children (they inherit the mask): a
	 * fork's cost is one CPU's, and under -icount the instructions another
	 * CPU ran meanwhile would count in it.
	 */
	if (pid > 0 && (p = find_task_by_pid((int)pid)))
		set_cpus_allowed(p, 1);
	if (pid < 0 || do_wait((int)pid, 0, &status, 0, 0) < 0)
		return -1;
	return (status == 0 && submitted_n[0] == n && submitted_n[1] == n) ? 0 : -1;
}

/* The floor of fork's probe (LFENCE;RDTSC ... RDTSCP;LFENCE), interrupts off. */
static uint32_t lfence_floor(void)
{
	uint32_t m = 0xffffffffu;
	uint64_t flags = bench_irq_save();

	for (int i = 0; i < 1000; i++) {
		uint64_t t0 = tsc_start_lfence(), t1 = tsc_stop_lfence();

		if (t1 - t0 < m)
			m = (uint32_t)(t1 - t0);
	}
	bench_irq_restore(flags);
	return m;
}

/* RNG share of fork per variant (milli-percent), for the summary screen. */
static int64_t fork_share_m[BENCH_RUN_ROWS];

static void proc_suite(const char *suite, const char *prog, const char *target, const char *metric)
{
	uint32_t n = PROC_ENSEMBLES * PROC_SAMPLES;
	struct policy want, saved;
	struct bench_result res, rres;

	kprintf("\n%s: cycles per %s+exit+wait, %u x %u samples, measured in ring 3\n", suite,
		suite, PROC_ENSEMBLES, PROC_SAMPLES);
	kprintf("  %-18s %12s %12s %14s %8s", "rng", "median", "p99", "rng in it", "share");
	if (!strcmp(suite, "fork"))
		kprintf(" %9s %9s %7s %9s %9s %9s", "pt pages", "pt", "copied", "copy", "rest",
			"locked");
	kprintf("\n");
	policy_current(&want);
	/*
	 * fork: the measuring program gets one fixed layout, whatever the
	 * variant (randomize_va_space=0 for its exec), so that the variants'
	 * forks differ by their RNG alone.  With a random layout the page
	 * tables fork copies vary from one exec to the next (5 or 6 pages of
	 * b_proc's, about 11,000 instructions each: the pt columns), which
	 * would swamp every generator but urandom-2.6.29.  The canary is drawn
	 * at every fork all the same (dup_task_struct does not look at
	 * randomize_va_space).
	 */
	if (!strcmp(suite, "fork"))
		want.randomize_va_space = 0;
	policy_select(&want, &saved);
	for (int i = 0, step = 0; rng_variants[i]; i++) {
		const struct rng_variant *v = rng_variants[i];
		char line[BENCH_REC_SIZE], share_txt[24] = "-", rng_txt[24] = "-",
					   cost_txt[80] = "";
		int64_t cost_m[NR_COST], rest_m;
		struct jrec r;
		int64_t share_m = 0;

		if (!run_variant_chosen(i))
			continue;
		kprintf("[%d/%d] %s %s ...\n", ++step, run_variant_count(), suite, v->name);
		want.rng = v;
		if (!v->available() || policy_select(&want, 0))
			continue;
		fork_rng_count = 0;
		fork_rng_cap = !strcmp(suite, "fork") ? n : 0;
		fork_rng_sample_hook = fork_rng_cap ? fork_rng_sample : 0;
		mm_cost_timing = fork_rng_cap != 0;
		kernel_lock_timing = fork_rng_cap != 0;
		if (run_measurer(prog, target, n) ||
		    stats_of(submitted[1], PROC_ENSEMBLES, PROC_SAMPLES,
			     min_of(submitted[0], submitted_n[0]), &res)) {
			kprintf("  %-18s not measured (the measuring program failed)\n", v->name);
			run.failed++;
			continue;
		}
		bench_record_begin(&r, line, sizeof(line), &res, suite, v->name, metric, "cycles");
		jrec_bool(&r, "secure", v->secure); /* as the rng suite's records */
		if (fork_rng_cap && fork_rng_count == n &&
		    !stats_of(fork_rng_samples, PROC_ENSEMBLES, PROC_SAMPLES, lfence_floor(),
			      &rres)) {
			share_m = res.st.median_m ? rres.st.median_m * 100000 / res.st.median_m : 0;
			fork_share_m[i] = share_m;
			bench_jrec_milli(&r, "rng_share_pct", (unsigned __int128)share_m);
			bench_jrec_milli(&r, "rng_cycles_median",
					 (unsigned __int128)rres.st.median_m);
			for (int k = 0; k < NR_COST; k++)
				cost_m[k] = median_m(fork_cost_samples[k], n - 1);
			rest_m = res.st.median_m - rres.st.median_m - cost_m[COST_PT_CYCLES] -
				 cost_m[COST_COPY_CYCLES];
			jrec_fixed(&r, "pt_pages_median", cost_m[COST_PT_PAGES], 3);
			jrec_fixed(&r, "pt_cycles_median", cost_m[COST_PT_CYCLES], 3);
			jrec_fixed(&r, "pages_copied_median", cost_m[COST_PAGES_COPIED], 3);
			jrec_fixed(&r, "copy_cycles_median", cost_m[COST_COPY_CYCLES], 3);
			jrec_fixed(&r, "rest_cycles_median", rest_m, 3);
			jrec_fixed(&r, "locked_cycles_median", cost_m[COST_LOCKED], 3);
			ksnprintf(cost_txt, sizeof(cost_txt), " %9ld %9ld %7ld %9ld %9ld %9ld",
				  cost_m[COST_PT_PAGES] / 1000, cost_m[COST_PT_CYCLES] / 1000,
				  cost_m[COST_PAGES_COPIED] / 1000, cost_m[COST_COPY_CYCLES] / 1000,
				  rest_m / 1000, cost_m[COST_LOCKED] / 1000);
		}
		bench_record_emit(&r);
		run.measured++;
		if (share_m) {
			ksnprintf(share_txt, sizeof(share_txt), "%ld.%02ld%%", share_m / 1000,
				  (share_m % 1000) / 10);
			ksnprintf(rng_txt, sizeof(rng_txt), "%ld", rres.st.median_m / 1000);
		}
		kprintf("  %-18s %12ld %12u %14s %8s%s\n", v->name, res.st.median_m / 1000,
			res.st.p99, rng_txt, share_txt, cost_txt);
	}
	fork_rng_cap = 0;
	fork_rng_sample_hook = 0;
	mm_cost_timing = false;
	kernel_lock_timing = false;
	policy_restore(&saved);
}

/* The headline table on the screen, in the registry's order of variants. */
static void summary_screen(bool emulated)
{
	const char *names[BENCH_RUN_ROWS];
	unsigned n = 0;

	for (; rng_variants[n] && n < BENCH_RUN_ROWS; n++)
		names[n] = rng_variants[n]->name;
	bench_summary_screen(&run, names, fork_share_m, n, emulated);
}

static bool want(const char *suite)
{
	return run_suite_chosen(suite);
}

void job_bench(void)
{
	/* variants=: the chosen ones, in the registry's order */
	static const struct rng_variant *chosen[BENCH_RUN_ROWS + 1];
	uint32_t n = PROC_ENSEMBLES * PROC_SAMPLES;
	struct bench_cpu cpu;
	unsigned nchosen = 0;
	char err[200];

	if (run_suite_check("timer|rng|fork|spawn|aslr|scale", err, sizeof(err))) {
		kprintf("aslrbench: bad command line: %s\n", err);
		machine_exit(EXIT_CMDLINE);
	}
	for (int i = 0; rng_variants[i] && nchosen < BENCH_RUN_ROWS; i++)
		if (run_variant_chosen(i))
			chosen[nchosen++] = rng_variants[i];
	chosen[nchosen] = NULL;
	bench_cpu_detect(&cpu);
	bench_config_init(&cfg, &cpu);
	cfg.irqs_off = true;
	if (run_samples)
		cfg.samples = run_samples;
	if (run_ensembles)
		cfg.ensembles = run_ensembles;
	cfg.flush[0].lo = __kernel_start;
	cfg.flush[0].hi = __kernel_end;
	cfg.nflush = 1;
	bench_run_init(&run);
	kprintf("bench: serialisation %s, %u ensembles x %u samples, interrupts off while "
		"timing\n",
		bench_serialise_name(cfg.serialise), cfg.ensembles, cfg.samples);
	/* The floor is needed by every later suite, so it always runs. */
	bench_suite_timer(&cfg, &run);
	if (want("rng"))
		bench_suite_rng(&cfg, chosen, "rng: get_random_int() per variant", &run);
	submit_cap = n;
	submitted[0] = alloc_u32(n);
	submitted[1] = alloc_u32(n);
	fork_rng_samples = alloc_u32(n);
	bool have = submitted[0] && submitted[1] && fork_rng_samples;

	for (int k = 0; k < NR_COST; k++)
		have = (fork_cost_samples[k] = alloc_u32(n)) && have;
	if (!have) {
		kprintf("bench: no memory for the process suites\n");
		run.failed++;
	} else {
		if (want("fork"))
			proc_suite("fork", "b_proc", "fork", "cycles_per_fork");
		if (want("spawn"))
			proc_suite("spawn", "b_proc", "spawn", "cycles_per_spawn");
	}
	submit_cap = 0;
	free_u32(submitted[0], n);
	free_u32(submitted[1], n);
	free_u32(fork_rng_samples, n);
	fork_rng_samples = 0;
	for (int k = 0; k < NR_COST; k++) {
		free_u32(fork_cost_samples[k], n);
		fork_cost_samples[k] = 0;
	}
	if (want("aslr"))
		aslr_suite(&run.measured, &run.failed);
	if (want("scale"))
		scale_suite(&run.measured, &run.failed);
	bench_emit_summary(&run, run.failed ? 1 : 0);
	summary_screen(cpu.hypervisor && !random_boot_seed.len);
	machine_exit(run.failed ? EXIT_FAILED : EXIT_OK);
}
