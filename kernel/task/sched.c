/*
 * The scheduler: round robin over the task table, preemptive for user code
 * and cooperative inside the kernel.
 *
 * Why not a preemptible kernel: on one CPU with a kernel that only sleeps at
 * a few well-known points (wait, sleep, console read), non-preemption means
 * no locks beyond masking interrupts around what the timer touches.  A
 * spinning user task still cannot starve anyone: the timer sets
 * need_resched and the switch happens on the way back to ring 3.  A system
 * call that loops over a size the caller chose calls cond_resched() between
 * steps where it holds nothing (getrandom, as Linux does every page), and
 * note_wait() measures how long the CPU was kept after it was asked for, so
 * the fuzzer finds the loops that do not.
 *
 * A task woken from a sleep runs before the round robin resumes, and a
 * timer wake-up ends the current slice: Linux's wakeup preemption in its
 * simplest form.  Without it a task that slept until a given jiffy (a
 * timer, the attack lab's collision) would start up to a slice late.
 *
 * Every CPU: a run queue each (rq.c: placement and balancing), read and
 * changed under the big kernel lock (kernel/arch/kernel_lock.h).  A task
 * runs where its affinity allows (sched_setaffinity); a CPU with nothing
 * to run halts with its tick stopped (Linux's NO_HZ idle), and whoever
 * makes a task runnable onto an idle CPU's queue sends it the reschedule
 * IPI.  The threads of a
 * process run in parallel, as Linux's do: a change that takes a
 * translation away reaches the other CPUs that run the address space
 * (kernel/arch/tlb.h).  The boot CPU's PIT tick advances jiffies and wakes
 * sleepers; each AP has its LAPIC timer for its slices.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/tlb.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/xstate.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/loadavg.h"
#include "kernel/task/sched.h"
#include "kernel/task/sched_internal.h"
#include "kernel/task/tls.h"
#include "kernel/task/signal.h"
#include "kernel/char/random.h"
#include "kernel/lib/compiler.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

struct task_struct idle_task;			  /* the boot CPU's: the boot context */
static struct task_struct ap_idle_tasks[NR_CPUS]; /* [cpu] for each AP */
uint64_t sched_cpus_active = 1; /* Linux's cpu_active_mask: the CPUs that run tasks */
void (*sched_tick_hook)(void);

bool is_idle_task(const struct task_struct *t)
{
	return t < tasks || t >= tasks + NR_TASKS;
}

void set_need_resched(struct task_struct *t)
{
	if (!t->need_resched)
		t->resched_since = jiffies;
	WRITE_ONCE(t->need_resched, true); /* t's CPU reads it on its way out, maybe lockless */
}

/* The tick's time to the task and its CPU (/proc/stat); a CPU's idle time is what is left. */
static void account_tick(struct task_struct *cur, bool from_user)
{
	struct percpu *pc = this_cpu();

	/* The only writer of cur's times: the CPU that runs it, lockless on an AP (task.h). */
	if (from_user) {
		WRITE_ONCE(cur->utime, cur->utime + 1);
		pc->user_ticks++;
	} else if (!is_idle_task(cur)) {
		WRITE_ONCE(cur->stime, cur->stime + 1);
		pc->system_ticks++;
	}
}
uint64_t sched_max_wait_root;
uint64_t sched_max_resched_delay;
int sched_max_resched_pid;
unsigned sched_max_resched_nr;
int sched_max_wait_behind; /* the pid that had the CPU when that wait ended */

void __switch_to_asm(uint64_t *prev_rsp, uint64_t next_rsp);

static void account_tick(struct task_struct *cur, bool from_user);

static void timer_tick(bool from_user)
{
	struct task_struct *cur = current;

	if (sched_tick_hook)
		sched_tick_hook();
	account_tick(cur, from_user);
	calc_global_load();
	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *t = &tasks[i];

		if (t->state == TASK_INTERRUPTIBLE && t->sleep_until && jiffies >= t->sleep_until) {
			wake_up_process(t);
			set_need_resched(cur);
		}
	}
	if (is_idle_task(cur) || jiffies >= this_cpu()->slice_end)
		set_need_resched(cur);
}

/*
 * An AP's tick (its LAPIC timer, only while it runs a task): the time
 * accounts and the slice, all its own; jiffies and sleepers are the boot
 * CPU's.  It runs without the kernel lock (irq_register_percpu).  A turn
 * that ends with no task queued on any CPU asks for no schedule(), which
 * could only pick the same task: Linux 6.6's update_deadline reschedules
 * at a slice's end only when cfs_rq->nr_running > 1 (CFS's entity_tick,
 * before it, called check_preempt_tick only then).  The task starts its
 * next turn in place, and a turn alone costs it no credit (rq.c), as in
 * 6.6 a newcomer is placed at the queue's average vruntime, which a task
 * alone sets.  So a task alone on its CPU in ring 3 takes the lock at no
 * tick (trap_dispatch), where it took it at every one.
 */
static void ap_timer_interrupt(struct trap_frame *f)
{
	struct task_struct *cur = current;
	struct percpu *pc = this_cpu();

	lapic_eoi();
	account_tick(cur, (f->cs & 3) == 3);
	if (is_idle_task(cur) || (jiffies >= pc->slice_end && rq_tasks_queued())) {
		set_need_resched(cur);
	} else if (jiffies >= pc->slice_end) {
		cur->slice_start = jiffies;
		pc->slice_end = jiffies + (cur->slice_ticks ? cur->slice_ticks : TIMESLICE);
	}
}

/* The reschedule IPI: the interrupt itself ends a halt or user mode; the lock holder set the rest.
 */
static void reschedule_interrupt(struct trap_frame *f)
{
	(void)f;
	lapic_eoi();
}

/* get_random_int()'s pid (random/ sits below tasks): 0 for the boot context, as Linux's swapper. */
static uint32_t current_pid_for_rng(void)
{
	struct task_struct *t = get_current(); /* NULL on a CPU that runs no task: its idle */

	return t ? (uint32_t)t->pid : 0;
}

void sched_init(void)
{
	struct percpu *pc = &percpu0;

	rng_current_pid_hook = current_pid_for_rng;
	idle_task.pid = idle_task.tgid = 0;
	idle_task.group_leader = &idle_task;
	task_init_lists(&idle_task); /* the parent of init and of what the kernel spawns */
	idle_task.files = &init_files;
	idle_task.fs = &init_fs;
	idle_task.sighand = &init_sighand;
	idle_task.signal = &init_signals;
	idle_task.kthread = true;
	idle_task.flags = PF_KTHREAD;
	idle_task.state = TASK_RUNNING;
	idle_task.stack_canary = pc->stack_canary;
	idle_task.cpus_allowed = ~0ULL; /* inherited by what the kernel spawns */
	idle_task.on_cpu = true;
	task_set_comm(&idle_task, "swapper");
	pc->cur_task = &idle_task;
	pc->idle = &idle_task;
	pc->start_jiffies = initial_jiffies;
	fpu_init_task(&idle_task);
	timer_tick_hook = timer_tick;
	irq_register_percpu(LOCAL_TIMER_VECTOR, ap_timer_interrupt);
	irq_register_percpu(RESCHEDULE_VECTOR, reschedule_interrupt);
	lock_kernel(); /* the boot context is kernel code like any other */
}

/*
 * An AP joins the scheduler: its idle task ("swapper/N", as Linux names
 * them) shares the boot context's files and credentials; the caller goes
 * on into cpu_idle().
 */
void sched_ap_init(void)
{
	struct percpu *pc = this_cpu();
	struct task_struct *idle = &ap_idle_tasks[pc->cpu];
	char name[TASK_COMM_LEN] = "swapper/";

	*idle = (struct task_struct){0};
	idle->group_leader = idle;
	task_init_lists(idle);
	idle->files = &init_files;
	idle->fs = &init_fs;
	idle->sighand = &init_sighand;
	idle->signal = &init_signals;
	idle->kthread = true;
	idle->flags = PF_KTHREAD;
	idle->state = TASK_RUNNING;
	idle->stack_canary = pc->stack_canary;
	idle->cred = idle_task.cred;
	idle->cpu = pc->cpu;
	idle->on_cpu = true;
	name[8] = (char)('0' + pc->cpu / 10 % 10);
	name[pc->cpu >= 10 ? 9 : 8] = (char)('0' + pc->cpu % 10);
	task_set_comm(idle, name);
	fpu_init_task(idle);
	pc->idle = idle;
	pc->cur_task = idle;
	lock_kernel();
	pc->start_jiffies = jiffies;
	sched_cpus_active |= 1ULL << pc->cpu;
}

/* Linux's cpu_curr(cpu): what that CPU runs (its idle task when nothing). */
struct task_struct *cpu_curr(unsigned int cpu)
{
	struct percpu *pc = smp_percpu(cpu);

	return pc ? READ_ONCE(pc->cur_task) : 0; /* another CPU's: it switches without asking */
}

/*
 * Linux 6.6's __set_cpus_allowed_ptr, for sched_setaffinity: the mask
 * limited to the active CPUs (EINVAL when none is left); the caller moves
 * at once, another task that may no longer run where it runs is asked to
 * move, and an idle CPU it may use is woken.
 */
int set_cpus_allowed(struct task_struct *p, uint64_t mask)
{
	mask &= sched_cpus_active;
	if (!mask)
		return -EINVAL;
	p->cpus_allowed = mask;
	if (p == current && !(mask & (1ULL << p->cpu))) {
		schedule(); /* moves now: it returns on a CPU of the mask */
	} else if (p->on_cpu && !(mask & (1ULL << p->cpu))) {
		set_need_resched(p);
		kick_process(p);
	} else {
		requeue_allowed(p); /* queued where it may no longer run: placed again */
	}
	return 0;
}

/*
 * Linux's kick_process: a task running in user mode on another CPU
 * enters the kernel at once and sees what was set for it (a signal, a
 * new affinity); without it, it would at its next tick.
 */
void kick_process(struct task_struct *t)
{
	if (t->on_cpu && t->cpu != smp_processor_id())
		smp_send_reschedule(t->cpu);
}

static void context_switch(struct task_struct *prev, struct task_struct *next)
{
	struct percpu *pc = this_cpu();
	uint64_t top = next->kstack + KSTACK_PAGES * 4096UL;

	/* No other CPU looks before this one gives up the kernel lock, after the switch. */
	prev->on_cpu = false;
	next->on_cpu = true;
	next->cpu = pc->cpu;
	if (pc->cpu) { /* the AP's tick runs only while it has a task (NO_HZ idle) */
		if (next == pc->idle)
			lapic_timer_stop();
		else if (prev == pc->idle)
			lapic_timer_start();
	}

	os_xsave(prev->fpu);
	os_xrstor(next->fpu);
	if (!next->kthread) {
		tss_set_rsp0(top);
		pc->kernel_rsp = top;
	}
	/*
	 * The user's selectors, TLS descriptors and arch_prctl bases (the user
	 * GS base sits in KERNEL_GS_BASE while in the kernel): kernel/task/tls.c.
	 */
	switch_user_segments(prev, next);
	load_mm_cr3(next->mm ? next->mm->pml4 : vmm_kernel_pml4());
	WRITE_ONCE(pc->cur_task, next); /* cpu_curr() reads it from other CPUs */
	/* Each task's frames were built with its own canary (see kernel/arch/percpu.h). */
	pc->stack_canary = next->stack_canary;
	__switch_to_asm(&prev->kernel_rsp, next->kernel_rsp);
}

static void note_wait(struct task_struct *prev, struct task_struct *next, bool was_asked)
{
	uint64_t asked = prev->resched_since;

	if (next->runnable_since && next->cred.euid == 0 &&
	    jiffies - next->runnable_since > sched_max_wait_root) {
		sched_max_wait_root = jiffies - next->runnable_since;
		sched_max_wait_behind = prev->pid;
	}
	/* prev's delay counts from when it was asked and next was waiting */
	if (was_asked && !is_idle_task(prev) && !is_idle_task(next) && next->runnable_since) {
		if (next->runnable_since > asked)
			asked = next->runnable_since;
		if (jiffies - asked > sched_max_resched_delay) {
			sched_max_resched_delay = jiffies - asked;
			sched_max_resched_pid = prev->pid;
			sched_max_resched_nr = prev->syscall_nr;
		}
	}
	next->runnable_since = 0;
}

void schedule(void)
{
	uint64_t flags = irq_save();
	struct task_struct *prev = current, *next;
	bool was_asked = prev->need_resched;

	prev->need_resched = false;
	charge_turn(prev);
	if (prev->state == TASK_RUNNING)
		put_prev_task(prev); /* the back of its queue (rq.c) */
	next = pick_next_task(smp_processor_id());
	if (!next)
		next = this_cpu()->idle;
	next->woken = false;
	next->slice_start = jiffies;
	this_cpu()->slice_end = jiffies + (is_idle_task(next) ? TIMESLICE : next->slice_ticks);
	if (next != prev) {
		if (prev->state == TASK_RUNNING && !is_idle_task(prev))
			prev->runnable_since = jiffies; /* preempted: runnable from now */
		note_wait(prev, next, was_asked);
		context_switch(prev, next);
	}
	irq_restore(flags);
}

/* A new task's first steps on its CPU (switch.asm's ret_from_fork), before its iretq. */
void schedule_tail(void);
void schedule_tail(void)
{
	unlock_kernel(); /* interrupts are off from schedule() until the iretq */
}

/* With interrupts off: the tick may wake t too (rq.c says why). */
void wake_up_process(struct task_struct *t)
{
	uint64_t flags = irq_save();

	if (t->state == TASK_INTERRUPTIBLE) {
		t->state = TASK_RUNNING;
		t->woken = true;
		t->runnable_since = jiffies;
		t->sleep_chan = 0;
		t->sleep_until = 0;
		t->wchan = 0;
		activate_task(t);
	}
	irq_restore(flags);
}

/*
 * wake_up_state(t, __TASK_STOPPED) (Linux 6.6): only SIGCONT and SIGKILL
 * end a stop; no wake_up(chan) and no timer does, as those wake only
 * TASK_INTERRUPTIBLE.
 */
void wake_up_stopped(struct task_struct *t)
{
	uint64_t flags = irq_save();

	if (t->state == TASK_STOPPED) {
		t->state = TASK_RUNNING;
		t->woken = true;
		t->runnable_since = jiffies;
		t->wchan = 0;
		activate_task(t);
	}
	irq_restore(flags);
}

/*
 * Every sleep: until wake_up(chan), or the tick that brings jiffies to
 * `until` (0: no timeout).  Called with interrupts off.
 */
static void sleep_current(const void *chan, uint64_t until, const void *wchan)
{
	struct task_struct *t = current;

	t->sleep_chan = chan;
	t->sleep_until = until;
	t->wchan = wchan;
	t->state = TASK_INTERRUPTIBLE;
	schedule();
}

void sleep_on(const void *chan, const void *wchan)
{
	uint64_t flags = irq_save();

	sleep_current(chan, 0, wchan);
	irq_restore(flags);
}

void wake_up(const void *chan)
{
	uint64_t flags = irq_save();

	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state == TASK_INTERRUPTIBLE && tasks[i].sleep_chan == chan)
			wake_up_process(&tasks[i]);
	irq_restore(flags);
}

void sleep_until(uint64_t until, const void *wchan)
{
	uint64_t flags = irq_save();

	/* Its own field as the channel: no wake_up() can end this sleep early. */
	while (jiffies < until)
		sleep_current(&current->sleep_until, until, wchan);
	irq_restore(flags);
}

void sleep_on_timeout(const void *chan, uint64_t until, const void *wchan)
{
	uint64_t flags = irq_save();

	if (jiffies < until)
		sleep_current(chan, until, wchan);
	irq_restore(flags);
}

void sleep_on_interruptible(const void *chan, uint64_t until, const void *wchan)
{
	struct task_struct *t = current;
	uint64_t flags = irq_save();

	if (!signal_pending(t) && (!until || jiffies < until)) {
		t->sig_wakeable = true;
		sleep_current(chan, until, wchan);
		t->sig_wakeable = false;
	}
	irq_restore(flags);
}

void sleep_on_killable(const void *chan, const void *wchan)
{
	struct task_struct *t = current;
	uint64_t flags = irq_save();

	if (!fatal_signal_pending(t)) {
		t->kill_wakeable = true;
		sleep_current(chan, 0, wchan);
		t->kill_wakeable = false;
	}
	irq_restore(flags);
}

void fpu_reset_current(void)
{
	os_xrstor(init_fpstate);
}

void fpu_init_task(struct task_struct *t)
{
	memcpy(t->fpu, init_fpstate, sizeof(t->fpu));
}

/* XSAVE writes XSTATE_BV alone of the header; the rest must be zero for XRSTOR. */
void fpu_copy_current(struct task_struct *t)
{
	memset(t->fpu + XSAVE_HDR_OFFSET, 0, XSAVE_HDR_SIZE);
	os_xsave(t->fpu);
}

void start_task(struct task_struct *t)
{
	uint64_t flags = irq_save();

	t->state = TASK_RUNNING;
	t->runnable_since = jiffies;
	activate_task(t);
	irq_restore(flags);
}

void mutex_lock(struct mutex *m, const void *wchan)
{
	while (m->locked)
		sleep_on(m, wchan);
	m->locked = true;
}

void mutex_unlock(struct mutex *m)
{
	m->locked = false;
	wake_up(m);
}

void cond_resched(void)
{
	if (current->need_resched)
		schedule();
	cond_resched_kernel_lock(); /* and another CPU waiting for the kernel gets in */
}

void preempt_from_user(void)
{
	if (current->need_resched)
		schedule();
}

/*
 * Every CPU's idle loop, entered with the kernel lock.  It halts without
 * the lock, and waits for it again only when asked to schedule (the boot
 * CPU's tick asks every time; an AP is kicked): spinning for it would
 * cost an emulator's host CPU while another CPU holds it for long.
 * Interrupts are off from the lock's release to the halt, so a kick sent
 * after the release ends the halt at once.
 */
void cpu_idle(void)
{
	struct task_struct *idle = current;

	for (;;) {
		schedule();
		irq_disable();
		unlock_kernel();
		do {
			__asm__ volatile("sti\n\thlt\n\tcli" ::: "memory");
		} while (!READ_ONCE(idle->need_resched));
		lock_kernel_idle();
		irq_enable();
	}
}
