/*
 * /proc/<pid>/fd (Linux 6.6's fs/proc/fd.c, reduced): one symlink per open
 * fd, named by its number, whose target is the file's path (d_path):
 * "/tmp/x", "/dev/console", "pipe:[ino]", "/tmp/x (deleted)" once unlinked.
 * The directory is dr-x------ and the task's own, so only its owner and
 * root list it.  Unlike Linux's magic links, opening one walks the target
 * path: a pipe's or a deleted file's link does not open (ENOENT).
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/names.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/task/task.h"

static struct file *task_fd(int pid, int fd)
{
	struct task_struct *t = find_task_by_pid(pid);

	if (!t || !t->files || fd < 0 || fd >= NR_OPEN)
		return 0;
	return t->files->fd[fd];
}

int proc_fd_lookup(struct inode *dir, const char *name, struct inode **out)
{
	int fd = 0;

	if (!*name || strlen(name) > 2 || (name[0] == '0' && name[1]))
		return -ENOENT;
	for (const char *p = name; *p; p++) {
		if (*p < '0' || *p > '9')
			return -ENOENT;
		fd = fd * 10 + (*p - '0');
	}
	if (!task_fd(dir->proc.pid, fd))
		return -ENOENT;
	*out = proc_inode(dir, PROC_FD_LINK, dir->proc.pid, fd);
	return *out ? 0 : -ENOMEM;
}

int proc_fd_readdir(struct inode *dir, uint64_t k, struct dirent_out *d)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		if (!task_fd(dir->proc.pid, fd) || k-- > 0)
			continue;
		ksnprintf(d->name, sizeof(d->name), "%d", fd);
		d->ino = PROC_FD_INO(dir->proc.pid, fd);
		d->type = DT_LNK;
		return 0;
	}
	return 1;
}

long proc_fd_readlink(struct inode *ino, char *buf, size_t n)
{
	struct file *f = task_fd(ino->proc.pid, ino->proc.fd);
	char *path;
	long len;

	if (!f)
		return -ENOENT;
	if (!(path = __getname()))
		return -ENOMEM;
	if (!f->inode)
		len = ksnprintf(path, PATH_MAX, "anon_inode:[unknown]");
	else if ((f->inode->mode & S_IFMT) == S_IFIFO)
		len = ksnprintf(path, PATH_MAX, "pipe:[%u]", f->inode->ino);
	else
		len = inode_path(f->inode, path, PATH_MAX);
	if (len >= 0)
		len = proc_readlink_copy(buf, n, path);
	__putname(path);
	return len;
}
