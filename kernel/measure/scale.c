/*
 * mode=bench suite=scale: get_random_int() from k CPUs at once, k = 1 .. N.
 *
 * Why: the RNG designs of the story differ most where CPUs meet.  2.6.29's
 * urandom path takes the pools' spinlocks and writes the same pool lines
 * from every CPU; 2.6.30's and 3.x's hashes and 6.x's crngs and batches are
 * per CPU.  On real silicon that difference is cache-line traffic, which
 * an emulator does not model, so the suite measures two things:
 *
 *   rate       every CPU of the k calls its variant's get_u32() in a loop
 *              for the same window of TSC time, interrupts off: calls per
 *              second over all k (SCALE_REPS windows, their median in the
 *              table).  On a real PC this curve is the headline; under an
 *              emulator it mostly measures the host.
 *   lockstep   the k CPUs take turns, one call each, SCALE_TURNS rounds,
 *              and each call is measured alone: its cycles (instructions
 *              under --deterministic), the spinlock acquisitions it made,
 *              and which cache lines of rng/'s state it wrote, found by
 *              comparing that state with a copy after every call.  From
 *              the lines: shared_line_writes (writes to lines that another
 *              CPU also wrote during the run) and line_transfers (writes to
 *              a line whose last writer was another CPU: on real hardware,
 *              each one moves the line between caches).  Turns are the
 *              finest interleaving of the k CPUs, the same on every run,
 *              so these figures predict the contention, deterministically.
 *
 *   ring3      one process per CPU for the first k, each pinned to its CPU,
 *              draws 64 values a system call (rng_draw, from b_scale) in
 *              a loop; the draws each CPU made in SCALE_REPS windows of
 *              SCALE_WINDOW_MS give calls per second over all k.  The
 *              call runs without the big kernel lock (syscall.c), so the
 *              draws meet only the locks each Linux had (rng/); the
 *              record's kernel_lock_acquisitions_per_call, per value, is
 *              0 but for what the suite's own CPU takes meanwhile.
 *   fork, exec the same processes fork and wait for a child that exits at
 *              once (or that execs t_nop, which exits), with the variant
 *              behind the kernel's get_random_int() (the child's canary,
 *              its ASLR draws at exec): forks or execs per second over all
 *              k.  "What does it cost fork?" from k CPUs at once.  Every
 *              fork and exec system call runs under the big kernel lock,
 *              so on any number of CPUs these curves measure that lock
 *              first; the records give its acquisitions per fork, and the
 *              page faults per fork resolved without it (demand-zero and
 *              copy-on-write in a process's own address space, mm.c).
 *
 * A write that stores the value already there is not seen by comparison
 * (real hardware still takes the line); Linux's per-CPU data lives in
 * separate per-CPU areas, which rng/ models by giving each CPU's slot its
 * own cache lines.  Only the variants' state is watched: the kernel's own
 * bookkeeping around get_random_int() is not part of what Linux did.
 */
#include "bench/harness.h"
#include "bench/stats.h"
#include "common/jrec.h"
#include "common/tsc.h"
#include "bench/platform.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/traps.h"
#include "kernel/arch/tsc.h"
#include "kernel/arch/timer.h"
#include "kernel/char/random.h"
#include "kernel/measure/policy.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/measure/scale.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/run/run.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/task/task.h"
#include "rng/rng.h"
#include "rng/spinlock.h"

#define SCALE_REPS	5
#define SCALE_WINDOW_MS 20
#define SCALE_TURNS	64 /* calls per CPU in the lockstep run */
#define LINE		64
#define LINES_PER_CALL	64 /* lines one call may write and still be listed */
#define SCALE_WAIT_S	10 /* an AP that takes longer has failed */
#define NO_WRITER	0xff

extern char __rng_data_start[], __rng_data_end[], __rng_bss_start[], __rng_bss_end[];

/* ---- the watched state ---------------------------------------------------- */
static struct {
	const char *start;
	size_t lines;
} ranges[2];
static size_t nlines;
static uint8_t *shadow;	     /* the state after the last call, line for line */
static uint8_t *last_writer; /* per line: the CPU that wrote it last */
static uint64_t *writers;    /* per line: the CPUs that wrote it this run, a bit each */
static uint32_t *writes;     /* per line: writes this run */
static uint16_t *call_lines; /* per call: the lines it wrote (LINES_PER_CALL each) */
static uint32_t *call_nlines, *call_cycles, *call_locks, *call_shared, *call_transfers;
static uint32_t *sample; /* scratch for one metric's per-call samples */
static uint64_t *work;
static size_t npages_total;

static const char *line_addr(size_t l)
{
	return l < ranges[0].lines ? ranges[0].start + l * LINE
				   : ranges[1].start + (l - ranges[0].lines) * LINE;
}

static void shadow_sync(void)
{
	for (size_t l = 0; l < nlines; l++)
		memcpy(shadow + l * LINE, line_addr(l), LINE);
}

/* The lines call `idx` on `cpu` wrote: listed, counted, the copy brought up to date. */
static void note_writes(uint32_t idx, unsigned int cpu)
{
	uint32_t n = 0;

	for (size_t l = 0; l < nlines; l++) {
		const char *p = line_addr(l);

		if (!memcmp(shadow + l * LINE, p, LINE))
			continue;
		memcpy(shadow + l * LINE, p, LINE);
		if (n < LINES_PER_CALL)
			call_lines[(size_t)idx * LINES_PER_CALL + n] = (uint16_t)l;
		n++;
		writers[l] |= 1ULL << cpu;
		writes[l]++;
	}
	call_nlines[idx] = n;
}

/* ---- the work each CPU runs ------------------------------------------------- */
static const struct rng_variant *sv;
static unsigned int sk; /* CPUs in this run */
static uint64_t t_start, t_end, t_wait;
static uint32_t turn;
static bool aborted;

static struct scale_slot {
	uint64_t calls;
	struct rng_lock_stat locks;
} __attribute__((aligned(LINE))) slots[NR_CPUS];

static void lock_delta(unsigned int cpu, const struct rng_lock_stat *before,
		       struct rng_lock_stat *out)
{
	struct rng_lock_stat now;

	rng_lock_stat_read(cpu, &now);
	out->acquired = now.acquired - before->acquired;
	out->contended = now.contended - before->contended;
}

static void rate_loop(void *arg)
{
	struct scale_slot *s = arg;
	unsigned int cpu = smp_processor_id();
	struct rng_lock_stat before;
	uint64_t n = 0;

	rng_lock_stat_read(cpu, &before);
	while (rdtsc() < t_start)
		cpu_relax();
	while (rdtsc() < t_end) {
		for (int i = 0; i < 16; i++)
			(void)sv->get_u32();
		n += 16;
	}
	s->calls = n;
	lock_delta(cpu, &before, &s->locks);
}

static bool wait_turn(uint32_t want)
{
	uint64_t start = rdtsc();

	while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != want) {
		if (__atomic_load_n(&aborted, __ATOMIC_RELAXED) || rdtsc() - start > t_wait) {
			__atomic_store_n(&aborted, true, __ATOMIC_RELAXED);
			return false;
		}
		cpu_relax();
	}
	return true;
}

static void lockstep_loop(void *arg)
{
	unsigned int cpu = smp_processor_id();

	(void)arg;
	for (uint32_t r = 0; r < SCALE_TURNS; r++) {
		uint32_t idx = r * sk + cpu;
		struct rng_lock_stat before, d;
		uint64_t t0, t1;

		if (!wait_turn(idx))
			return;
		rng_lock_stat_read(cpu, &before);
		t0 = tsc_start_lfence();
		(void)sv->get_u32();
		t1 = tsc_stop_lfence();
		lock_delta(cpu, &before, &d);
		call_cycles[idx] = (uint32_t)(t1 - t0 > 0xffffffffu ? 0xffffffffu : t1 - t0);
		call_locks[idx] = (uint32_t)d.acquired;
		note_writes(idx, cpu);
		__atomic_store_n(&turn, idx + 1, __ATOMIC_RELEASE);
	}
}

/*
 * fn on CPUs 1..k-1 and then on this one, interrupts off; false if an AP
 * failed.  This CPU runs its part without the big kernel lock: an AP that
 * spins for it with interrupts off (a task of its in a system call) would
 * otherwise never take the call.
 */
static bool run_on_cpus(unsigned int k, smp_call_func_t fn, bool per_slot)
{
	uint64_t flags;
	bool ok = true, held;

	for (unsigned int c = 1; c < k; c++)
		if (smp_call_function_single(c, fn, per_slot ? &slots[c] : 0)) {
			kprintf("scale: CPU %u is busy or offline\n", c);
			__atomic_store_n(&aborted, true, __ATOMIC_RELAXED);
			k = c;
			ok = false;
			break;
		}
	held = release_kernel_lock();
	flags = irq_save();
	fn(per_slot ? &slots[0] : 0);
	irq_restore(flags);
	reacquire_kernel_lock(held);
	for (unsigned int c = 1; c < k; c++)
		if (!smp_call_wait(c, tsc_hz() * SCALE_WAIT_S)) {
			kprintf("scale: CPU %u did not finish in %u s\n", c, SCALE_WAIT_S);
			ok = false;
		}
	return ok && !aborted;
}

/* ---- records ----------------------------------------------------------------- */
static void sort_u64(uint64_t *a, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && a[j - 1] > a[j]; j--) {
			uint64_t t = a[j];

			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

/*
 * What the SCALE_REPS windows of one rate did in all: calls, and the locks
 * they met (the RNG's in the kernel loop, the big kernel lock's from ring 3:
 * acquisitions, cycles held, faults resolved without it).
 */
struct rate_counts {
	uint64_t calls, acq, contended, held, faults;
};

static int64_t per_call_m(uint64_t n, uint64_t calls)
{
	return calls ? (int64_t)((unsigned __int128)n * 1000 / calls) : 0;
}

/* metric (calls_per_sec, ...) over the SCALE_REPS windows: sorted in place; returns the median */
static uint64_t emit_rate(unsigned int k, uint64_t *rate, const struct rate_counts *c,
			  const char *mode, const char *metric, const char *unit)
{
	bool ring3 = !strcmp(mode, "ring3");
	char buf[BENCH_REC_SIZE];
	unsigned __int128 sum = 0, sumsq = 0;
	uint64_t mean;
	struct jrec r;

	sort_u64(rate, SCALE_REPS);
	for (unsigned int i = 0; i < SCALE_REPS; i++) {
		sum += rate[i];
		sumsq += (unsigned __int128)rate[i] * rate[i];
	}
	mean = (uint64_t)(sum / SCALE_REPS);
	jrec_begin(&r, buf, sizeof(buf), "bench");
	jrec_str(&r, "suite", "scale");
	jrec_str(&r, "rng", sv->name);
	jrec_str(&r, "metric", metric);
	jrec_str(&r, "unit", unit);
	jrec_u64(&r, "cpus", k);
	jrec_u64(&r, "min", rate[0]);
	jrec_u64(&r, "median", rate[SCALE_REPS / 2]);
	jrec_u64(&r, "mean", mean);
	jrec_u64(&r, "p99", rate[SCALE_REPS - 1]);
	jrec_u64(&r, "max", rate[SCALE_REPS - 1]);
	bench_jrec_milli(&r, "var",
			 stats_var_m(SCALE_REPS, sum, sumsq)); /* as every bench record */
	jrec_u64(&r, "ensembles", 1);
	jrec_u64(&r, "samples", SCALE_REPS);
	jrec_u64(&r, "window_ms", SCALE_WINDOW_MS);
	jrec_u64(&r, "calls", c->calls);
	jrec_str(&r, "mode", mode);
	if (ring3) { /* the RNG's own locks are the kernel loop's; these are the kernel's */
		jrec_fixed(&r, "kernel_lock_acquisitions_per_call", per_call_m(c->acq, c->calls),
			   3);
		jrec_fixed(&r, "kernel_lock_held_cycles_per_call", per_call_m(c->held, c->calls),
			   3);
		jrec_fixed(&r, "faults_unlocked_per_call", per_call_m(c->faults, c->calls), 3);
	} else {
		jrec_fixed(&r, "lock_acquisitions_per_call", per_call_m(c->acq, c->calls), 3);
		jrec_fixed(&r, "lock_contended_per_call", per_call_m(c->contended, c->calls), 3);
	}
	jrec_bool(&r, "irqs_off", !ring3);
	bench_emit(jrec_end(&r));
	return rate[SCALE_REPS / 2];
}

/*
 * One lockstep metric over its per-call samples; returns the mean in
 * thousandths, and the median in *median_m when asked.
 */
static int64_t emit_per_call(unsigned int k, const char *metric, const char *unit,
			     const uint32_t *s, uint32_t n, int64_t *median_m)
{
	struct bench_result res;
	char buf[BENCH_REC_SIZE];
	struct jrec r;

	memset(&res, 0, sizeof(res));
	memcpy(sample, s, n * sizeof(uint32_t));
	if (stats_compute(sample, 1, n, work, &res.st))
		return -1;
	res.ensembles = 1;
	res.samples = n;
	res.per = 1;
	res.irqs_off = true;
	bench_record_begin(&r, buf, sizeof(buf), &res, "scale", sv->name, metric, unit);
	jrec_u64(&r, "cpus", k);
	jrec_str(&r, "mode", "lockstep");
	jrec_fixed(&r, "mean_exact", res.st.mean_m, 3);
	bench_record_emit(&r);
	if (median_m)
		*median_m = res.st.median_m;
	return res.st.mean_m;
}

/* ---- one variant ------------------------------------------------------------- */
/* What the ring-3 processes do: b_scale's argument, the record's metric and unit. */
enum ring3_work { RING3_DRAW, RING3_FORK, RING3_EXEC, RING3_NR };
static const struct {
	const char *arg, *metric, *unit, *title;
} ring3_works[RING3_NR] = {
	{0, "calls_per_sec", "calls/s",
	 "the same from ring 3, one process per CPU (rng_draw, 64 values a call; thousands)"},
	{"fork", "forks_per_sec", "forks/s",
	 "fork+exit+wait per second from ring 3, one process per CPU (the big lock's curve)"},
	{"exec", "execs_per_sec", "execs/s",
	 "fork+exec+exit+wait per second from ring 3, one process per CPU (the same)"},
};

struct scale_row {
	uint64_t rate[NR_CPUS];		   /* median calls/s per k, the kernel loop */
	uint64_t ring3[RING3_NR][NR_CPUS]; /* from ring 3: draws, forks, execs per second */
	int64_t cycles_m[2];		   /* median, k = 1 and k = N (the same with one CPU) */
	int64_t locks_m, shared_m, transfers_m, lines_m;
};

static bool measure_rate(unsigned int k, struct scale_row *row)
{
	uint64_t window = tsc_hz() / 1000 * SCALE_WINDOW_MS, rate[SCALE_REPS];
	struct rate_counts n = {0, 0, 0, 0, 0};

	for (unsigned int rep = 0; rep < SCALE_REPS; rep++) {
		uint64_t total = 0;

		sk = k;
		aborted = false;
		t_start = rdtsc() + tsc_hz() / 500; /* 2 ms for the IPIs to land */
		t_end = t_start + window;
		if (!run_on_cpus(k, rate_loop, true))
			return false;
		for (unsigned int c = 0; c < k; c++) {
			total += slots[c].calls;
			n.acq += slots[c].locks.acquired;
			n.contended += slots[c].locks.contended;
		}
		n.calls += total;
		rate[rep] = (uint64_t)((unsigned __int128)total * tsc_hz() / window);
	}
	row->rate[k - 1] = emit_rate(k, rate, &n, "rate", "calls_per_sec", "calls/s");
	return true;
}

static bool measure_lockstep(unsigned int k, struct scale_row *row)
{
	uint32_t n = SCALE_TURNS * k, *shared = call_shared, *transfers = call_transfers;

	memset(last_writer, NO_WRITER, nlines);
	memset(writers, 0, nlines * sizeof(*writers));
	memset(writes, 0, nlines * sizeof(*writes));
	shadow_sync();
	sk = k;
	turn = 0;
	aborted = false;
	if (!run_on_cpus(k, lockstep_loop, false))
		return false;
	/* in call order: who wrote each line last decides a transfer */
	for (uint32_t i = 0; i < n; i++) {
		unsigned int cpu = i % k;
		uint32_t m = call_nlines[i] < LINES_PER_CALL ? call_nlines[i] : LINES_PER_CALL;

		shared[i] = transfers[i] = 0;
		for (uint32_t j = 0; j < m; j++) {
			uint16_t l = call_lines[(size_t)i * LINES_PER_CALL + j];

			if (writers[l] & ~(1ULL << cpu))
				shared[i]++;
			if (last_writer[l] != NO_WRITER && last_writer[l] != cpu)
				transfers[i]++;
			last_writer[l] = (uint8_t)cpu;
		}
	}
	emit_per_call(k, "cycles_per_call", "cycles", call_cycles, n, &row->cycles_m[1]);
	if (k == 1)
		row->cycles_m[0] = row->cycles_m[1]; /* [1] ends as the last k's: N */
	row->locks_m =
		emit_per_call(k, "lock_acquisitions_per_call", "acquisitions", call_locks, n, 0);
	row->shared_m = emit_per_call(k, "shared_line_writes_per_call", "lines", shared, n, 0);
	row->transfers_m = emit_per_call(k, "line_transfers_per_call", "lines", transfers, n, 0);
	row->lines_m = emit_per_call(k, "lines_written_per_call", "lines", call_nlines, n, 0);
	return true;
}

/* ---- ring 3 ------------------------------------------------------------------ */
#define RNG_DRAW_MAX 64

/*
 * The variant rng_draw draws from: set only while the ring-3 run lasts.
 * Armed first, while the processes start: they wait (EAGAIN) instead of
 * drawing, so the ones already running do not keep the kernel lock busy
 * while the suite starts the rest.
 */
static const struct rng_variant *ring3_variant;
static bool ring3_armed;
static struct {
	uint64_t draws;
} __attribute__((aligned(LINE))) ring3_draws[NR_CPUS];

/*
 * rng_draw(n, out): n (1..64) values of the variant the scale suite
 * measures, into out; EAGAIN until the run starts, EPERM when no scale run
 * is under way.  It runs without the big kernel lock (syscall.c), so k
 * processes drawing on k CPUs meet only the variant's own locks; only a
 * copy-out that must populate a page takes it.
 */
long sys_rng_draw(const struct syscall_args *a)
{
	const struct rng_variant *v = __atomic_load_n(&ring3_variant, __ATOMIC_ACQUIRE);
	uint32_t val[RNG_DRAW_MAX];
	uint64_t n = a->a0;

	if (!v)
		return __atomic_load_n(&ring3_armed, __ATOMIC_RELAXED) ? -EAGAIN : -EPERM;
	if (!n || n > RNG_DRAW_MAX)
		return -EINVAL;
	if (!access_ok(a->a1, n * sizeof(uint32_t)))
		return -EFAULT;
	for (uint64_t i = 0; i < n; i++)
		val[i] = v->get_u32();
	__atomic_add_fetch(&ring3_draws[smp_processor_id()].draws, n, __ATOMIC_RELAXED);
	return syscall_copy_to_user(a->a1, val, n * sizeof(uint32_t)) ? -EFAULT : (long)n;
}

static uint64_t ring3_total(unsigned int k)
{
	uint64_t n = 0;

	for (unsigned int c = 0; c < k; c++)
		n += __atomic_load_n(&ring3_draws[c].draws, __ATOMIC_RELAXED);
	return n;
}

/* The big kernel lock's figures, summed over the first k CPUs. */
static struct kernel_lock_stat kernel_lock_total(unsigned int k)
{
	struct kernel_lock_stat sum = {0, 0, 0}, s;

	for (unsigned int c = 0; c < k; c++) {
		kernel_lock_stat_read(c, &s);
		sum.acquired += s.acquired;
		sum.held_cycles += s.held_cycles;
	}
	return sum;
}

/*
 * The children the b_scale processes had when SIGKILL came (a fork work's
 * child, an exec work's t_nop) are orphans, reparented to init, which the
 * job runs as: reaped here, or every run left a few zombies, and on four
 * CPUs the fifth variant of a full mode=bench found the task table full
 * (b_scale did not start: -EAGAIN).  Bounded, as ring3_stop is.
 */
static void reap_orphans(void)
{
	uint64_t until = jiffies + (uint64_t)SCALE_WAIT_S * timer_hz();
	int status;
	long r;

	while ((r = do_wait(-1, WNOHANG, &status, 0, 0)) >= 0) {
		if (r > 0)
			continue; /* one reaped: look again at once */
		if (jiffies >= until) {
			kprintf("scale: init still has children %u s after the b_scale processes\n",
				SCALE_WAIT_S);
			return;
		}
		sleep_until(jiffies + 1, (const void *)reap_orphans);
	}
}

/*
 * Kills and reaps the b_scale processes, then their orphans.  A process
 * that is not gone within SCALE_WAIT_S is reported with what the scheduler
 * knows of it (and left to init), rather than waited for forever.
 */
static void ring3_stop(struct task_struct **p, const long *pid, unsigned int n)
{
	for (unsigned int c = 0; c < n; c++) {
		uint64_t until = jiffies + (uint64_t)SCALE_WAIT_S * timer_hz();
		int status;
		long r;

		send_sig(SIGKILL, p[c]);
		while ((r = do_wait((int)pid[c], WNOHANG, &status, 0, 0)) == 0 && jiffies < until)
			sleep_until(jiffies + 1, (const void *)ring3_stop);
		if (r == 0)
			kprintf("scale: b_scale %ld not gone %u s after SIGKILL: state %d, on CPU "
				"%u "
				"(%d), queued %d on %u, wchan %p\n",
				pid[c], SCALE_WAIT_S, p[c]->state, p[c]->cpu, p[c]->on_cpu,
				p[c]->on_rq, p[c]->rq_cpu, p[c]->wchan);
	}
	reap_orphans();
}

/* k pinned b_scale processes running; false (reported) when they could not be started */
static bool ring3_start(unsigned int k, struct task_struct **p, long *pid, enum ring3_work w)
{
	char *argv[] = {"b_scale", (char *)ring3_works[w].arg};
	uint64_t until = jiffies + 5ULL * timer_hz();
	bool all = false;

	for (unsigned int c = 0; c < k; c++) {
		pid[c] = spawn_prog("b_scale", argv[1] ? 2 : 1, argv);
		p[c] = pid[c] > 0 ? find_task_by_pid((int)pid[c]) : 0;
		if (!p[c] || set_cpus_allowed(p[c], 1ULL << c)) {
			kprintf("scale: b_scale for CPU %u did not start (%ld)\n", c, pid[c]);
			ring3_stop(p, pid, p[c] ? c + 1 : c);
			return false;
		}
	}
	ring3_variant = sv;
	while (!all && jiffies < until) {
		sleep_until(jiffies + 1, (const void *)ring3_start);
		all = true;
		for (unsigned int c = 0; c < k; c++)
			all = all && __atomic_load_n(&ring3_draws[c].draws, __ATOMIC_RELAXED);
	}
	if (!all) {
		kprintf("scale: the b_scale processes did not all draw within 5 s (k=%u); none on "
			"CPU",
			k);
		for (unsigned int c = 0; c < k; c++)
			if (!__atomic_load_n(&ring3_draws[c].draws, __ATOMIC_RELAXED))
				kprintf(" %u (pid %ld, %s, on CPU %u: %d)", c, pid[c],
					p[c]->state == TASK_RUNNING ? "runnable" : "not runnable",
					p[c]->cpu, p[c]->on_cpu);
		kprintf("\n");
		ring3_stop(p, pid, k);
	}
	return all;
}

/*
 * Not under seed= (--deterministic): QEMU's -icount runs the vCPUs round
 * robin, so the rates are flat by construction, and a CPU that waits for
 * the big kernel lock (test-and-set, not fair) can find it held at every
 * one of its turns by the process another CPU runs in a system-call loop.
 */
static bool ring3_measurable(void)
{
	return random_boot_seed.len == 0;
}

/* What work w has done so far: values drawn, or tasks forked (only b_scale forks meanwhile). */
static uint64_t ring3_done(unsigned int k, enum ring3_work w)
{
	return w == RING3_DRAW ? ring3_total(k) : __atomic_load_n(&total_forks, __ATOMIC_RELAXED);
}

static bool measure_ring3(unsigned int k, struct scale_row *row, enum ring3_work w)
{
	struct task_struct *p[NR_CPUS];
	long pid[NR_CPUS];
	uint64_t rate[SCALE_REPS];
	struct rate_counts n = {0, 0, 0, 0, 0};

	memset(ring3_draws, 0, sizeof(ring3_draws));
	ring3_armed = true;
	if (!ring3_start(k, p, pid, w)) {
		ring3_variant = 0;
		ring3_armed = false;
		return false;
	}
	/* the held cycles: the part of a call no other CPU can overlap */
	kernel_lock_timing = true;
	for (unsigned int rep = 0; rep < SCALE_REPS; rep++) {
		uint64_t n0 = ring3_done(k, w), t0 = rdtsc(), n1, t1;
		uint64_t f0 = user_faults_unlocked(k);
		struct kernel_lock_stat l0 = kernel_lock_total(k), l1;

		sleep_until(jiffies + (uint64_t)SCALE_WINDOW_MS * timer_hz() / 1000 + 1,
			    (const void *)measure_ring3);
		n1 = ring3_done(k, w);
		t1 = rdtsc();
		l1 = kernel_lock_total(k);
		n.acq += l1.acquired - l0.acquired;
		n.held += l1.held_cycles - l0.held_cycles;
		n.faults += user_faults_unlocked(k) - f0;
		n.calls += n1 - n0;
		rate[rep] =
			t1 > t0 ? (uint64_t)((unsigned __int128)(n1 - n0) * tsc_hz() / (t1 - t0))
				: 0;
	}
	kernel_lock_timing = false;
	ring3_stop(p, pid, k);
	ring3_variant = 0;
	ring3_armed = false;
	row->ring3[w][k - 1] =
		emit_rate(k, rate, &n, "ring3", ring3_works[w].metric, ring3_works[w].unit);
	return true;
}

/* Every ring-3 rate with k CPUs; fork and exec with sv behind the kernel's get_random_int(). */
static bool measure_ring3_all(unsigned int k, struct scale_row *row)
{
	struct policy want, saved;
	bool ok;

	if (!measure_ring3(k, row, RING3_DRAW))
		return false;
	policy_current(&want);
	want.rng = sv;
	if (policy_select(&want, &saved)) {
		kprintf("scale: %s cannot be the kernel's variant for fork\n", sv->name);
		return false;
	}
	ok = measure_ring3(k, row, RING3_FORK) && measure_ring3(k, row, RING3_EXEC);
	policy_restore(&saved);
	return ok;
}

/* ---- the suite --------------------------------------------------------------- */
/* The next n bytes of the suite's one allocation, 8-byte aligned. */
static void *take(uint8_t *m, size_t *off, size_t n)
{
	void *p;

	*off = (*off + 7) & ~(size_t)7;
	p = m + *off;
	*off += n;
	return p;
}

static bool alloc_state(unsigned int ncpus)
{
	size_t calls = (size_t)SCALE_TURNS * ncpus, bytes, off = 0;
	uint64_t pa;
	uint8_t *m;

	ranges[0].start = __rng_data_start;
	ranges[0].lines = (size_t)(__rng_data_end - __rng_data_start) / LINE;
	ranges[1].start = __rng_bss_start;
	ranges[1].lines = (size_t)(__rng_bss_end - __rng_bss_start) / LINE;
	nlines = ranges[0].lines + ranges[1].lines;
	if (nlines > 0xffff)
		return false;
	bytes = nlines * (LINE + 1 + 8 + 4) + calls * (LINES_PER_CALL * 2 + 6 * 4) +
		2 * sizeof(uint64_t) + 64 * 8;
	npages_total = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	pa = pmm_alloc_pages(npages_total);
	if (!pa)
		return false;
	m = phys_to_virt(pa);
	shadow = take(m, &off, nlines * LINE);
	writers = take(m, &off, nlines * sizeof(*writers));
	writes = take(m, &off, nlines * sizeof(*writes));
	last_writer = take(m, &off, nlines);
	call_lines = take(m, &off, calls * LINES_PER_CALL * sizeof(*call_lines));
	call_nlines = take(m, &off, calls * sizeof(uint32_t));
	call_cycles = take(m, &off, calls * sizeof(uint32_t));
	call_locks = take(m, &off, calls * sizeof(uint32_t));
	call_shared = take(m, &off, calls * sizeof(uint32_t));
	call_transfers = take(m, &off, calls * sizeof(uint32_t));
	sample = take(m, &off, calls * sizeof(uint32_t));
	work = take(m, &off, 2 * sizeof(uint64_t));
	if (off > npages_total * PAGE_SIZE) { /* the sum above is short: a bug, not a user's */
		pmm_free_pages(pa, npages_total);
		return false;
	}
	return true;
}

static void print_tables(const struct scale_row *rows, const struct rng_variant *const *vs,
			 unsigned int nv, unsigned int ncpus)
{
	kprintf("== scale: get_random_int() calls per second, k CPUs at once "
		"(median of %u windows of %u ms; thousands)\n",
		SCALE_REPS, SCALE_WINDOW_MS);
	kprintf("%-18s", "rng");
	for (unsigned int k = 1; k <= ncpus; k++)
		kprintf(" %9s%u", "k=", k);
	kprintf("\n");
	for (unsigned int i = 0; i < nv; i++) {
		kprintf("%-18s", vs[i]->name);
		for (unsigned int k = 0; k < ncpus; k++)
			kprintf(" %10lu", rows[i].rate[k] / 1000);
		kprintf("\n");
	}
	if (!ring3_measurable())
		kprintf("== scale: from ring 3 (draws, fork, exec): not measured under seed= (the "
			"deterministic clock)\n");
	for (int w = 0; w < RING3_NR && ring3_measurable(); w++) {
		kprintf("== scale: %s\n", ring3_works[w].title);
		for (unsigned int i = 0; i < nv; i++) {
			kprintf("%-18s", vs[i]->name);
			for (unsigned int k = 0; k < ncpus; k++)
				kprintf(" %10lu", w == RING3_DRAW ? rows[i].ring3[w][k] / 1000
								  : rows[i].ring3[w][k]);
			kprintf("\n");
		}
	}
	kprintf("== scale: per call, %u CPU%s taking turns (cycles: median, instructions under "
		"--deterministic; the rest: means)\n",
		ncpus, ncpus == 1 ? "" : "s");
	kprintf("%-18s %10s %10s %8s %8s %9s %8s\n", "rng", "cyc k=1", "cyc k=N", "locks", "lines",
		"shared", "moved");
	for (unsigned int i = 0; i < nv; i++)
		kprintf("%-18s %10ld %10ld %8ld.%03ld %4ld.%03ld %5ld.%03ld %4ld.%03ld\n",
			vs[i]->name, rows[i].cycles_m[0] / 1000, rows[i].cycles_m[1] / 1000,
			rows[i].locks_m / 1000, rows[i].locks_m % 1000, rows[i].lines_m / 1000,
			rows[i].lines_m % 1000, rows[i].shared_m / 1000, rows[i].shared_m % 1000,
			rows[i].transfers_m / 1000, rows[i].transfers_m % 1000);
}

void scale_suite(unsigned int *measured, unsigned int *failed)
{
	static const struct rng_variant *vs[RNG_NR_VARIANTS];
	static struct scale_row rows[RNG_NR_VARIANTS];
	unsigned int ncpus = smp_cpus_online < NR_CPUS ? smp_cpus_online : NR_CPUS, nv = 0;
	int slots_before;

	if (!alloc_state(ncpus)) {
		kprintf("scale: no memory for the suite\n");
		(*failed)++;
		return;
	}
	t_wait = tsc_hz() * SCALE_WAIT_S;
	slots_before = nr_tasks_in_use();
	kprintf("scale: %u CPUs online; %zu cache lines of RNG state watched\n", ncpus, nlines);
	for (int i = 0; rng_variants[i] && nv < RNG_NR_VARIANTS; i++) {
		const struct rng_variant *v = rng_variants[i];
		struct scale_row *row = &rows[nv];
		bool ok = true;

		if (!run_variant_chosen(i) || !v->available())
			continue;
		memset(row, 0, sizeof(*row));
		sv = v;
		kprintf("[scale] %s ...\n", v->name);
		for (unsigned int k = 1; k <= ncpus && ok; k++)
			ok = measure_rate(k, row) && measure_lockstep(k, row) &&
			     (!ring3_measurable() || measure_ring3_all(k, row));
		if (!ok) {
			kprintf("scale: %s not measured on every CPU\n", v->name);
			(*failed)++;
			continue;
		}
		vs[nv++] = v;
		(*measured)++;
	}
	print_tables(rows, vs, nv, ncpus);
	pmm_free_pages(virt_to_phys(shadow), npages_total);
	/* Every process the suite made is gone (tests/qemu/checks.sh compares the two). */
	kprintf("scale: task slots in use: %d before the suite, %d after\n", slots_before,
		nr_tasks_in_use());
}
