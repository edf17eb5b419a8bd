/*
 * Tasks on every CPU (kernel/task/sched.c): two user tasks run at the same
 * moment on two APs while the boot CPU is in the kernel; a task pinned to
 * a CPU runs there; six spinners on three CPUs stay on their CPUs' run
 * queues and share the time; the two threads of one address space run at the same
 * moment on two CPUs (kernel/arch/tlb.h keeps their TLBs right); a SIGKILL
 * reaches a task spinning in user mode on another CPU at once
 * (kick_process); and three spinners on two CPUs, one at nice -10, are
 * balanced by weight: the heavy one alone on a CPU, the two others sharing
 * the other (rq.c); and a task alone on an AP, spinning in ring 3 or
 * calling getrandom in a loop, runs without the big kernel lock.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/timer.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/nice.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/test/ktest.h"

#define WAIT_TICKS(ms) ((uint64_t)(ms)*timer_hz() / 1000 + 1)

static struct task_struct *cpu_runs(unsigned int cpu)
{
	struct percpu *pc = smp_percpu(cpu);

	return pc ? pc->cur_task : 0;
}

static unsigned int active_cpus(void)
{
	return (unsigned int)__builtin_popcountll(sched_cpus_active);
}

static struct task_struct *spawn_spinner(char *mode, long *pid)
{
	char *argv[] = {"t_spin", mode};

	*pid = spawn_prog("t_spin", mode ? 2 : 1, argv);
	return *pid > 0 ? find_task_by_pid((int)*pid) : 0;
}

/* Waits up to 5 s for CPUs 1 and 2 to run a and b at one moment. */
static bool on_cpus_1_and_2(const struct task_struct *a, const struct task_struct *b)
{
	uint64_t until = jiffies + WAIT_TICKS(5000);
	bool both = false;

	while (!both && jiffies < until) {
		sleep_until(jiffies + 1, (const void *)on_cpus_1_and_2);
		/* Read with the kernel lock: neither CPU can switch while we look. */
		both = cpu_runs(1) == a && cpu_runs(2) == b;
	}
	return both;
}

/* SIGKILL to a task spinning in ring 3; true once it is reaped as killed. */
static bool kill_and_reap(struct task_struct *p, long pid)
{
	int status = 0;

	send_sig(SIGKILL, p);
	return do_wait((int)pid, 0, &status, 0, 0) == pid && status == W_SIGNALED(SIGKILL);
}

static enum ktest_result smp_tasks_parallel(struct ktest_ctx *t)
{
	struct task_struct *p[2];
	long pid[2];

	if (active_cpus() < 3)
		return ktest_skip(t, "%u CPUs run tasks: boot with --smp 3 or more", active_cpus());
	for (int i = 0; i < 2; i++) {
		if (!(p[i] = spawn_spinner(0, &pid[i])))
			return ktest_fail(t, "spawn t_spin: %ld", pid[i]);
		if (set_cpus_allowed(p[i], 1ULL << (i + 1)))
			return ktest_fail(t, "pin to CPU %d refused", i + 1);
	}
	if (!on_cpus_1_and_2(p[0], p[1]))
		return ktest_fail(t, "CPUs 1 and 2 run %s and %s, not the pinned spinners",
				  cpu_runs(1) ? cpu_runs(1)->comm : "?",
				  cpu_runs(2) ? cpu_runs(2)->comm : "?");
	if (p[0]->cpu != 1 || p[1]->cpu != 2 || !p[0]->on_cpu || !p[1]->on_cpu)
		return ktest_fail(t, "task_cpu %u and %u", p[0]->cpu, p[1]->cpu);
	for (int i = 0; i < 2; i++)
		if (!kill_and_reap(p[i], pid[i]))
			return ktest_fail(t, "spinner %ld on CPU %d did not die of SIGKILL", pid[i],
					  i + 1);
	return KTEST_PASS;
}
KTEST(smp_tasks_parallel);

/* The other thread of leader's group, or NULL. */
static struct task_struct *other_thread(const struct task_struct *leader)
{
	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state != TASK_UNUSED && tasks[i].state != TASK_ZOMBIE &&
		    tasks[i].tgid == leader->pid && &tasks[i] != leader)
			return &tasks[i];
	return 0;
}

static enum ktest_result smp_threads_parallel(struct ktest_ctx *t)
{
	struct task_struct *th[2];
	long pid;
	uint64_t until;

	if (active_cpus() < 3)
		return ktest_skip(t, "%u CPUs run tasks: boot with --smp 3 or more", active_cpus());
	if (!(th[0] = spawn_spinner("thread", &pid)))
		return ktest_fail(t, "spawn t_spin thread: %ld", pid);
	until = jiffies + WAIT_TICKS(5000);
	while (!(th[1] = other_thread(th[0])) && jiffies < until)
		sleep_until(jiffies + 1, (const void *)smp_threads_parallel);
	if (!th[1])
		return ktest_fail(t, "t_spin made no second thread");
	for (int i = 0; i < 2; i++)
		if (set_cpus_allowed(th[i], 1ULL << (i + 1)))
			return ktest_fail(t, "pin to CPU %d refused", i + 1);
	if (!on_cpus_1_and_2(th[0], th[1]))
		return ktest_fail(t, "CPUs 1 and 2 run %s and %s, not the two threads of pid %ld",
				  cpu_runs(1) ? cpu_runs(1)->comm : "?",
				  cpu_runs(2) ? cpu_runs(2)->comm : "?", pid);
	if (!kill_and_reap(th[0], pid))
		return ktest_fail(t, "t_spin %ld did not die of SIGKILL", pid);
	return KTEST_PASS;
}
KTEST(smp_threads_parallel);

/*
 * Per-CPU run queues (kernel/task/rq.c): six spinners allowed on CPUs 1-3
 * share them two to a CPU and stay there, each queue taking its turns,
 * instead of moving at every slice; each gets its share of the time.
 * With one queue for all CPUs, a task preempted on one CPU was taken by
 * the next CPU to schedule: hundreds of moves a second.
 */
#define RQ_SPINNERS 6

static enum ktest_result smp_rq_affinity(struct ktest_ctx *t)
{
	struct task_struct *p[RQ_SPINNERS];
	long pid[RQ_SPINNERS];
	unsigned int last[RQ_SPINNERS], moves = 0;
	uint64_t until, ticks0[RQ_SPINNERS], min_ticks = ~0ULL, max_ticks = 0;
	enum ktest_result r = KTEST_PASS;

	if (active_cpus() < 4)
		return ktest_skip(t, "%u CPUs run tasks: boot with --smp 4 or more", active_cpus());
	for (int i = 0; i < RQ_SPINNERS; i++) {
		if (!(p[i] = spawn_spinner(0, &pid[i]))) {
			for (int j = 0; j < i; j++)
				kill_and_reap(p[j], pid[j]);
			return ktest_fail(t, "spawn t_spin: %ld", pid[i]);
		}
		set_cpus_allowed(p[i], 0xeULL);
	}
	/* settle: the balancing moves that spread them happen now */
	sleep_until(jiffies + WAIT_TICKS(200), (const void *)smp_rq_affinity);
	for (int i = 0; i < RQ_SPINNERS; i++) {
		last[i] = p[i]->cpu;
		ticks0[i] = p[i]->utime;
	}
	for (until = jiffies + WAIT_TICKS(1000); jiffies < until;) {
		sleep_until(jiffies + 1, (const void *)smp_rq_affinity);
		for (int i = 0; i < RQ_SPINNERS; i++) {
			moves += p[i]->cpu != last[i];
			last[i] = p[i]->cpu;
		}
	}
	for (int i = 0; i < RQ_SPINNERS; i++) {
		uint64_t n = p[i]->utime - ticks0[i];

		min_ticks = n < min_ticks ? n : min_ticks;
		max_ticks = n > max_ticks ? n : max_ticks;
	}
	if (moves > RQ_SPINNERS)
		r = ktest_fail(t, "%u moves between CPUs in 1 s for %d spinners on 3 CPUs", moves,
			       RQ_SPINNERS);
	else if (!min_ticks || min_ticks * 4 < max_ticks)
		r = ktest_fail(t, "user ticks in 1 s: the least %lu, the most %lu",
			       (unsigned long)min_ticks, (unsigned long)max_ticks);
	for (int i = 0; i < RQ_SPINNERS; i++)
		if (!kill_and_reap(p[i], pid[i]) && r == KTEST_PASS)
			r = ktest_fail(t, "spinner %ld did not die of SIGKILL", pid[i]);
	kprintf("smp_rq_affinity: %u moves in 1 s; user ticks from %lu to %lu\n", moves,
		(unsigned long)min_ticks, (unsigned long)max_ticks);
	return r;
}
KTEST(smp_rq_affinity);

/*
 * Three spinners allowed on CPUs 1 and 2, the first at nice -10 (weight
 * 9548, the others 1024 each).  By count, the heavy one shares a CPU with
 * a light one for good (one queued against none: no pull) and gets 90 % of
 * it, while the other light one has a CPU alone.  By weight, the light one
 * queued behind it moves: the heavy one runs alone, the two light ones
 * share the other CPU.  The test looks at where they are, once a tick for
 * a second: the ticks each one ran measure the host too, and with eight
 * vCPUs on two busy host cores the heavy one's CPU got 528 ticks in a
 * second, its light ones 372 and 407, while they sat as they should.
 */
static enum ktest_result smp_rq_weighted(struct ktest_ctx *t)
{
	struct task_struct *p[3];
	long pid[3];
	uint64_t ticks0[3], n[3], until;
	unsigned int looks = 0, as_weighed = 0;
	enum ktest_result r = KTEST_PASS;

	if (active_cpus() < 3)
		return ktest_skip(t, "%u CPUs run tasks: boot with --smp 3 or more", active_cpus());
	for (int i = 0; i < 3; i++) {
		if (!(p[i] = spawn_spinner(0, &pid[i]))) {
			for (int j = 0; j < i; j++)
				kill_and_reap(p[j], pid[j]);
			return ktest_fail(t, "spawn t_spin: %ld", pid[i]);
		}
		set_cpus_allowed(p[i], 0x6ULL);
	}
	set_user_nice(p[0], -10);
	sleep_until(jiffies + WAIT_TICKS(300), (const void *)smp_rq_weighted);
	for (int i = 0; i < 3; i++)
		ticks0[i] = p[i]->utime + p[i]->stime;
	for (until = jiffies + WAIT_TICKS(1000); jiffies < until; looks++) {
		unsigned int heavy = p[0]->cpu, a = p[1]->cpu, b = p[2]->cpu;

		as_weighed += heavy != a && heavy != b && a == b;
		sleep_until(jiffies + 1, (const void *)smp_rq_weighted);
	}
	for (int i = 0; i < 3; i++)
		n[i] = p[i]->utime + p[i]->stime - ticks0[i];
	kprintf("smp_rq_weighted: heavy alone, light ones together at %u of %u looks; ticks in "
		"1 s: nice -10 %lu, nice 0 %lu and %lu\n",
		as_weighed, looks, (unsigned long)n[0], (unsigned long)n[1], (unsigned long)n[2]);
	if (!n[1] || !n[2] || as_weighed * 10 < looks * 9)
		r = ktest_fail(t,
			       "not balanced by weight: the heavy one alone, the light ones "
			       "sharing a CPU at %u of %u looks",
			       as_weighed, looks);
	for (int i = 0; i < 3; i++)
		if (!kill_and_reap(p[i], pid[i]) && r == KTEST_PASS)
			r = ktest_fail(t, "spinner %ld did not die of SIGKILL", pid[i]);
	return r;
}
KTEST(smp_rq_weighted);

/*
 * A t_spin pinned to CPU 1, alone there and with nothing queued anywhere,
 * until CPU 1 has counted half a second of ticks (LOCK_USE_TICKS) or 5 s
 * have passed: how many times CPU 1 took the kernel lock, and in how many
 * ticks (in user mode and in the kernel).  Counted in CPU 1's ticks, not
 * in the boot CPU's time: under an emulator on a busy host a vCPU's thread
 * runs a fraction of the time and its timer's expiries merge (smp8 beside
 * another boot counted 198 ticks in 500 ms), which says nothing about the
 * lock.  0 when the spinner ran there.
 */
#define LOCK_USE_TICKS WAIT_TICKS(500)
static int lock_use_on_cpu1(struct ktest_ctx *t, char *mode, uint64_t *locks, uint64_t *user,
			    uint64_t *sys)
{
	struct kernel_lock_stat s0, s1;
	struct percpu *pc = smp_percpu(1);
	struct task_struct *p;
	uint64_t user0, sys0, until;
	long pid;
	int err = 0;

	if (!(p = spawn_spinner(mode, &pid))) {
		ktest_fail(t, "spawn t_spin: %ld", pid);
		return -1;
	}
	if (set_cpus_allowed(p, 1ULL << 1)) {
		kill_and_reap(p, pid);
		ktest_fail(t, "pin to CPU 1 refused");
		return -1;
	}
	until = jiffies + WAIT_TICKS(5000);
	while (cpu_runs(1) != p && jiffies < until)
		sleep_until(jiffies + 1, (const void *)lock_use_on_cpu1);
	kernel_lock_stat_read(1, &s0);
	user0 = pc->user_ticks;
	sys0 = pc->system_ticks;
	until = jiffies + WAIT_TICKS(5000);
	do
		sleep_until(jiffies + WAIT_TICKS(100), (const void *)lock_use_on_cpu1);
	while (pc->user_ticks + pc->system_ticks - user0 - sys0 < LOCK_USE_TICKS &&
	       jiffies < until);
	kernel_lock_stat_read(1, &s1);
	*user = pc->user_ticks - user0;
	*sys = pc->system_ticks - sys0;
	*locks = s1.acquired - s0.acquired;
	if (cpu_runs(1) != p) {
		ktest_fail(t, "CPU 1 runs %s, not the pinned t_spin",
			   cpu_runs(1) ? cpu_runs(1)->comm : "?");
		err = -1;
	}
	if (!kill_and_reap(p, pid) && !err) {
		ktest_fail(t, "t_spin %ld did not die of SIGKILL", pid);
		err = -1;
	}
	return err;
}

/*
 * A spinner alone on CPU 1: the AP's ticks find it in ring 3 and go back
 * to it without the kernel lock (trap_dispatch, ap_timer_interrupt), where
 * every tick took it.  At most a tenth as many acquisitions as ticks (the
 * ktest's own CPU queues a task now and then, a reason for a turn's end
 * to schedule).
 */
static enum ktest_result smp_tick_unlocked(struct ktest_ctx *t)
{
	uint64_t locks, user, sys;

	if (active_cpus() < 2 || !smp_percpu(1))
		return ktest_skip(t, "%u CPUs run tasks: boot with --smp 2 or more", active_cpus());
	if (lock_use_on_cpu1(t, 0, &locks, &user, &sys))
		return KTEST_FAIL;
	kprintf("smp_tick_unlocked: CPU 1: %lu user ticks, %lu kernel lock acquisitions\n",
		(unsigned long)user, (unsigned long)locks);
	if (user < LOCK_USE_TICKS / 2)
		return ktest_fail(t, "%lu user ticks (and %lu in the kernel), want %lu",
				  (unsigned long)user, (unsigned long)sys,
				  (unsigned long)LOCK_USE_TICKS / 2);
	if (locks * 10 > user)
		return ktest_fail(t, "%lu kernel lock acquisitions in %lu ticks",
				  (unsigned long)locks, (unsigned long)user);
	return KTEST_PASS;
}
KTEST(smp_tick_unlocked);

/*
 * The same with getrandom(2) for 16 bytes in a loop: the call runs without
 * the kernel lock (kernel/syscall/syscall.c), so CPU 1 takes it about as
 * rarely as when it only spins, where each call used to take it.  Ticks in
 * the kernel show the calls were made.
 */
static enum ktest_result smp_getrandom_unlocked(struct ktest_ctx *t)
{
	uint64_t locks, user, sys;

	if (active_cpus() < 2 || !smp_percpu(1))
		return ktest_skip(t, "%u CPUs run tasks: boot with --smp 2 or more", active_cpus());
	if (lock_use_on_cpu1(t, "getrandom", &locks, &user, &sys))
		return KTEST_FAIL;
	kprintf("smp_getrandom_unlocked: CPU 1: %lu user and %lu system ticks, %lu kernel lock "
		"acquisitions\n",
		(unsigned long)user, (unsigned long)sys, (unsigned long)locks);
	if (!sys || user + sys < LOCK_USE_TICKS)
		return ktest_fail(t, "%lu user and %lu system ticks of %lu counted in 5 s",
				  (unsigned long)user, (unsigned long)sys,
				  (unsigned long)LOCK_USE_TICKS);
	if (locks * 10 > user + sys)
		return ktest_fail(t, "%lu kernel lock acquisitions in %lu ticks",
				  (unsigned long)locks, (unsigned long)(user + sys));
	return KTEST_PASS;
}
KTEST(smp_getrandom_unlocked);
