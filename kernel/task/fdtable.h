/*
 * What CLONE_FILES and CLONE_FS share between tasks, with Linux's names
 * (include/linux/fdtable.h's files_struct, include/linux/fs_struct.h's
 * fs_struct, 6.6): the descriptor table with its close-on-exec bits, and
 * the cwd with the umask.  Refcounted; a fork without the flag copies.
 * Both come from fixed pools the size of the task table, since each one in
 * use belongs to at least one live task.
 */
#ifndef KERNEL_TASK_FDTABLE_H
#define KERNEL_TASK_FDTABLE_H

#include <stdint.h>

#define NR_OPEN 64 /* fds per table (EMFILE past it); close_on_exec is a 64-bit mask */

struct file;
struct inode;

struct files_struct {
	int count; /* tasks sharing it; 0: free */
	struct file *fd[NR_OPEN];
	uint64_t close_on_exec; /* bit fd: FD_CLOEXEC */
};

struct fs_struct {
	int users;	   /* tasks sharing it; 0: free */
	struct inode *pwd; /* NULL: the root */
	uint32_t umask;
};

extern struct files_struct init_files;
extern struct fs_struct init_fs;

/* A copy of `from` with a reference on each open file (dup_fd); NULL: out of memory. */
struct files_struct *dup_fd(const struct files_struct *from);
void put_files_struct(struct files_struct *files);
/* copy_fs_struct; NULL: out of memory. */
struct fs_struct *copy_fs_struct(const struct fs_struct *from);
void free_fs_struct(struct fs_struct *fs);

#endif
