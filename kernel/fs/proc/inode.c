/*
 * /proc as a file system (Linux 6.6's fs/proc/root.c, base.c lookups):
 * inodes made on each lookup and dropped with their last reference, named
 * by (node, pid); opening one hands its canonical path to proc_open, so
 * the access rules of root.c apply unchanged.  /proc/self is a symlink to
 * the reader's pid, as in Linux.  Listings: the root shows self, uptime,
 * timer_list, sys and the pids (hidepid=2 leaves out the ones the reader
 * may not see); a pid directory its five files.
 */
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/proc/path.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/task/task.h"

#define SUB_KERNEL 1 /* proc.fd of a SYS_DIR inode: /proc/sys/kernel */

static const struct inode_ops proc_iops;

/* /proc/sys/kernel's files, in listing order */
static const char *const sysctl_names[] = {"randomize_va_space", "rng_variant", "pid_max"};
static const int sysctl_nodes[] = {PROC_NODE_RANDOMIZE_VA_SPACE, PROC_NODE_RNG_VARIANT,
				   PROC_NODE_PID_MAX};

static bool is_dir(int node)
{
	return node == PROC_FD_DIR || node == PROC_TASK_DIR ||
	       (node < PROC_NODE_COUNT && proc_node_is_dir(node));
}

/* The listed files of /proc/<pid>, in proc_pid_files' order: the kth, or NULL. */
static const struct proc_file *listed_pid_file(uint64_t k)
{
	for (unsigned i = 0; i < proc_nr_pid_files; i++)
		if (proc_pid_files[i].listed && k-- == 0)
			return &proc_pid_files[i];
	return 0;
}

static unsigned int nr_listed_pid_files(void)
{
	unsigned int n = 0;

	while (listed_pid_file(n))
		n++;
	return n;
}

static const char *node_name(int node)
{
	switch (node) {
	case PROC_NODE_RANDOMIZE_VA_SPACE:
		return "sys/kernel/randomize_va_space";
	case PROC_NODE_RNG_VARIANT:
		return "sys/kernel/rng_variant";
	case PROC_NODE_PID_MAX:
		return "sys/kernel/pid_max";
	default:
		for (unsigned i = 0; i < proc_nr_root_files; i++)
			if ((int)proc_root_files[i].node == node)
				return proc_root_files[i].name;
		for (unsigned i = 0; i < proc_nr_pid_files; i++)
			if ((int)proc_pid_files[i].node == node)
				return proc_pid_files[i].name;
		return "";
	}
}

static void proc_path_of(struct inode *ino, char *buf, size_t n)
{
	int node = ino->proc.node;

	if (node == PROC_NODE_SYS_DIR)
		ksnprintf(buf, n, "/proc/sys%s", ino->proc.fd == SUB_KERNEL ? "/kernel" : "");
	else if (node == PROC_FD_DIR)
		ksnprintf(buf, n, "/proc/%d/fd", ino->proc.pid);
	else if (node == PROC_TASK_DIR)
		ksnprintf(buf, n, "/proc/%d/task", ino->proc.pid);
	else if (ino->proc.pid)
		ksnprintf(buf, n, "/proc/%d%s%s", ino->proc.pid,
			  node == PROC_NODE_PID_DIR ? "" : "/", node_name(node));
	else
		ksnprintf(buf, n, "/proc%s%s", node == PROC_NODE_ROOT ? "" : "/", node_name(node));
}

struct inode *proc_inode(struct inode *parent, int node, int pid, int sub)
{
	struct task_struct *t = pid > 0 ? find_task_by_pid(pid) : 0;
	uint32_t mode;
	struct inode *ino;

	if (node == PROC_SELF)
		mode = S_IFLNK | 0777;
	else if (node == PROC_FD_LINK)
		mode = S_IFLNK | 0700;
	else if (node == PROC_EXE_LINK)
		mode = S_IFLNK | 0777;
	else if (node == PROC_FD_DIR)
		mode = S_IFDIR | 0500; /* Linux's dr-x------, the task's own */
	else if (node == PROC_TASK_DIR)
		mode = S_IFDIR | 0555;
	else if (is_dir(node))
		mode = S_IFDIR | 0555;
	else if (node == PROC_NODE_RANDOMIZE_VA_SPACE || node == PROC_NODE_RNG_VARIANT ||
		 node == PROC_NODE_FAIL_NTH || node == PROC_NODE_PID_MAX)
		mode = S_IFREG | 0644;
	else if (node == PROC_NODE_ENVIRON || node == PROC_NODE_SYSCALL)
		mode = S_IFREG | 0400;
	else
		mode = S_IFREG | 0444;
	ino = inode_alloc(mode, &proc_iops, 0);
	if (!ino)
		return 0;
	ino->ino = node == PROC_FD_LINK ? PROC_FD_INO(pid, sub)
					: PROC_INO_BASE + (uint32_t)pid * 64 + (uint32_t)node * 2 +
						  (uint32_t)sub;
	ino->nlink = 0; /* not in any ramfs directory: freed with its last reference */
	ino->proc.node = node;
	ino->proc.pid = pid;
	ino->proc.fd = sub;
	ino->proc.serial = t ? t->serial : 0;
	/* task_dump_owner: a task that is not dumpable has its files owned by root */
	if (t && t->dumpable && !t->kthread) {
		ino->uid = t->cred.euid;
		ino->gid = t->cred.egid;
	}
	ino->parent = parent;
	if (parent)
		iget(parent);
	return ino;
}

/*
 * An inode of a task that is gone: Linux's proc inode holds the task's
 * struct pid, so a directory or file kept open names that task only, never
 * the next one to get its number.
 */
static bool proc_inode_stale(const struct inode *ino)
{
	return ino->proc.pid > 0 && !proc_task_of(ino->proc.pid, ino->proc.serial);
}

static void proc_release(struct inode *ino)
{
	struct inode *p = ino->parent;

	ino->parent = 0;
	iput(p);
}

static int proc_lookup(struct inode *dir, const char *name, struct inode **out)
{
	char path[PROC_PATH_MAX + NAME_MAX + 2];
	struct proc_path pp;
	struct task_struct *t;
	int err = 0;

	if (proc_inode_stale(dir))
		return -ESRCH; /* what 6.12 answers for a name in a kept directory of a gone task */
	if (dir->proc.node == PROC_NODE_ROOT && !strcmp(name, "self")) {
		*out = proc_inode(dir, PROC_SELF, 0, 0);
		return *out ? 0 : -ENOMEM;
	}
	if (dir->proc.node == PROC_FD_DIR)
		return proc_fd_lookup(dir, name, out);
	if (dir->proc.node == PROC_TASK_DIR)
		return proc_task_lookup(dir, name, out);
	if (dir->proc.node == PROC_NODE_PID_DIR && !strcmp(name, "task")) {
		if (!find_task_by_pid(dir->proc.pid) || dir->proc.fd == PROC_SUB_TID)
			return -ENOENT;
		*out = proc_inode(dir, PROC_TASK_DIR, dir->proc.pid, 0);
		return *out ? 0 : -ENOMEM;
	}
	if (dir->proc.node == PROC_NODE_PID_DIR && !strcmp(name, "exe")) {
		if (!find_task_by_pid(dir->proc.pid))
			return -ENOENT;
		*out = proc_inode(dir, PROC_EXE_LINK, dir->proc.pid, 0);
		return *out ? 0 : -ENOMEM;
	}
	if (dir->proc.node == PROC_NODE_PID_DIR && !strcmp(name, "fd")) {
		if (!find_task_by_pid(dir->proc.pid))
			return -ENOENT;
		*out = proc_inode(dir, PROC_FD_DIR, dir->proc.pid, 0);
		return *out ? 0 : -ENOMEM;
	}
	proc_path_of(dir, path, PROC_PATH_MAX);
	if (strlen(path) + 1 + strlen(name) >= PROC_PATH_MAX)
		return -ENOENT;
	strlcpy(path + strlen(path), "/", 2);
	strlcpy(path + strlen(path), name, NAME_MAX + 1);
	if (proc_parse_path(path, &pp))
		return -ENOENT;
	if (pp.pid < 0)
		pp.pid =
			0; /* the parser's -1 on a name that is not a pid ("self" is a link here) */
	if (pp.pid) {
		t = find_task_by_pid(pp.pid);
		if (!t)
			return -ENOENT;
		if (pp.node == PROC_NODE_PID_DIR && !proc_pid_visible(t, &err) && err == -ENOENT)
			return -ENOENT;
	}
	*out = proc_inode(dir, pp.node, pp.pid,
			  pp.node == PROC_NODE_SYS_DIR && !strcmp(name, "kernel") ? SUB_KERNEL : 0);
	return *out ? 0 : -ENOMEM;
}

static void put_entry(struct dirent_out *d, const char *name, uint32_t ino, unsigned char type)
{
	strlcpy(d->name, name, sizeof(d->name));
	d->ino = ino;
	d->type = type;
}

static int proc_readdir(struct inode *dir, uint64_t idx, struct dirent_out *d)
{
	uint64_t k = idx - 2;
	int pid = dir->proc.pid, err;
	unsigned int npid = nr_listed_pid_files();

	if (proc_inode_stale(dir))
		return 1;
	switch (dir->proc.node) {
	case PROC_NODE_ROOT:
		/* self, the files, sys, then the processes */
		if (k == 0) {
			put_entry(d, "self", PROC_INO_BASE + PROC_SELF * 2, DT_LNK);
			return 0;
		}
		if (k <= proc_nr_root_files) {
			put_entry(d, proc_root_files[k - 1].name,
				  PROC_INO_BASE + proc_root_files[k - 1].node * 2, DT_REG);
			return 0;
		}
		if (k == proc_nr_root_files + 1) {
			put_entry(d, "sys", PROC_INO_BASE + PROC_NODE_SYS_DIR * 2, DT_DIR);
			return 0;
		}
		k -= proc_nr_root_files + 2;
		/* processes only: a thread's /proc/<tid> resolves but is not listed */
		for (int i = 0; i < NR_TASKS; i++) {
			if (tasks[i].state == TASK_UNUSED || !thread_group_leader(&tasks[i]) ||
			    (!proc_pid_visible(&tasks[i], &err) && err == -ENOENT))
				continue;
			if (k-- == 0) {
				ksnprintf(d->name, sizeof(d->name), "%d", tasks[i].pid);
				d->ino = PROC_INO_BASE + (uint32_t)tasks[i].pid * 64 +
					 PROC_NODE_PID_DIR * 2;
				d->type = DT_DIR;
				return 0;
			}
		}
		return 1;
	case PROC_FD_DIR:
		return proc_fd_readdir(dir, k, d);
	case PROC_TASK_DIR:
		return proc_task_readdir(dir, k, d);
	case PROC_NODE_PID_DIR:
		if (k == npid) {
			put_entry(d, "fd", PROC_INO_BASE + (uint32_t)pid * 64 + PROC_FD_DIR * 2,
				  DT_DIR);
			return 0;
		}
		if (k == npid + 1) {
			put_entry(d, "exe", PROC_INO_BASE + (uint32_t)pid * 64 + PROC_EXE_LINK * 2,
				  DT_LNK);
			return 0;
		}
		if (k == npid + 2 && dir->proc.fd != PROC_SUB_TID) {
			put_entry(d, "task", PROC_INO_BASE + (uint32_t)pid * 64 + PROC_TASK_DIR * 2,
				  DT_DIR);
			return 0;
		}
		if (k >= npid)
			return 1;
		put_entry(d, listed_pid_file(k)->name,
			  PROC_INO_BASE + (uint32_t)pid * 64 + listed_pid_file(k)->node * 2,
			  DT_REG);
		return 0;
	case PROC_NODE_SYS_DIR:
		if (dir->proc.fd != SUB_KERNEL) {
			if (k)
				return 1;
			put_entry(d, "kernel", PROC_INO_BASE + PROC_NODE_SYS_DIR * 2 + SUB_KERNEL,
				  DT_DIR);
			return 0;
		}
		if (k >= 3)
			return 1;
		put_entry(d, sysctl_names[k], PROC_INO_BASE + sysctl_nodes[k] * 2, DT_REG);
		return 0;
	default:
		return 1;
	}
}

long proc_readlink_copy(char *buf, size_t n, const char *link)
{
	size_t len = strlen(link);

	if (len > n)
		len = n;
	memcpy(buf, link, len);
	return (long)len;
}

static long proc_readlink(struct inode *ino, char *buf, size_t n)
{
	char tmp[16];

	if (ino->proc.node == PROC_FD_LINK)
		return proc_fd_readlink(ino, buf, n);
	if (ino->proc.node == PROC_EXE_LINK)
		return proc_exe_readlink(ino, buf, n);
	ksnprintf(tmp, sizeof(tmp), "%d", current->pid);
	return proc_readlink_copy(buf, n, tmp);
}

static long proc_dir_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)kbuf, (void)n, (void)pos;
	return -EISDIR;
}

static const struct file_ops proc_dir_ops = {proc_dir_read, 0, 0};

static long proc_iopen(struct inode *ino, int flags, struct file **out)
{
	char path[PROC_PATH_MAX];

	if (ino->proc.node == PROC_FD_LINK || ino->proc.node == PROC_SELF ||
	    ino->proc.node == PROC_EXE_LINK)
		return -ELOOP; /* reached only with O_NOFOLLOW: the walk follows links */
	if (is_dir(ino->proc.node)) {
		long err;

		*out = file_alloc(&proc_dir_ops, &err);
		return *out ? 0 : err;
	}
	if (proc_inode_stale(ino))
		return -ENOENT;
	proc_path_of(ino, path, sizeof(path));
	return proc_open(path, flags, out);
}

static long proc_d_path(struct inode *ino, char *buf, size_t n)
{
	if (ino->proc.node == PROC_SELF)
		return (long)strlcpy(buf, "/proc/self", n);
	if (ino->proc.node == PROC_FD_LINK)
		return ksnprintf(buf, n, "/proc/%d/fd/%d", ino->proc.pid, ino->proc.fd);
	if (ino->proc.node == PROC_EXE_LINK)
		return ksnprintf(buf, n, "/proc/%d/exe", ino->proc.pid);
	proc_path_of(ino, buf, n);
	return (long)strlen(buf);
}

static const struct inode_ops proc_iops = {
	.lookup = proc_lookup,
	.readdir = proc_readdir,
	.readlink = proc_readlink,
	.open = proc_iopen,
	.release = proc_release,
	.path = proc_d_path,
	.magic = 0x9fa0, /* PROC_SUPER_MAGIC, mounted nosuid,nodev,noexec,relatime */
	.st_flags = ST_VALID | ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_RELATIME,
};

void proc_mount(void)
{
	struct inode *dir, *root;

	if (path_lookup(root_inode, "/proc", LOOKUP_DIR, &dir)) {
		kprintf("aslrbench: no /proc directory to mount /proc on\n");
		return;
	}
	root = proc_inode(0, PROC_NODE_ROOT, 0, 0);
	if (!root) {
		iput(dir);
		return;
	}
	root->refs++; /* mounted: never freed */
	vfs_mount(dir, root);
	iput(dir);
}
