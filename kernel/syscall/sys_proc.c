/* Process calls: getpid, getppid, fork, exit, wait4, spawn, and the pid list for ps. */
#include "kernel/lib/errno.h"
#include "kernel/fs/proc/proc.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/syscall/syscall.h"
#include "kernel/arch/timer.h"

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

struct timeval_k {
	int64_t tv_sec, tv_usec;
};

/* struct rusage: utime and stime first, 14 longs after. */
struct rusage_k {
	struct timeval_k utime, stime;
	int64_t rest[14];
};

static struct timeval_k ticks_to_tv(uint64_t ticks)
{
	unsigned hz = timer_hz();
	struct timeval_k tv = {(int64_t)(ticks / hz), (int64_t)((ticks % hz) * 1000000 / hz)};

	return tv;
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
		struct rusage_k ru;

		memset(&ru, 0, sizeof(ru));
		ru.utime = ticks_to_tv(ut);
		ru.stime = ticks_to_tv(st);
		if (copy_to_user(a->a3, &ru, sizeof(ru)))
			return -EFAULT;
	}
	return rc;
}

/* Copies a program name and argv (NULL: {name}) from user memory; argc or -errno. */
static long get_args(const struct syscall_args *a, char *prog, size_t plen, char **argv)
{
	static char names[SPAWN_MAX_ARGS][SPAWN_ARG_LEN];
	int argc = 0;
	long rc = strncpy_from_user(prog, a->a0, plen);

	if (rc < 0)
		return rc == -ENAMETOOLONG ? -ENOENT : rc;
	if (!a->a1) {
		strlcpy(names[0], prog, SPAWN_ARG_LEN);
		argv[argc++] = names[0];
	}
	for (; a->a1; argc++) {
		uint64_t p;

		if (copy_from_user(&p, a->a1 + 8 * (uint64_t)argc, 8))
			return -EFAULT;
		if (!p)
			break;
		if (argc == SPAWN_MAX_ARGS)
			return -E2BIG;
		rc = strncpy_from_user(names[argc], p, SPAWN_ARG_LEN);
		if (rc < 0)
			return rc == -ENAMETOOLONG ? -E2BIG : rc;
		argv[argc] = names[argc];
	}
	return argc ? argc : -EINVAL;
}

/* spawn(const char *name, char *const argv[]): argv may be NULL (then argv = {name}). */
long sys_spawn(const struct syscall_args *a)
{
	char prog[32], *argv[SPAWN_MAX_ARGS];
	long argc = get_args(a, prog, sizeof(prog), argv);

	return argc < 0 ? argc : do_spawn(prog, (int)argc, argv);
}

/* execve(name, argv, envp): a built-in program by name ("/bin/" optional); envp ignored. */
long sys_execve(const struct syscall_args *a)
{
	char prog[40], *argv[SPAWN_MAX_ARGS];
	long argc = get_args(a, prog, sizeof(prog), argv);

	if (argc < 0)
		return argc;
	return do_execve(strncmp(prog, "/bin/", 5) ? prog : prog + 5, (int)argc, argv);
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
