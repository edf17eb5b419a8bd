/*
 * What sched.c and its run queues (rq.c) share, and nothing outside
 * kernel/task/ needs.  Everything here is called with the kernel lock.
 */
#ifndef KERNEL_TASK_SCHED_INTERNAL_H
#define KERNEL_TASK_SCHED_INTERNAL_H

#include <stdbool.h>

#include "kernel/task/task.h"

#define TIMESLICE 2 /* ticks a nice-0 task's turn lasts: 8 ms at HZ=250 */

bool is_idle_task(const struct task_struct *t);
void set_need_resched(struct task_struct *t);
struct task_struct *cpu_curr(unsigned int cpu); /* Linux's: what that CPU runs now */

/* rq.c: Linux 2.6's per-CPU runqueues, in their simplest form. */
void activate_task(struct task_struct *t);	      /* runnable now: onto a CPU's queue */
void put_prev_task(struct task_struct *prev);	      /* schedule()'s prev, still runnable */
struct task_struct *pick_next_task(unsigned int cpu); /* NULL: nothing for cpu, idle */
void charge_turn(struct task_struct *prev);	      /* the ticks prev ran, from its credit */
void requeue_allowed(struct task_struct *t);	      /* queued where its mask no longer allows */
/*
 * Whether any CPU has a task queued, read without the lock (an AP's
 * tick): when none has, schedule() can only pick the running task again.
 */
bool rq_tasks_queued(void);

#endif
