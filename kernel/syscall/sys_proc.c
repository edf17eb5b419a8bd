/* Process calls: getpid, getppid, fork, exit, wait4, spawn, and the pid list for ps. */
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/fs/proc/proc.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/binfmt_elf.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/fs/vfs.h"
#include "kernel/arch/timer.h"
#include "kernel/uapi/resource.h"
#include "kernel/uapi/time_types.h"

long sys_getpid(const struct syscall_args *a)
{
	(void)a;
	return current->pid;
}

long sys_getppid(const struct syscall_args *a)
{
	(void)a;
	return current->parent ? current->parent->pid : 0;
}

long sys_fork(const struct syscall_args *a)
{
	(void)a;
	return do_fork(current->regs);
}

long sys_exit(const struct syscall_args *a)
{
	do_exit(W_EXITCODE((int)a->a0));
}

static struct __kernel_old_timeval ticks_to_tv(uint64_t ticks)
{
	unsigned hz = timer_hz();
	struct __kernel_old_timeval tv = {(int64_t)(ticks / hz),
					  (int64_t)((ticks % hz) * 1000000 / hz)};

	return tv;
}

void rusage_from_ticks(struct linux_rusage *ru, uint64_t utime, uint64_t stime)
{
	memset(ru, 0, sizeof(*ru));
	ru->ru_utime = ticks_to_tv(utime);
	ru->ru_stime = ticks_to_tv(stime);
}

long sys_wait4(const struct syscall_args *a)
{
	int pid = (int)a->a0, options = (int)a->a2, status = 0;
	uint64_t ut = 0, st = 0;
	long rc;

	/* Linux 6.6's kernel_wait4 (kernel/exit.c): these options, INT_MIN is ESRCH. */
	if ((unsigned)options &
	    ~(unsigned)(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == (int)0x80000000)
		return -ESRCH;
	rc = do_wait(pid > 0 ? pid : -1, options, &status, &ut, &st);
	if (rc <= 0)
		return rc;
	/*
	 * As Linux: do_wait reaps first, then put_user stores the status (EFAULT
	 * for a bad pointer, the child gone all the same), then the rusage.
	 */
	if (a->a1 && copy_to_user(a->a1, &status, sizeof(status)))
		return -EFAULT;
	if (a->a3) {
		struct linux_rusage ru;

		rusage_from_ticks(&ru, ut, st);
		if (copy_to_user(a->a3, &ru, sizeof(ru)))
			return -EFAULT;
	}
	return rc;
}

/*
 * execve's strings, copied from user memory: the pointers, then the bytes,
 * in one buffer (the kernel is not preemptible, so one static copy serves).
 * Past EXEC_STRINGS_MAX bytes or EXEC_PTRS_MAX pointers: E2BIG.
 */
static char exec_strings[EXEC_STRINGS_MAX];
static char *exec_ptrs[EXEC_PTRS_MAX];

/* Copies the NULL-terminated vector at uptr (NULL: none) into exec_ptrs from *n on. */
static long copy_strings(uint64_t uptr, int *n, size_t *used)
{
	int start = *n;

	for (; uptr; (*n)++) {
		uint64_t p;
		long len;

		if (copy_from_user(&p, uptr + 8 * (uint64_t)(*n - start), 8))
			return -EFAULT;
		if (!p)
			break;
		if (*n == EXEC_PTRS_MAX)
			return -E2BIG;
		len = strncpy_from_user(exec_strings + *used, p, sizeof(exec_strings) - *used);
		if (len < 0)
			return len == -ENAMETOOLONG ? -E2BIG : len;
		exec_ptrs[*n] = exec_strings + *used;
		*used += (size_t)len + 1;
	}
	return *n - start;
}

/*
 * The file name (PATH_MAX: ENAMETOOLONG, as getname), argv (NULL: {name},
 * this kernel's spawn convention) and envp; argc or -errno, *envc set.
 */
static long get_args(const struct syscall_args *a, char *prog, size_t plen, uint64_t uenvp,
		     int *envc)
{
	size_t used = 0;
	int n = 0;
	long argc, rc = strncpy_from_user(prog, a->a0, plen);

	if (rc < 0)
		return rc;
	if (!*prog)
		return -ENOENT;
	*envc = 0;
	if (!a->a1) {
		strlcpy(exec_strings, prog, sizeof(exec_strings));
		exec_ptrs[n++] = exec_strings;
		used = strlen(prog) + 1;
		argc = 1;
	} else if ((argc = copy_strings(a->a1, &n, &used)) < 0) {
		return argc;
	}
	if ((rc = copy_strings(uenvp, &n, &used)) < 0)
		return rc;
	*envc = (int)rc;
	return argc ? argc : -EINVAL;
}

static char exec_filename[PATH_MAX];

/*
 * spawn(const char *path, char *const argv[]): argv may be NULL (then argv =
 * {path}); the path is resolved as execve's (kernel/syscall/exec_file.c).
 */
long sys_spawn(const struct syscall_args *a)
{
	int envc;
	long argc = get_args(a, exec_filename, sizeof(exec_filename), 0, &envc);

	if (argc < 0)
		return argc;
	return spawn_file(exec_filename, exec_ptrs, EXEC_PTRS_MAX, (int)argc, 0);
}

/* execve(path, argv, envp): a file or a #! script (exec_file.c). */
long sys_execve(const struct syscall_args *a)
{
	int envc;
	long argc = get_args(a, exec_filename, sizeof(exec_filename), a->a2, &envc);

	if (argc < 0)
		return argc;
	return exec_file(exec_filename, exec_ptrs, EXEC_PTRS_MAX, (int)argc, envc);
}

/*
 * getdents_pids(int *buf, int max): the live pids in table order; with
 * hidepid=2 the ones the reader may not see are left out (hidepid=1 lists
 * them and denies their files).
 */
long sys_getdents_pids(const struct syscall_args *a)
{
	int n = 0, max = (int)a->a1;

	if (max < 0)
		return -EINVAL;
	if (!access_ok(a->a0, (uint64_t)max * sizeof(int)))
		return -EFAULT;
	for (int i = 0; i < NR_TASKS && n < max; i++) {
		int pid = tasks[i].pid;

		int err;

		if (tasks[i].state == TASK_UNUSED ||
		    (!proc_pid_visible(&tasks[i], &err) && err == -ENOENT))
			continue;
		if (copy_to_user(a->a0 + (uint64_t)n * sizeof(int), &pid, sizeof(pid)))
			return -EFAULT;
		n++;
	}
	return n;
}

/*
 * clone(flags, newsp, parent_tid, child_tid, tls) for the fork family only:
 * glibc's fork (SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID), musl's
 * and posix_spawn's (CLONE_VM | CLONE_VFORK | SIGCHLD), CLONE_PARENT_SETTID.
 * Threads (CLONE_VM without CLONE_VFORK, CLONE_THREAD, CLONE_SETTLS...) and
 * namespaces: EINVAL, with a line saying so.
 */
long sys_clone(const struct syscall_args *a)
{
	uint64_t flags = a->a0, sig = flags & CSIGNAL;
	uint64_t ok = CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | CLONE_CHILD_SETTID |
		      CLONE_CHILD_CLEARTID;

	if ((flags & ~(ok | CSIGNAL)) || (sig && sig != SIGCHLD) ||
	    ((flags & CLONE_VM) && !(flags & CLONE_VFORK))) {
		/* In the log (dmesg), not on the console a program writes to. */
		printk(KERN_DEBUG "clone: flags 0x%lx from %s[%d] not supported (only the fork "
				  "family: no threads yet): EINVAL\n",
		       (unsigned long)flags, current->comm, current->pid);
		return -EINVAL;
	}
	return do_clone(current->regs, flags, a->a1, a->a2, a->a3);
}

long sys_vfork(const struct syscall_args *a)
{
	(void)a;
	return do_clone(current->regs, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0);
}
