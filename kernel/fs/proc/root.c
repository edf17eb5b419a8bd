/*
 * /proc: lookup and open.  A file's text is generated once, at open, into a
 * page (a snapshot, like seq_file's single_open), and every read serves
 * bytes from it by offset, so 1-byte reads return what one big read would.
 *
 * Access: hidepid (Linux 3.3) hides other users' pid directories (1: EPERM
 * on their files, 2: ENOENT and absent from listings) from readers that
 * fail ptrace_may_access; maps needs ptrace_may_access (EACCES); stat and
 * wchan apply the 2009 patch's per-field gate themselves.
 */
#include "kernel/boot/cmdline.h"
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/proc/path.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/security/ptrace.h"

static long proc_read(struct file *f, char *kbuf, size_t n)
{
	return file_read_snapshot(f, kbuf, n);
}

static long sysctl_write(struct file *f, const char *kbuf, size_t n)
{
	return proc_sysctl_write(f->node, kbuf, n);
}

static const struct file_ops proc_ops = {proc_read, 0, 0};
static const struct file_ops sysctl_ops = {proc_read, sysctl_write, 0};

/* hidepid: may the reader see this pid's directory at all? */
int proc_pid_visible(struct task_struct *task, int *err)
{
	if (hidepid == 0 || ptrace_may_access(task, PTRACE_MODE_READ))
		return 1;
	*err = hidepid == 2 ? -ENOENT : -EPERM;
	return 0;
}

static long generate(const struct proc_path *pp, struct task_struct *task, char *buf)
{
	switch (pp->node) {
	case PROC_NODE_STAT:
		return proc_pid_stat(task, buf);
	case PROC_NODE_STATUS:
		return proc_pid_status(task, buf);
	case PROC_NODE_MAPS:
		if (!ptrace_may_access(task, PTRACE_MODE_READ))
			return -EACCES;
		return proc_pid_maps(task, buf);
	case PROC_NODE_WCHAN:
		return proc_pid_wchan(task, buf);
	case PROC_NODE_CMDLINE:
		return proc_pid_cmdline(task, buf);
	case PROC_NODE_UPTIME:
		return proc_uptime(buf);
	case PROC_NODE_TIMER_LIST:
		return proc_timer_list(buf);
	case PROC_NODE_RANDOMIZE_VA_SPACE:
	case PROC_NODE_RNG_VARIANT:
		return proc_sysctl_read(pp->node, buf);
	default:
		return -EISDIR;
	}
}

long proc_open(const char *path, int flags, struct file **out)
{
	struct task_struct *task = 0;
	struct proc_path pp;
	bool sysctl;
	uint64_t page;
	struct file *f;
	long len;
	int rc = proc_parse_path(path, &pp), err = 0;

	if (rc)
		return rc;
	if (proc_node_is_dir(pp.node))
		return -EISDIR;
	if (pp.pid) {
		task = pp.pid < 0 ? current : find_task_by_pid(pp.pid);
		if (!task)
			return -ENOENT;
		if (!proc_pid_visible(task, &err))
			return err;
	}
	sysctl = pp.node == PROC_NODE_RANDOMIZE_VA_SPACE || pp.node == PROC_NODE_RNG_VARIANT;
	if ((flags & O_ACCMODE) != O_RDONLY && !sysctl)
		return -EACCES;
	page = pmm_alloc_page();
	if (!page)
		return -ENOMEM;
	f = file_alloc(sysctl ? &sysctl_ops : &proc_ops);
	if (!f) {
		pmm_free_page(page);
		return -ENFILE;
	}
	f->data = phys_to_virt(page);
	len = generate(&pp, task, f->data);
	if (len < 0) {
		file_put(f);
		return len;
	}
	f->size = (size_t)len < PROC_BUF - 1 ? (size_t)len : PROC_BUF - 1;
	f->node = pp.node;
	*out = f;
	return 0;
}

void proc_init_fs(void)
{
	proc_leak_fix = boot_cmdline.proc_leak_fix;
	hidepid = boot_cmdline.hidepid;
	ptrace_scope = boot_cmdline.ptrace_scope;
	proc_mount();
}
