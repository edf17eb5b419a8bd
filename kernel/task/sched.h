#ifndef KERNEL_TASK_SCHED_H
#define KERNEL_TASK_SCHED_H

#include <stdint.h>

#include "kernel/task/task.h"

extern struct task_struct idle_task;

void sched_init(void); /* the boot context becomes the idle task */
void schedule(void);   /* give up the CPU to the next runnable task */
void wake_up_process(struct task_struct *t);
/* Sleeps until wake_up(chan); wchan names the sleeping function for /proc. */
void sleep_on(const void *chan, const void *wchan);
void wake_up(const void *chan);
/* Sleeps until jiffies reaches `until`. */
void sleep_until(uint64_t until, const void *wchan);
/* Sleeps until wake_up(chan) or until jiffies reaches `until`, whichever is first. */
void sleep_on_timeout(const void *chan, uint64_t until, const void *wchan);
void start_task(struct task_struct *t);	      /* make runnable a task set up by fork/spawn */
void fpu_init_task(struct task_struct *t);    /* clean x87/SSE state (spawn) */
void fpu_copy_current(struct task_struct *t); /* the caller's live state (fork) */
__attribute__((noreturn)) void cpu_idle(void);
void preempt_from_user(void);	   /* called on return to ring 3 */
void do_nanosleep(uint64_t ticks); /* kernel/syscall/sys_misc.c */
extern uint64_t idle_ticks;

/* Called first on every timer tick: the tty polls its input here (fs/ sits above). */
extern void (*sched_tick_hook)(void);

#endif
