#ifndef KERNEL_FS_PROC_PROC_H
#define KERNEL_FS_PROC_PROC_H

#include "kernel/task/task.h"

void proc_init_fs(void); /* installs /proc behind open() */
/* hidepid: 1 when the reader may see the task's /proc directory, else 0 and *err. */
int proc_pid_visible(struct task_struct *task, int *err);

#endif
