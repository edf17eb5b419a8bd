#ifndef KERNEL_TASK_SCHED_H
#define KERNEL_TASK_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/task/task.h"

extern struct task_struct idle_task;

void sched_init(void);	  /* the boot context becomes the idle task */
void sched_ap_init(void); /* on an AP: its idle task; cpu_idle() follows */
/* A task running on another CPU enters the kernel to see what was set for it. */
void kick_process(struct task_struct *t);
/* sched_setaffinity's core: 0, or -EINVAL when mask holds no active CPU. */
int set_cpus_allowed(struct task_struct *p, uint64_t mask);
extern uint64_t sched_cpus_active; /* the CPUs that run tasks, a bit each */
void schedule(void);		   /* give up the CPU to the next runnable task */
void wake_up_process(struct task_struct *t);
/* A task in TASK_STOPPED runs again (SIGCONT, SIGKILL); any other is left alone. */
void wake_up_stopped(struct task_struct *t);
/* Sleeps until wake_up(chan); wchan names the sleeping function for /proc. */
void sleep_on(const void *chan, const void *wchan);
void wake_up(const void *chan);
/* Sleeps until jiffies reaches `until`. */
void sleep_until(uint64_t until, const void *wchan);
/* Sleeps until wake_up(chan) or until jiffies reaches `until`, whichever is first. */
void sleep_on_timeout(const void *chan, uint64_t until, const void *wchan);
/*
 * As sleep_on_timeout (until 0: no timeout), but a signal the task does not
 * block ends it too (TASK_INTERRUPTIBLE in Linux's sense); it does not sleep
 * at all with one pending.  The caller loops on its condition and returns
 * -ERESTARTSYS (or its own restart code) when signal_pending().
 */
void sleep_on_interruptible(const void *chan, uint64_t until, const void *wchan);
/*
 * As sleep_on, but a fatal signal (SIGKILL queued to the task) ends it too:
 * Linux's TASK_KILLABLE.  It does not sleep at all with one pending; the
 * caller loops on its condition and gives up on fatal_signal_pending().
 */
void sleep_on_killable(const void *chan, const void *wchan);
/* The handler of a signal starts with a clean x87/SSE state, as Linux's fpu__clear_user_states. */
void fpu_reset_current(void);
void start_task(struct task_struct *t);	      /* make runnable a task set up by fork/spawn */
void fpu_init_task(struct task_struct *t);    /* clean x87/SSE state (spawn) */
void fpu_copy_current(struct task_struct *t); /* the caller's live state (fork) */
__attribute__((noreturn)) void cpu_idle(void);
void preempt_from_user(void); /* called on return to ring 3 */
/*
 * kernel/syscall/sys_misc.c: sleeps to deadline_ns on ktime_get_ns's clock;
 * 0, or the nanoseconds left when a signal ended the sleep.
 */
uint64_t do_nanosleep(uint64_t deadline_ns);
/*
 * The longest a root task waited runnable before it got the CPU, in ticks,
 * since the last reset (the fuzzer's latency bound: a system call that runs
 * unbounded without a preemption point shows here as another task's wait).
 */
extern uint64_t sched_max_wait_root;
extern int sched_max_wait_behind; /* the pid that had the CPU when that wait ended */
/*
 * The longest a task kept the CPU, in ticks, after the scheduler asked for it
 * back while another task was runnable: the kernel's longest stretch without
 * a preemption point (Linux's preemptoff latency, on a kernel that is not
 * preemptible).  Unlike sched_max_wait_root it does not count the turns of
 * other runnable tasks, only the stretch one task held the CPU in the kernel.
 */
extern uint64_t sched_max_resched_delay;
extern int sched_max_resched_pid;     /* the task that held the CPU that long */
extern unsigned sched_max_resched_nr; /* and the system call it had entered last */
/*
 * A sleeping lock (Linux's struct mutex, on one CPU): a holder may yield or
 * sleep; another task taking it sleeps until it is released.  wchan names
 * the waiter's function for /proc.
 */
struct mutex {
	bool locked;
};
void mutex_lock(struct mutex *m, const void *wchan);
void mutex_unlock(struct mutex *m);
/* A preemption point for long kernel loops: gives the CPU away if asked to. */
void cond_resched(void);

/* Called first on every timer tick: the tty polls its input here (fs/ sits above). */
extern void (*sched_tick_hook)(void);

#endif
