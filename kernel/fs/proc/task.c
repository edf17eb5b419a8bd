/*
 * /proc/<pid>/task (Linux 6.6's proc_task_lookup, proc_task_readdir in
 * fs/proc/base.c): one directory per thread of the process, named by its
 * tid.  A thread's directory is the /proc/<tid> directory (which Linux also
 * resolves for a thread, though its readdir lists only processes), so its
 * stat, status and maps are the same files under the same access checks
 * (ptrace_may_access on that thread, hidepid), but without task/ of its
 * own (Linux's tid_base_stuff has none).
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"

/* A thread of the group /proc/<pid> names, not yet released. */
static bool in_group(const struct task_struct *t, const struct task_struct *leader)
{
	return t->state != TASK_UNUSED && !t->kthread && same_thread_group(t, leader) &&
	       !(t->state == TASK_ZOMBIE && t->autoreap);
}

int proc_task_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct task_struct *leader = find_task_by_pid(dir->proc.pid), *t;
	int tid = 0, err = 0;

	if (!leader || !*name || strlen(name) > 7 || name[0] == '0')
		return -ENOENT;
	for (const char *p = name; *p; p++) {
		if (*p < '0' || *p > '9')
			return -ENOENT;
		tid = tid * 10 + (*p - '0');
	}
	t = find_task_by_pid(tid);
	if (!t || !in_group(t, leader))
		return -ENOENT;
	if (!proc_pid_visible(t, &err) && err == -ENOENT)
		return -ENOENT;
	*out = proc_inode(dir, PROC_NODE_PID_DIR, tid, PROC_SUB_TID);
	return *out ? 0 : -ENOMEM;
}

int proc_task_readdir(struct inode *dir, uint64_t k, struct dirent_out *d)
{
	struct task_struct *leader = find_task_by_pid(dir->proc.pid);

	if (!leader)
		return 1;
	for (int i = 0; i < NR_TASKS; i++) {
		if (!in_group(&tasks[i], leader) || k-- > 0)
			continue;
		ksnprintf(d->name, sizeof(d->name), "%d", tasks[i].pid);
		d->ino = PROC_INO_BASE + (uint32_t)tasks[i].pid * 64 + PROC_NODE_PID_DIR * 2;
		d->type = DT_DIR;
		return 0;
	}
	return 1;
}
