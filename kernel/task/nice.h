#ifndef KERNEL_TASK_NICE_H
#define KERNEL_TASK_NICE_H

#include <stdbool.h>

struct task_struct;

#define MIN_NICE    -20
#define MAX_NICE    19
#define NICE_WIDTH  40
#define NICE_0_LOAD 1024 /* the weight of a nice-0 task (scale_load_down(NICE_0_LOAD)) */

/* clamp(nice, MIN_NICE, MAX_NICE) */
static inline int nice_clamp(int nice)
{
	return nice < MIN_NICE ? MIN_NICE : nice > MAX_NICE ? MAX_NICE : nice;
}

unsigned int nice_to_weight(int nice); /* sched_prio_to_weight[nice + 20] */
int task_nice(const struct task_struct *p);
bool can_nice(const struct task_struct *p, int nice);
void set_user_nice(struct task_struct *p, int nice);

#endif
