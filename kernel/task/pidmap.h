/*
 * The pids in use, one bit each (Linux's pidmap): fork finds the next free
 * pid with a look at a word or two, not a walk of the task table under the
 * big kernel lock.  Pure functions on the caller's map, host-tested
 * (tests/task/test_pidmap.c).
 */
#ifndef KERNEL_TASK_PIDMAP_H
#define KERNEL_TASK_PIDMAP_H

#include <stdint.h>

#define PID_MAX	      32768 /* Linux's PID_MAX_DEFAULT */
#define RESERVED_PIDS 300   /* where the search starts again past PID_MAX */

/*
 * Linux 2.6.29's alloc_pidmap (and 6.6's alloc_pid, by idr_alloc_cyclic):
 * the first free pid after last, in increasing order, marked in use; past
 * PID_MAX the search starts again at RESERVED_PIDS, so init's and the
 * early daemons' pids are never handed out twice.  -1 when none is free.
 */
extern int pid_max; /* /proc/sys/kernel/pid_max: RESERVED_PIDS + 1 .. PID_MAX (task.c) */
int pidmap_alloc(uint64_t map[PID_MAX / 64], int last, int max); /* max: pid_max, <= PID_MAX */
void pidmap_free(uint64_t map[PID_MAX / 64], int pid);		 /* pid out of range: nothing */

#endif
