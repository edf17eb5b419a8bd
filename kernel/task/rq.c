/*
 * Per-CPU run queues (Linux 2.6's runqueues, in their simplest form).
 *
 * Why: one queue for every CPU (the task table, scanned by whichever CPU
 * schedules) let a preempted task land on any CPU at its next turn, so
 * tasks wandered between CPUs and their caches at every slice.  Here each
 * CPU takes its turns from its own queue, and a task stays where it ran
 * unless balancing moves it, as Linux's do:
 *
 *   placement   a task made runnable (woken, forked, spawned) goes back
 *               to the CPU it last ran on if that one is idle; else to
 *               another CPU that is idle and allowed, which is told
 *               (Linux's select_idle_sibling, then the reschedule IPI);
 *               else back to its last CPU, if allowed; else to the
 *               allowed CPU with the least load.  A woken task
 *               goes to the front (it runs first, the wakeup preemption
 *               sched.c describes); a preempted one to the back.
 *   balancing   a CPU with nothing queued pulls a task another CPU has
 *               queued and it may run (Linux's newidle balance); at every
 *               schedule() a CPU pulls a queued task from the CPU with the
 *               most load when that load exceeds its own by twice the
 *               task's weight or more, so the move narrows the gap
 *               (load_balance's imbalance, by weight; at nice 0 everywhere,
 *               when the other CPU has two tasks more, counting the one it
 *               runs); and a CPU that leaves tasks queued behind it tells
 *               an idle CPU that may run them, which then pulls.
 *   weight      a CPU's load is the sum of the weights of what it queues
 *               and runs (nice.c, CFS's weights), and a task's turns are
 *               spent by weight: a nice-0 task runs TIMESLICE ticks a
 *               turn, as ever; any other earns its weight times
 *               TIMESLICE in credit at each turn, pays NICE_0_LOAD a tick
 *               it runs, and is passed over while its credit buys no tick
 *               (a deficit round robin).  Two CPU-bound tasks on one CPU
 *               so get CPU time in the ratio of their weights, as under
 *               CFS; not CFS's order within it, and a woken task with nice
 *               above 0 waits for its credit where CFS's sleeper credit
 *               could let it in at once.
 *
 * The running task is on no queue.  Every queue is read and changed under
 * the big kernel lock (kernel/arch/kernel_lock.h), so there is no lock per
 * queue yet; Linux has one (rq->lock), and fine-grained locks would need it.
 * And with interrupts off, as Linux 6.6 takes rq->lock (rq_lock_irqsave,
 * and try_to_wake_up's pi_lock) with them off: the boot CPU's tick wakes
 * sleepers from its interrupt, inside whatever system call it interrupted,
 * under the lock that call already holds.  A fork that was
 * putting its child on an empty queue when the tick put a woken task there
 * lost one of the two for good (a boot that hung with its job asleep and
 * runnable at once); enqueue and dequeue now refuse to run with interrupts
 * on, so a caller that forgets fails its first time, not once in a while.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/timer.h"
#include "kernel/task/nice.h"
#include "kernel/task/sched.h"
#include "kernel/task/sched_internal.h"
#include "kernel/lib/panic.h"

static struct rq {
	struct task_struct *head, *tail;
	unsigned int nr_queued;
	uint64_t load; /* the queued tasks' weights */
} __attribute__((aligned(64))) runqueues[NR_CPUS];

static bool allowed_on(const struct task_struct *t, unsigned int cpu)
{
	return cpu < smp_cpus_online && cpu < NR_CPUS &&
	       (t->cpus_allowed & sched_cpus_active & (1ULL << cpu));
}

/* lockdep_assert_irqs_disabled(), always on: see the top of the file. */
static void assert_irqs_disabled(const char *what)
{
	if (!irqs_disabled())
		panic("%s: a run queue changed with interrupts on (the tick may be changing it "
		      "too)",
		      what);
}

static void enqueue_task(unsigned int cpu, struct task_struct *t, bool front)
{
	struct rq *rq = &runqueues[cpu];

	assert_irqs_disabled("enqueue_task");
	t->on_rq = true;
	t->rq_cpu = cpu;
	t->rq_next = 0;
	t->rq_weight = nice_to_weight(t->nice);
	rq->load += t->rq_weight;
	if (!rq->head) {
		rq->head = rq->tail = t;
	} else if (front) {
		t->rq_next = rq->head;
		rq->head = t;
	} else {
		rq->tail->rq_next = t;
		rq->tail = t;
	}
	rq->nr_queued++;
}

static void dequeue_task(struct task_struct *t)
{
	struct rq *rq = &runqueues[t->rq_cpu];
	struct task_struct **pp = &rq->head, *prev = 0;

	assert_irqs_disabled("dequeue_task");
	for (; *pp && *pp != t; pp = &(*pp)->rq_next)
		prev = *pp;
	if (!*pp)
		return;
	*pp = t->rq_next;
	if (rq->tail == t)
		rq->tail = prev;
	rq->nr_queued--;
	rq->load -= t->rq_weight;
	t->on_rq = false;
	t->rq_next = 0;
}

/*
 * A CPU's load: its queue's weights and what it runs now (cfs_rq's load
 * counts its curr too).  Seen from a CPU in schedule(), its own is its queue
 * alone: the task it ran is back on it, and the one it runs next is there.
 */
static uint64_t cpu_load(unsigned int cpu)
{
	struct task_struct *c = cpu_curr(cpu);
	uint64_t load = runqueues[cpu].load;

	if (cpu != smp_processor_id() && c && !is_idle_task(c) && !c->on_rq)
		load += nice_to_weight(c->nice);
	return load;
}

static bool cpu_is_idle(unsigned int cpu)
{
	struct task_struct *c = cpu_curr(cpu);

	return c && is_idle_task(c) && !runqueues[cpu].nr_queued;
}

/* An idle CPU other than this one that t may run on (UINT32_MAX: none). */
static unsigned int idle_cpu_for(const struct task_struct *t)
{
	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++)
		if (cpu != smp_processor_id() && allowed_on(t, cpu) && cpu_is_idle(cpu))
			return cpu;
	return UINT32_MAX;
}

static unsigned int select_task_rq(const struct task_struct *t)
{
	unsigned int best = UINT32_MAX, cpu;
	uint64_t best_load = 0;

	if (allowed_on(t, t->cpu) && cpu_is_idle(t->cpu))
		return t->cpu; /* where it ran, idle: no move (select_idle_sibling's target) */
	cpu = idle_cpu_for(t);
	if (cpu != UINT32_MAX)
		return cpu;
	if (allowed_on(t, t->cpu))
		return t->cpu;
	for (cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++) {
		uint64_t load;

		if (!allowed_on(t, cpu))
			continue;
		load = cpu_load(cpu);
		if (best == UINT32_MAX || load < best_load) {
			best = cpu;
			best_load = load;
		}
	}
	return best == UINT32_MAX ? 0 : best; /* no CPU allowed: the boot CPU runs everything */
}

/* Tells cpu to schedule: its idle task, by the reschedule IPI when it is another CPU. */
static void tell_cpu(unsigned int cpu)
{
	struct task_struct *c = cpu_curr(cpu);

	if (!c || !is_idle_task(c))
		return;
	set_need_resched(c);
	if (cpu != smp_processor_id())
		smp_send_reschedule(cpu);
}

void activate_task(struct task_struct *t)
{
	unsigned int cpu;

	kernel_lock_assert_held("activate_task");
	if (t->on_rq || is_idle_task(t))
		return;
	cpu = select_task_rq(t);
	enqueue_task(cpu, t, t->woken);
	tell_cpu(cpu);
}

/* After this CPU picked its next task: an idle CPU that may run what is left queued pulls it. */
static void share_queue(unsigned int self)
{
	for (struct task_struct *t = runqueues[self].head; t; t = t->rq_next) {
		unsigned int cpu = idle_cpu_for(t);

		if (cpu != UINT32_MAX) {
			tell_cpu(cpu);
			return;
		}
	}
}

void put_prev_task(struct task_struct *prev)
{
	kernel_lock_assert_held("put_prev_task");
	if (prev->on_rq || is_idle_task(prev))
		return;
	if (allowed_on(prev, smp_processor_id()))
		enqueue_task(smp_processor_id(), prev, false);
	else
		activate_task(prev); /* its mask moved it away: placed as a wake-up */
}

/* The credit a turn earns at t's weight. */
static int64_t turn_quantum(const struct task_struct *t)
{
	return (int64_t)nice_to_weight(t->nice) * TIMESLICE;
}

/*
 * How far credit may go either way: two turns' worth and a tick, so a task
 * that slept long does not come back with a hoard, nor one whose turn the
 * tick could not end with a debt beyond it.
 */
static int64_t credit_bound(const struct task_struct *t)
{
	return 2 * turn_quantum(t) + NICE_0_LOAD;
}

/* What prev's turn cost it: NICE_0_LOAD a tick (a nice-0 task keeps no account). */
void charge_turn(struct task_struct *prev)
{
	if (!prev->nice || is_idle_task(prev))
		return;
	prev->sched_credit -= (int64_t)((jiffies - prev->slice_start) * NICE_0_LOAD);
	if (prev->sched_credit < -credit_bound(prev))
		prev->sched_credit = -credit_bound(prev);
}

/* The ticks t's turn lasts, from its credit; 0 while its credit buys none. */
static unsigned int turn_ticks(struct task_struct *t)
{
	if (!t->nice)
		return TIMESLICE;
	t->sched_credit += turn_quantum(t);
	if (t->sched_credit > credit_bound(t))
		t->sched_credit = credit_bound(t);
	return t->sched_credit < NICE_0_LOAD ? 0 : (unsigned int)(t->sched_credit / NICE_0_LOAD);
}

/*
 * The first task on from's queue that cpu may run, off the queue: not one
 * another CPU still runs (put there by its own schedule(), before the
 * switch), but cpu's own, put back by put_prev_task.
 */
static struct task_struct *take_from(unsigned int from, unsigned int cpu)
{
	for (struct task_struct *t = runqueues[from].head; t; t = t->rq_next)
		if (allowed_on(t, cpu) && (!t->on_cpu || t == cpu_curr(cpu))) {
			dequeue_task(t);
			return t;
		}
	return 0;
}

/* The other CPU with the most load and a task queued (UINT32_MAX: none), and that load. */
static unsigned int busiest_other(unsigned int self, uint64_t *best_load)
{
	unsigned int best = UINT32_MAX;

	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++) {
		uint64_t load;

		if (cpu == self || !runqueues[cpu].nr_queued)
			continue;
		load = cpu_load(cpu);
		if (best == UINT32_MAX || load > *best_load) {
			best = cpu;
			*best_load = load;
		}
	}
	return best;
}

/*
 * load_balance: the first task on from's queue (busiest its load) that cpu
 * may run and whose move narrows the gap.
 */
static struct task_struct *take_to_balance(unsigned int from, uint64_t busiest, unsigned int cpu)
{
	uint64_t here = cpu_load(cpu), gap = busiest - here;

	if (busiest <= here)
		return 0;
	for (struct task_struct *t = runqueues[from].head; t; t = t->rq_next)
		if (allowed_on(t, cpu) && (!t->on_cpu || t == cpu_curr(cpu)) &&
		    2 * (uint64_t)t->rq_weight <= gap) {
			dequeue_task(t);
			return t;
		}
	return 0;
}

/*
 * This CPU's next turn from its own queue: the first task it may run whose
 * credit buys a tick; one whose credit buys none goes to the back (each
 * pass adds to its credit, so the search ends).
 */
static struct task_struct *take_turn(unsigned int cpu)
{
	struct task_struct *t;
	unsigned int ticks;

	while ((t = take_from(cpu, cpu)) && !(ticks = turn_ticks(t)))
		enqueue_task(cpu, t, false);
	if (t)
		t->slice_ticks = ticks;
	return t;
}

struct task_struct *pick_next_task(unsigned int cpu)
{
	uint64_t busiest = 0;
	unsigned int from = busiest_other(cpu, &busiest);
	struct task_struct *t;

	kernel_lock_assert_held("pick_next_task");
	if (from != UINT32_MAX && (t = take_to_balance(from, busiest, cpu)))
		enqueue_task(cpu, t, false);
	t = take_turn(cpu);
	/* newidle balance: nothing here, so anything queued elsewhere that may run here */
	for (unsigned int other = 0; !t && other < smp_cpus_online && other < NR_CPUS; other++)
		if (other != cpu && (t = take_from(other, cpu))) {
			enqueue_task(cpu, t, false);
			t = take_turn(cpu);
		}
	if (runqueues[cpu].nr_queued)
		share_queue(cpu);
	return t;
}

/*
 * A racy look, as Linux reads other run queues' loads without their locks
 * to decide whether balancing is worth it: a task queued a moment later is
 * seen at the next tick.  With nothing queued anywhere, pick_next_task
 * neither balances nor pulls, and take_turn finds the running task alone.
 */
bool rq_tasks_queued(void)
{
	for (unsigned int cpu = 0; cpu < smp_cpus_online && cpu < NR_CPUS; cpu++)
		if (__atomic_load_n(&runqueues[cpu].nr_queued, __ATOMIC_RELAXED))
			return true;
	return false;
}

void requeue_allowed(struct task_struct *t)
{
	uint64_t flags = irq_save();

	if (t->on_rq && !allowed_on(t, t->rq_cpu)) {
		dequeue_task(t);
		activate_task(t);
	}
	irq_restore(flags);
}
