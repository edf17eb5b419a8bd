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
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/timer.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/sched.h"
#include "kernel/task/tls.h"
#include "kernel/task/signal.h"
#include "kernel/char/random.h"
#include "kernel/lib/string.h"

#define TIMESLICE 2 /* ticks: 8 ms at HZ=250 */

struct task_struct idle_task;
void (*sched_tick_hook)(void);
static uint64_t slice_end;

static void set_need_resched(struct task_struct *t)
{
	if (!t->need_resched)
		t->resched_since = jiffies;
	t->need_resched = true;
}
uint64_t sched_max_wait_root;
uint64_t sched_max_resched_delay;
int sched_max_resched_pid;
unsigned sched_max_resched_nr;
int sched_max_wait_behind; /* the pid that had the CPU when that wait ended */
static uint8_t fpu_init_state[512] __attribute__((aligned(16)));

void __switch_to_asm(uint64_t *prev_rsp, uint64_t next_rsp);

static void timer_tick(bool from_user)
{
	struct task_struct *cur = current;

	if (sched_tick_hook)
		sched_tick_hook();
	if (from_user)
		cur->utime++;
	else if (cur != &idle_task)
		cur->stime++;
	else
		idle_ticks++;
	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *t = &tasks[i];

		if (t->state == TASK_INTERRUPTIBLE && t->sleep_until && jiffies >= t->sleep_until) {
			wake_up_process(t);
			set_need_resched(cur);
		}
	}
	if (cur == &idle_task || jiffies >= slice_end)
		set_need_resched(cur);
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
	idle_task.files = &init_files;
	idle_task.fs = &init_fs;
	idle_task.sighand = &init_sighand;
	idle_task.signal = &init_signals;
	idle_task.kthread = true;
	idle_task.state = TASK_RUNNING;
	idle_task.stack_canary = pc->stack_canary;
	task_set_comm(&idle_task, "swapper");
	pc->cur_task = &idle_task;
	/* A clean x87/SSE state for new tasks. */
	__asm__ volatile("fninit; fxsave64 %0" : "=m"(fpu_init_state));
	memcpy(idle_task.fpu, fpu_init_state, sizeof(fpu_init_state));
	timer_tick_hook = timer_tick;
}

static struct task_struct *pick_next(struct task_struct *prev)
{
	int start = prev == &idle_task ? 0 : (int)(prev - tasks) + 1;
	struct task_struct *rr = 0;

	for (int n = 0; n < NR_TASKS; n++) {
		struct task_struct *t = &tasks[(start + n) % NR_TASKS];

		if (t->state != TASK_RUNNING)
			continue;
		if (t->woken)
			return t;
		if (!rr)
			rr = t;
	}
	return rr ? rr : &idle_task;
}

static void context_switch(struct task_struct *prev, struct task_struct *next)
{
	struct percpu *pc = &percpu0;
	uint64_t top = next->kstack + KSTACK_PAGES * 4096UL;

	__asm__ volatile("fxsave64 %0" : "=m"(prev->fpu));
	__asm__ volatile("fxrstor64 %0" : : "m"(next->fpu));
	if (!next->kthread) {
		tss_set_rsp0(top);
		pc->kernel_rsp = top;
	}
	/*
	 * The user's selectors, TLS descriptors and arch_prctl bases (the user
	 * GS base sits in KERNEL_GS_BASE while in the kernel): kernel/task/tls.c.
	 */
	switch_user_segments(prev, next);
	write_cr3(next->mm ? next->mm->pml4 : vmm_kernel_pml4());
	pc->cur_task = next;
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
	if (was_asked && prev != &idle_task && next != &idle_task && next->runnable_since) {
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
	next = pick_next(prev);
	if (next == prev && prev->state != TASK_RUNNING)
		next = &idle_task;
	next->woken = false;
	slice_end = jiffies + TIMESLICE;
	if (next != prev) {
		if (prev->state == TASK_RUNNING && prev != &idle_task)
			prev->runnable_since = jiffies; /* preempted: runnable from now */
		note_wait(prev, next, was_asked);
		context_switch(prev, next);
	}
	irq_restore(flags);
}

void wake_up_process(struct task_struct *t)
{
	if (t->state == TASK_INTERRUPTIBLE) {
		t->state = TASK_RUNNING;
		t->woken = true;
		t->runnable_since = jiffies;
		t->sleep_chan = 0;
		t->sleep_until = 0;
		t->wchan = 0;
	}
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

void fpu_reset_current(void)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(fpu_init_state));
}

void fpu_init_task(struct task_struct *t)
{
	memcpy(t->fpu, fpu_init_state, sizeof(fpu_init_state));
}

void fpu_copy_current(struct task_struct *t)
{
	__asm__ volatile("fxsave64 %0" : "=m"(t->fpu));
}

void start_task(struct task_struct *t)
{
	t->state = TASK_RUNNING;
	t->runnable_since = jiffies;
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
}

void preempt_from_user(void)
{
	if (current->need_resched)
		schedule();
}

void cpu_idle(void)
{
	for (;;) {
		irq_enable();
		halt();
		if (current->need_resched)
			schedule();
	}
}
