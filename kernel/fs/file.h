/*
 * Open files: one operations table per kind of file (ramfs files and
 * directories, devices, pipes, /proc snapshots); each open file holds its
 * inode (vfs.h) for fstat, getdents64 and /proc/<pid>/fd.  Every seekable
 * file is read through the same offset logic, so reading in 1-byte chunks
 * gives the same bytes as one large read.
 */
#ifndef KERNEL_FS_FILE_H
#define KERNEL_FS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/task/sched.h" /* struct mutex */

#define PATH_MAX_LEN 256

struct file;

/*
 * read and write move *pos, as Linux's ppos: &f->pos for read/write, the
 * caller's own offset for pread/pwrite and sendfile with an offset, so a
 * positioned call never touches the position others sharing the file see.
 */
struct file_ops {
	long (*read)(struct file *f, char *kbuf, size_t n, uint64_t *pos);
	long (*write)(struct file *f, const char *kbuf, size_t n, uint64_t *pos);
	void (*release)(struct file *f);
};

struct file {
	const struct file_ops *ops;
	int refs;
	uint64_t pos;
	char *data;	      /* snapshot of a generated file (a page), or NULL */
	int node;	      /* which /proc file (enum proc_node), for writes */
	int pid;	      /* and whose, for /proc/<pid>/fail-nth */
	uint64_t task_serial; /* that task's serial: the file is its, not the pid's next owner */
	size_t size;
	bool seq;	     /* a seq_file of Linux's (/proc/<pid>/stat, maps...): no SEEK_END */
	bool pending;	     /* /proc: data made at the first read, with the reader's creds */
	struct inode *inode; /* what fstat describes (a reference), or NULL */
	struct mutex f_pos_lock; /* held by a read, write or lseek (file_pos_lock) */
	unsigned f_flags;	 /* open(2) flags: the access mode (read and write check it first:
				  * EBADF, as Linux's f_mode), O_APPEND, O_NONBLOCK */
};

/* NULL with *err = -ENOMEM (an injected failure) or -ENFILE (the table is full). */
struct file *file_alloc(const struct file_ops *ops, long *err);
void file_discard(struct file *f);
void file_get(struct file *f);
void file_put(struct file *f);
/*
 * The position lock (Linux 6.6's f_pos_lock, taken by fdget_pos for files
 * with FMODE_ATOMIC_POS: regular files and directories): held across a
 * read, write or lseek, which may yield between pages.  Other files pass.
 */
void file_pos_lock(struct file *f);
void file_pos_unlock(struct file *f);
/* Lets fork and exit (the task layer, below fs) take and drop file references. */
void files_init(void);
/* The console (fds 0, 1, 2 of every task started by the kernel). */
struct file *console_file(void);
/* Serves a snapshot: used by the read op of generated files. */
long file_read_snapshot(struct file *f, char *kbuf, size_t n, uint64_t *pos);

#endif
