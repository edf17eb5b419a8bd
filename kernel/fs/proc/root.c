/*
 * /proc: lookup and open.  A file's text is generated once into a page (a
 * snapshot, like seq_file's single_open), and every read serves bytes from
 * it by offset, so 1-byte reads return what one big read would.  stat,
 * status and wchan are generated at the first read, with the reader's
 * credentials then (seq_read calls ->show at read time, in 2.6.29's
 * proc_info_read as in 6.6): a descriptor root opened and passed on, or
 * kept across setuid(), shows what its reader may see; the rest at open.
 * maps alone is made anew at every read (seq_file's way, task_mmu.c): it can
 * be longer than a page.
 *
 * Access: hidepid (Linux 3.3) hides other users' pid directories (1: EPERM
 * on their files, 2: ENOENT and absent from listings) from readers that
 * fail ptrace_may_access; maps needs ptrace_may_access (EACCES, at open and
 * at every read); stat and wchan apply the 2009 patch's per-field gate
 * themselves.
 */
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/proc/path.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/security/ptrace.h"

static long generate(int node, struct task_struct *task, char *buf);
static bool read_time(int node);

struct task_struct *proc_task_of(int pid, uint64_t serial)
{
	struct task_struct *t = find_task_by_pid(pid);

	return t && t->serial == serial ? t : 0;
}

static long proc_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	/*
	 * seq_read starts over at offset 0 (seq_read_iter's "ki_pos == 0"
	 * case): a kept descriptor read again from the start shows the file
	 * as it is now, not the first snapshot.
	 */
	if (f->seq && *pos == 0 && read_time(f->node))
		f->pending = true;
	if (f->pending) {
		struct task_struct *task = proc_task_of(f->pid, f->task_serial);
		long len;

		if (!task)
			return -ESRCH; /* proc_single_show's get_pid_task */
		len = generate(f->node, task, f->data);
		if (len < 0)
			return len;
		f->size = (size_t)len < PROC_BUF - 1 ? (size_t)len : PROC_BUF - 1;
		f->pending = false;
	}
	return file_read_snapshot(f, kbuf, n, pos);
}

/* maps: made anew at every read from the file position (task_mmu.c), for the same reader only. */
static long maps_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	struct task_struct *task = proc_task_of(f->pid, f->task_serial);
	long got;

	if (!task)
		return -ESRCH; /* m_start's get_proc_task */
	if (!ptrace_may_access(task, PTRACE_MODE_READ))
		return -EACCES;
	got = proc_pid_maps_read(task, *pos, kbuf, n);
	if (got > 0)
		*pos += (uint64_t)got;
	return got;
}

static long sysctl_write(struct file *f, const char *kbuf, size_t n, uint64_t *pos)
{
	(void)pos;
	return proc_sysctl_write(f->node, kbuf, n);
}

/*
 * fail-nth, as Linux's proc_fail_nth_write: an unsigned number (decimal or
 * 0x hex, a trailing newline allowed) arms the task's N-th allocation from
 * now to fail; 0 disarms.  Reads show the value when the file was opened.
 */
static long fail_nth_write(struct file *f, const char *kbuf, size_t n, uint64_t *pos)
{
	struct task_struct *task = proc_task_of(f->pid, f->task_serial);
	uint64_t v = 0;
	size_t i = 0, len = n;
	unsigned base = 10;

	(void)pos; /* the value is the whole write, wherever the position is */
	if (!task)
		return -ESRCH;
	if (len && kbuf[len - 1] == '\n')
		len--;
	if (len > 2 && kbuf[0] == '0' && (kbuf[1] | 0x20) == 'x') {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		char c = kbuf[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : base == 16 && (c | 0x20) >= 'a' && (c | 0x20) <= 'f'
				     ? (unsigned)((c | 0x20) - 'a' + 10)
				     : 99;

		if (d >= base)
			return -EINVAL;
		v = v * base + d;
		if (v > 0xffffffffULL)
			return -ERANGE;
	}
	task->fail_nth = (unsigned int)v;
	return (long)n;
}

static const struct file_ops proc_ops = {proc_read, 0, 0};
static const struct file_ops sysctl_ops = {proc_read, sysctl_write, 0};
static const struct file_ops fail_nth_ops = {proc_read, fail_nth_write, 0};
static const struct file_ops maps_ops = {maps_read, 0, 0};

/* hidepid: may the reader see this pid's directory at all? */
int proc_pid_visible(struct task_struct *task, int *err)
{
	if (hidepid == 0 || ptrace_may_access(task, PTRACE_MODE_READ))
		return 1;
	*err = hidepid == 2 ? -ENOENT : -EPERM;
	return 0;
}

/*
 * The files Linux 6.6 serves through seq_file (single_open for stat,
 * status, wchan and uptime; seq_open for maps and timer_list), whose
 * seq_lseek refuses SEEK_END; cmdline, the sysctls and fail-nth use
 * generic llseeks that allow it.
 */
static bool is_seq_file(int node)
{
	switch (node) {
	case PROC_NODE_STAT:
	case PROC_NODE_STATUS:
	case PROC_NODE_MAPS:
	case PROC_NODE_WCHAN:
	case PROC_NODE_STATM:
	case PROC_NODE_SYSCALL:
	case PROC_NODE_UPTIME:
	case PROC_NODE_TIMER_LIST:
	case PROC_NODE_KSTAT:
	case PROC_NODE_MEMINFO:
	case PROC_NODE_LOADAVG:
		return true;
	default:
		return false;
	}
}

/* Generated at the first read: the files whose fields depend on the reader. */
static bool read_time(int node)
{
	return node == PROC_NODE_STAT || node == PROC_NODE_STATUS || node == PROC_NODE_WCHAN ||
	       node == PROC_NODE_STATM || node == PROC_NODE_SYSCALL || node == PROC_NODE_ENVIRON;
}

static long generate(int node, struct task_struct *task, char *buf)
{
	switch (node) {
	case PROC_NODE_STAT:
		return proc_pid_stat(task, buf);
	case PROC_NODE_STATUS:
		return proc_pid_status(task, buf);
	case PROC_NODE_MAPS:
		if (!ptrace_may_access(task, PTRACE_MODE_READ))
			return -EACCES;
		/* Its length at open (for SEEK_END); maps_read makes the text. */
		return proc_pid_maps_read(task, 0, 0, (size_t)-1);
	case PROC_NODE_WCHAN:
		return proc_pid_wchan(task, buf);
	case PROC_NODE_CMDLINE:
		return proc_pid_cmdline(task, buf);
	case PROC_NODE_ENVIRON:
		return proc_pid_environ(task, buf);
	case PROC_NODE_STATM:
		return proc_pid_statm(task, buf);
	case PROC_NODE_SYSCALL:
		return proc_pid_syscall(task, buf);
	case PROC_NODE_UPTIME:
		return proc_uptime(buf);
	case PROC_NODE_TIMER_LIST:
		return proc_timer_list(buf);
	case PROC_NODE_KSTAT:
		return proc_stat(buf);
	case PROC_NODE_MEMINFO:
		return proc_meminfo(buf);
	case PROC_NODE_LOADAVG:
		return proc_loadavg(buf);
	case PROC_NODE_RANDOMIZE_VA_SPACE:
	case PROC_NODE_RNG_VARIANT:
	case PROC_NODE_PID_MAX:
		return proc_sysctl_read(node, buf);
	case PROC_NODE_FAIL_NTH:
		return ksnprintf(buf, PROC_BUF, "%u\n", task->fail_nth);
	default:
		return -EISDIR;
	}
}

long proc_open(const char *path, int flags, struct file **out)
{
	struct task_struct *task = 0;
	struct proc_path pp;
	bool sysctl, fail_nth, maps;
	uint64_t page;
	struct file *f;
	long len, ferr;
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
	sysctl = pp.node == PROC_NODE_RANDOMIZE_VA_SPACE || pp.node == PROC_NODE_RNG_VARIANT ||
		 pp.node == PROC_NODE_PID_MAX;
	fail_nth = pp.node == PROC_NODE_FAIL_NTH;
	maps = pp.node == PROC_NODE_MAPS;
	/*
	 * The open's mode bits were checked on the inode (0444 and the like:
	 * only root opens such a file for writing, as on Linux, whose write()
	 * then says EINVAL: no write op).  fail-nth is 0644 and the task's:
	 * others may only read it.
	 */
	if (fail_nth && (flags & O_ACCMODE) != O_RDONLY && task != current &&
	    current->cred.euid != 0)
		return -EACCES;
	page = pmm_alloc_page();
	if (!page)
		return -ENOMEM;
	f = file_alloc(sysctl	  ? &sysctl_ops
		       : fail_nth ? &fail_nth_ops
		       : maps	  ? &maps_ops
				  : &proc_ops,
		       &ferr);
	if (!f) {
		pmm_free_page(page);
		return ferr;
	}
	f->pid = task ? task->pid : 0;
	f->task_serial = task ? task->serial : 0;
	f->data = phys_to_virt(page);
	f->pending = read_time(pp.node);
	len = f->pending ? 0 : generate(pp.node, task, f->data);
	if (len < 0) {
		file_put(f);
		return len;
	}
	/* maps keeps its unused page: a file with data is what read and lseek treat as seekable. */
	f->size = maps || (size_t)len < PROC_BUF - 1 ? (size_t)len : PROC_BUF - 1;
	f->node = pp.node;
	f->seq = is_seq_file(pp.node);
	f->f_flags = (unsigned)flags; /* the access mode decides what read and write may do */
	*out = f;
	return 0;
}

void proc_init_fs(void)
{
	proc_mount();
}
