/* Shared between the /proc files (as fs/proc/internal.h in Linux). */
#ifndef KERNEL_FS_PROC_INTERNAL_H
#define KERNEL_FS_PROC_INTERNAL_H

#include <stddef.h>

#include "kernel/task/task.h"

#define PROC_BUF 4096
#define USER_HZ	 100

/* Each generator writes at most PROC_BUF bytes and returns the length or -errno. */
long proc_pid_stat(struct task_struct *task, char *buf);
long proc_pid_status(struct task_struct *task, char *buf);
long proc_pid_maps(struct task_struct *task, char *buf);
long proc_pid_wchan(struct task_struct *task, char *buf);
long proc_pid_cmdline(struct task_struct *task, char *buf);
long proc_uptime(char *buf);
long proc_timer_list(char *buf);
long proc_sysctl_read(int node, char *buf);
long proc_sysctl_write(int node, const char *kbuf, size_t n);

struct file;
/* Opens a /proc path (parsed by proc_parse_path): the file's snapshot. */
long proc_open(const char *path, int flags, struct file **out);
/* Mounts /proc on the root's /proc directory (inode.c). */
void proc_mount(void);

uint64_t jiffies_to_clock_t(uint64_t j);
int proc_pid_visible(struct task_struct *task, int *err);
const char *wchan_symbol(const void *wchan); /* NULL when not a known sleeper */

extern int proc_leak_fix; /* 1: the 2009 patch applied (default) */
extern int hidepid;	  /* Linux 3.3's mount option, as a boot option */

#endif
