/*
 * /proc/<pid>/exe (Linux 2.6.29's proc_exe_link, fs/proc/base.c): a
 * symlink to the task's executable, mm->exe_file's path (d_path, so
 * "PATH (deleted)" once it is unlinked).  Reading it needs
 * ptrace_may_access(PTRACE_MODE_READ), as 2.6.29's proc_fd_access_allowed
 * (EACCES otherwise).  A task with no file: a test image loaded by the kernel (which has
 * none) or a zombie (no mm): ENOENT, as Linux for a kernel thread.  For a
 * #! script the link names the interpreter, as Linux (bprm->file).
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/vfs.h"
#include "kernel/fs/names.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/security/ptrace.h"
#include "kernel/task/task.h"

long proc_exe_readlink(struct inode *ino, char *buf, size_t n)
{
	struct task_struct *t = find_task_by_pid(ino->proc.pid);
	char *path;
	long len;

	if (!t)
		return -ENOENT;
	if (!ptrace_may_access(t, PTRACE_MODE_READ))
		return -EACCES;
	if (!t->mm || !t->mm->exe_file)
		return -ENOENT;
	if (!(path = __getname()))
		return -ENOMEM;
	len = inode_path(t->mm->exe_file, path, PATH_MAX);
	if (len >= 0)
		len = proc_readlink_copy(buf, n, path);
	__putname(path);
	return len;
}
