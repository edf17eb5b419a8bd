/*
 * The attack lab: can an unprivileged local user learn where a root
 * daemon's stack, mmap area and executable are?
 *
 * Each trial spawns an attacker (the `lab_attacker` program as uid 1000, using only
 * system calls and /proc), then a victim (`lab_attacker victim`, root, freshly
 * randomised by its own spawn, then asleep in the kernel).  The attacker
 * hands its predictions to the kernel (__NR_aslrbench_lab, op SUBMIT) in
 * the order it would try them; the kernel compares them with the victim's
 * mm_struct, which the attacker never sees.  A region counts as found when
 * one of the attacker's guesses equals the truth; the guess's position is
 * what it cost.
 *
 * Strategies (see userland/src/lab_attacker.c for the attacker's side):
 *   proc-leak              stat's startstack / kstkeip (the patch's leak)
 *   pid-jiffies-collision  make a process whose pid + jiffies equals the
 *                          victim's within the key period, read its layout
 *   state-replay           predict the next layout from the latest one
 *                          observed (the kept-state variants' secret unknown)
 *   brute-force            one uniform guess per region; mean_guesses is the
 *                          expectation, (2^bits + 1) / 2
 */
#include "common/jrec.h"
#include "kernel/measure/policy.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/attack/lab.h"
#include "kernel/measure/aslr_suite.h"
#include "kernel/run/run.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/char/random.h"
#include "kernel/security/ptrace.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"

#define LAB_MAX_GUESSES 64
#define LAB_UID		1000

const char *const lab_strategy_names[LAB_NR] = {"proc-leak", "pid-jiffies-collision",
						"state-replay", "brute-force"};
const char *const lab_region_names[LAB_NR_REGIONS] = {"stack", "mmap", "exe"};

/* The running trial: guesses as submitted, and the rendezvous. */
static struct {
	bool active;
	bool ready;
	uint32_t n[LAB_NR_REGIONS];
	uint64_t guess[LAB_NR_REGIONS][LAB_MAX_GUESSES];
} trial;
static int park_chan, ready_chan;

static long lab_shell_cell(uint64_t ustrategy, uint64_t urng);
static long lab_shell_aslr(uint64_t samples);

long sys_aslrbench_lab(const struct syscall_args *a)
{
	switch (a->a0) {
	case LAB_OP_PARK: /* the victim: sleep until the trial ends */
		if (!trial.active || current->cred.euid != 0)
			return -EPERM;
		sleep_on(&park_chan, (const void *)do_nanosleep);
		return 0;
	case LAB_OP_READY: /* the attacker: set up, send the victim */
		if (!trial.active)
			return -EPERM;
		trial.ready = true;
		wake_up(&ready_chan);
		return 0;
	case LAB_OP_SUBMIT: /* a guess: region, value */
		if (!trial.active || current->cred.uid != LAB_UID)
			return -EPERM;
		if (a->a1 >= LAB_NR_REGIONS)
			return -EINVAL;
		if (trial.n[a->a1] >= LAB_MAX_GUESSES)
			return -ENOSPC;
		trial.guess[a->a1][trial.n[a->a1]++] = a->a2;
		return 0;
	case LAB_OP_RUN_CELL:
		return lab_shell_cell(a->a1, a->a2);
	case LAB_OP_ASLR_SUITE:
		return lab_shell_aslr(a->a1);
	default:
		return -EINVAL;
	}
}

static long spawn_as(const char *const *argv, int argc, uint32_t uid)
{
	long pid = spawn_prog(argv[0], argc, (char *const *)argv);
	struct task_struct *t;

	if (pid < 0 || !uid)
		return pid;
	t = find_task_by_pid((int)pid);
	t->cred.uid = t->cred.euid = t->cred.suid = t->cred.fsuid = uid;
	t->cred.gid = t->cred.egid = t->cred.sgid = t->cred.fsgid = uid;
	task_fixup_caps(t);
	return pid;
}

static void reap_all(void)
{
	int status;

	trial.active = false;
	wake_up(&park_chan);
	while (do_wait(-1, 0, &status, 0, 0) > 0)
		;
}

static uint64_t truth_of(const struct aslr_layout *l, enum lab_region r)
{
	return r == LAB_STACK ? l->stack_arg_top : r == LAB_MMAP ? l->mmap_base : l->exe_base;
}

/*
 * The attacker's exit, waited for at most LAB_ATTACKER_SECONDS: one that is
 * stuck past them (a strategy that loops, a victim that never answers) gets
 * SIGKILL, so a run always ends.  It sleeps on the channel exit wakes the
 * parent with, so a normal trial adds no wake-up of its own.
 */
#define LAB_ATTACKER_SECONDS 120
static long wait_attacker(long apid, int *status)
{
	uint64_t deadline = jiffies + LAB_ATTACKER_SECONDS * (uint64_t)timer_hz();
	struct task_struct *a;
	long rc;

	while ((rc = do_wait((int)apid, WNOHANG, status, 0, 0)) == 0) {
		if (jiffies < deadline) {
			sleep_on_timeout(current, deadline, (const void *)wait_attacker);
			continue;
		}
		kprintf("lab: the attacker (pid %ld) still runs after %d s: killed\n", apid,
			LAB_ATTACKER_SECONDS);
		a = find_task_by_pid((int)apid);
		if (a)
			send_sig(SIGKILL, a);
		deadline = ~0ULL;
	}
	return rc;
}

/* One trial; false when the machinery (not the attack) failed. */
static bool one_trial(enum lab_strategy s, struct lab_cell_result *out)
{
	char hz[12];
	const char *att[] = {"lab_attacker", "attack", lab_strategy_names[s], hz,
			     aslr_rules_current()->name};
	const char *vic[] = {"lab_attacker", "victim"};
	struct aslr_layout truth;
	struct task_struct *v;
	long apid, vpid;
	uint64_t deadline;
	int status = -1;

	memset(&trial, 0, sizeof(trial));
	trial.active = true;
	ksnprintf(hz, sizeof(hz), "%u", timer_hz());
	apid = spawn_as(att, 5, LAB_UID);
	if (apid < 0)
		return false;
	deadline = jiffies + 20 * (uint64_t)timer_hz(); /* a stuck attacker ends the run */
	while (!trial.ready && jiffies < deadline)
		sleep_on_timeout(&ready_chan, deadline, (const void *)one_trial);
	vpid = trial.ready ? spawn_as(vic, 2, 0) : -1;
	if (vpid < 0) {
		reap_all();
		return false;
	}
	v = find_task_by_pid((int)vpid);
	aslr_read_layout(v->mm, v->stack_canary, &truth);
	wait_attacker(apid, &status);
	reap_all();
	if (status != 0)
		return false;
	out->trials++;
	for (int r = 0; r < LAB_NR_REGIONS; r++) {
		uint32_t used = trial.n[r]; /* all of them, unless one hits */

		if (trial.n[r])
			out->attempted[r]++;
		for (uint32_t g = 0; g < trial.n[r]; g++) {
			if (trial.guess[r][g] == truth_of(&truth, (enum lab_region)r)) {
				out->successes[r]++;
				out->guess_sum_hit[r] += g + 1;
				used = g + 1;
				break;
			}
		}
		out->guess_sum[r] += used;
	}
	return true;
}

int lab_run_cell(enum lab_strategy s, const char *rng, int leak_fix, int ia32, uint32_t trials,
		 struct lab_cell_result *out)
{
	struct policy want, saved;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	policy_current(&want);
	want.rng = rng_find(rng);
	want.proc_leak_fix = leak_fix;
	want.aslr_ia32 = ia32;
	if (policy_select(&want, &saved))
		return -ENODEV;
	for (uint32_t i = 0; i < trials; i++) {
		if (!one_trial(s, out)) {
			rc = -EIO;
			break;
		}
	}
	policy_restore(&saved);
	return rc;
}

static uint32_t region_bits(enum lab_region r, const struct aslr_profile *p)
{
	return r == LAB_STACK ? p->stack_rnd_bits : p->mmap_rnd_bits;
}

void lab_report_cell(enum lab_strategy s, const char *rng, int leak_fix, int ia32,
		     const struct lab_cell_result *r)
{
	const struct aslr_profile *p = aslr_profile_by_index(ia32);

	for (int g = 0; g < LAB_NR_REGIONS; g++) {
		char line[512];
		struct jrec rec;
		uint32_t bits = region_bits((enum lab_region)g, p);

		if (s == LAB_PROC_LEAK && g == LAB_MMAP)
			continue; /* stat carries nothing that points into the mmap area */
		jrec_begin(&rec, line, sizeof(line), "attack");
		jrec_str(&rec, "strategy", lab_strategy_names[s]);
		jrec_str(&rec, "rng", rng);
		jrec_u64(&rec, "proc_leak_fix", (uint64_t)leak_fix);
		jrec_str(&rec, "profile", p->name);
		jrec_str(&rec, "region", lab_region_names[g]);
		jrec_u64(&rec, "trials", r->trials);
		jrec_u64(&rec, "successes", r->successes[g]);
		/*
		 * mean_guesses: guesses spent per trial (up to the hit, or all of them
		 * when none hit); for brute force, the expectation for finding one
		 * value among 2^bits by trying them in turn, (2^bits + 1) / 2.
		 */
		if (s == LAB_BRUTE_FORCE)
			jrec_fixed(&rec, "mean_guesses", (int64_t)(((1ULL << bits) + 1) * 5), 1);
		else
			jrec_fixed(&rec, "mean_guesses",
				   r->trials ? (int64_t)(r->guess_sum[g] * 1000 / r->trials) : 0,
				   3);
		if (r->successes[g])
			jrec_fixed(&rec, "mean_guesses_to_hit",
				   (int64_t)(r->guess_sum_hit[g] * 1000 / r->successes[g]), 3);
		jrec_u64(&rec, "attempted", r->attempted[g]);
		jrec_u64(&rec, "entropy_bits", bits);
		console_puts(jrec_end(&rec));
		kprintf("  %-22s %-17s fix=%d %-6s %-5s %4u/%-4u\n", lab_strategy_names[s], rng,
			leak_fix, p->name, lab_region_names[g], r->successes[g], r->trials);
	}
}

/* Cells job_attack will run: matching strategies x available variants x fix x profile. */
static int lab_cells(void)
{
	int strategies = 0, variants = 0;

	for (int s = 0; s < LAB_NR; s++)
		strategies += run_suite_chosen(lab_strategy_names[s]);
	for (int i = 0; rng_variants[i]; i++)
		variants += run_variant_chosen(i) && rng_variants[i]->available();
	return strategies * variants * 4;
}

/* "[k/N] cell ... (elapsed, ETA)": the full matrix takes minutes. */
static void lab_progress(int k, int n, uint64_t t0, int s, const char *rng, int fix, int ia32)
{
	uint64_t el = tsc_to_ns(rdtsc() - t0) / 1000000000ULL;

	kprintf("[%d/%d] cell %s %s fix=%d %s (elapsed %lus, ETA %lus)\n", k, n,
		lab_strategy_names[s], rng, fix, ia32 ? "ia32" : "x86_64", el,
		el * (uint64_t)(n - k) / (uint64_t)k);
}

void job_attack(void)
{
	uint32_t trials = run_samples ? run_samples : 100;
	int failed = 0, k = 0, n = lab_cells();
	uint64_t t0 = rdtsc();
	char accepted[200] = "", err[300];

	for (int s = 0; s < LAB_NR; s++) {
		if (s)
			strlcpy(accepted + strlen(accepted), "|",
				sizeof(accepted) - strlen(accepted));
		strlcpy(accepted + strlen(accepted), lab_strategy_names[s],
			sizeof(accepted) - strlen(accepted));
	}
	if (run_suite_check(accepted, err, sizeof(err))) {
		kprintf("aslrbench: bad command line: %s\n", err);
		machine_exit(EXIT_CMDLINE);
	}
	kprintf("attack lab: %u trials per cell; attacker uid %d, victim root\n", trials, LAB_UID);
	for (int s = 0; s < LAB_NR; s++) {
		if (!run_suite_chosen(lab_strategy_names[s]))
			continue;
		for (int i = 0; rng_variants[i]; i++) {
			if (!run_variant_chosen(i) || !rng_variants[i]->available())
				continue;
			/*
			 * A deterministic run (seed=) repeats its records exactly;
			 * RDRAND's output does not come from the seed, so its cells
			 * are left out there rather than made to vary.
			 */
			if (random_boot_seed.len && !strcmp(rng_variants[i]->name, "rdrand")) {
				kprintf("attack: %s rdrand skipped: seed= run, its output is not "
					"reproducible\n",
					lab_strategy_names[s]);
				continue;
			}
			for (int fix = 0; fix < 2; fix++) {
				for (int ia32 = 0; ia32 < 2; ia32++) {
					struct lab_cell_result r;
					const char *name = rng_variants[i]->name;

					if (lab_run_cell((enum lab_strategy)s, name, fix, ia32,
							 trials, &r)) {
						kprintf("attack: %s %s: the trial machinery "
							"failed\n",
							lab_strategy_names[s], name);
						failed++;
					}
					lab_report_cell((enum lab_strategy)s, name, fix, ia32, &r);
					lab_progress(++k, n, t0, s, name, fix, ia32);
				}
			}
		}
	}
	machine_exit(failed ? EXIT_FAILED : EXIT_OK);
}

/* attack [strategy] [variant] from the shell: one cell per proc_leak_fix, 20 trials. */
static long lab_shell_cell(uint64_t ustrategy, uint64_t urng)
{
	char strategy[32], rng[32];
	int s;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (strncpy_from_user(strategy, ustrategy, sizeof(strategy)) < 0 ||
	    strncpy_from_user(rng, urng, sizeof(rng)) < 0)
		return -EFAULT;
	for (s = 0; s < LAB_NR && strcmp(strategy, lab_strategy_names[s]); s++)
		;
	if (s == LAB_NR || !rng_find(rng))
		return -EINVAL;
	for (int fix = 0; fix < 2; fix++) {
		struct lab_cell_result r;
		int rc = lab_run_cell((enum lab_strategy)s, rng, fix, aslr_ia32, 20, &r);

		if (rc)
			return rc;
		lab_report_cell((enum lab_strategy)s, rng, fix, aslr_ia32, &r);
	}
	return 0;
}

/* aslr [N] from the shell: the ASLR entropy suite with N spawns per cell (default 200). */
static long lab_shell_aslr(uint64_t samples)
{
	uint32_t saved = run_samples;
	unsigned measured = 0, failed = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (samples > 100000)
		return -EINVAL;
	run_samples = samples ? (uint32_t)samples : 200;
	aslr_suite(&measured, &failed);
	run_samples = saved;
	return failed ? -EIO : 0;
}
