/* Shared between the /proc files (as fs/proc/internal.h in Linux). */
#ifndef KERNEL_FS_PROC_INTERNAL_H
#define KERNEL_FS_PROC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/proc/path.h"

#include "kernel/task/task.h"

#define PROC_BUF 4096

/* Each generator writes at most PROC_BUF bytes and returns the length or -errno. */
long proc_pid_stat(struct task_struct *task, char *buf);
long proc_pid_status(struct task_struct *task, char *buf);
long proc_pid_wchan(struct task_struct *task, char *buf);
long proc_pid_cmdline(struct task_struct *task, char *buf);
long proc_pid_environ(struct task_struct *task, char *buf);
long proc_pid_statm(struct task_struct *task, char *buf);
long proc_pid_syscall(struct task_struct *task, char *buf);
long proc_uptime(char *buf);
long proc_stat(char *buf);
long proc_meminfo(char *buf);
long proc_loadavg(char *buf);
long proc_timer_list(char *buf);
long proc_sysctl_read(int node, char *buf);
long proc_sysctl_write(int node, const char *kbuf, size_t n);
/*
 * /proc/<pid>/maps, generated at every read: bytes [pos, pos + n) of its
 * text into buf (NULL: only counted), how many (0 past the end).
 */
long proc_pid_maps_read(struct task_struct *task, uint64_t pos, char *buf, size_t n);

struct file;
struct inode;
struct dirent_out;

/* Nodes of the /proc file system beyond enum proc_node (inode.c, fd.c). */
#define PROC_SELF	     PROC_NODE_COUNT	   /* the /proc/self symlink */
#define PROC_FD_DIR	     (PROC_NODE_COUNT + 1) /* /proc/<pid>/fd */
#define PROC_FD_LINK	     (PROC_NODE_COUNT + 2) /* /proc/<pid>/fd/<n>: proc.fd is n */
#define PROC_EXE_LINK	     (PROC_NODE_COUNT + 3) /* /proc/<pid>/exe (exe.c) */
#define PROC_TASK_DIR	     (PROC_NODE_COUNT + 4) /* /proc/<pid>/task (task.c) */
#define PROC_INO_BASE	     0xf0000000u
#define PROC_SUB_TID	     1 /* proc.fd of a PID_DIR under task/: tid_base_stuff, no task/ */
#define PROC_FD_INO(pid, fd) (0xe0000000u + (uint32_t)(pid)*128 + (uint32_t)(fd))

/* A /proc inode (a reference) under parent (also referenced while it lives). */
struct inode *proc_inode(struct inode *parent, int node, int pid, int sub);
int proc_fd_lookup(struct inode *dir, const char *name, struct inode **out);
int proc_fd_readdir(struct inode *dir, uint64_t k, struct dirent_out *d);
long proc_fd_readlink(struct inode *ino, char *buf, size_t n);
long proc_exe_readlink(struct inode *ino, char *buf, size_t n);
/* /proc/<pid>/task/<tid>: the directory of one thread of <pid>'s group (task.c). */
int proc_task_lookup(struct inode *dir, const char *name, struct inode **out);
int proc_task_readdir(struct inode *dir, uint64_t k, struct dirent_out *d);
/*
 * A link's target into readlink's buf (n bytes, no NUL, cut at n): its
 * length.  As Linux's do_proc_readlink (2.6.29 fs/proc/base.c).
 */
long proc_readlink_copy(char *buf, size_t n, const char *link);

/* Opens a /proc path (parsed by proc_parse_path): the file's snapshot. */
long proc_open(const char *path, int flags, struct file **out);
/* Mounts /proc on the root's /proc directory (inode.c). */
void proc_mount(void);

int proc_pid_visible(struct task_struct *task, int *err);
/* The task with this pid if it is still the one of that serial, else NULL (it is gone). */
struct task_struct *proc_task_of(int pid, uint64_t serial);
/*
 * The /proc files follow the rule set's Linux: 6.12's formats and gates
 * under aslr_rules=6.x, 2.6.29's (with the 2009 patch as proc_leak_fix
 * says) under aslr_rules=2.6.29.  The one place /proc asks.
 */
bool proc_abi_612(void);
const char *wchan_symbol(const void *wchan); /* NULL when not a known sleeper */

extern int proc_leak_fix; /* 1: the 2009 patch applied (default) */
extern int hidepid;	  /* Linux 3.3's mount option, as a boot option */

#endif
