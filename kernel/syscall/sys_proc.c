/* Process calls: getpid, getppid, fork, exit, wait4, spawn, and the pid list for ps. */
#include "kernel/arch/kernel_lock.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/fs/names.h"
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
	return current->tgid; /* the thread group's id; gettid gives the thread's */
}

long sys_getppid(const struct syscall_args *a)
{
	(void)a;
	/* a thread's parent is its leader's (copy_process) */
	return current->parent ? current->parent->tgid : 0;
}

long sys_fork(const struct syscall_args *a)
{
	(void)a;
	return do_fork(current->regs);
}

/* exit ends the calling thread only; exit_group its whole group. */
long sys_exit(const struct syscall_args *a)
{
	do_exit(W_EXITCODE((int)a->a0));
}

long sys_exit_group(const struct syscall_args *a)
{
	do_group_exit(W_EXITCODE((int)a->a0));
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

/*
 * A struct rusage at uaddr, or i386's struct compat_rusage (put_compat_rusage,
 * 6.6 linux/kernel/compat.c: 32-bit timevals and longs): -EFAULT if not writable.
 */
long put_rusage(uint64_t uaddr, uint64_t utime, uint64_t stime, bool compat)
{
	struct linux_rusage ru;
	struct {
		int32_t utime[2], stime[2], rest[14];
	} ru32;

	rusage_from_ticks(&ru, utime, stime);
	if (!compat)
		return copy_to_user(uaddr, &ru, sizeof(ru)) ? -EFAULT : 0;
	memset(&ru32, 0, sizeof(ru32));
	ru32.utime[0] = (int32_t)ru.ru_utime.tv_sec;
	ru32.utime[1] = (int32_t)ru.ru_utime.tv_usec;
	ru32.stime[0] = (int32_t)ru.ru_stime.tv_sec;
	ru32.stime[1] = (int32_t)ru.ru_stime.tv_usec;
	return copy_to_user(uaddr, &ru32, sizeof(ru32)) ? -EFAULT : 0;
}

static long do_wait4(const struct syscall_args *a, bool ia32)
{
	int pid = (int)a->a0, options = (int)a->a2, status = 0;
	struct wait_opts wo;
	uint64_t ut = 0, st = 0;
	long rc;

	/* Linux 6.6's kernel_wait4 (linux/kernel/exit.c): these options, INT_MIN is ESRCH. */
	if ((unsigned)options &
	    ~(unsigned)(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (pid == (int)0x80000000)
		return -ESRCH;
	/* kernel_wait4's pid rules: < -1 that process group, 0 the caller's, -1 any, > 0 one. */
	wo = (struct wait_opts){.type = pid > 0	    ? WAIT_PID
					: pid == -1 ? WAIT_ALL
						    : WAIT_PGID,
				.id = pid > 0	 ? pid
				      : pid < -1 ? -pid
						 : current->signal->pgid,
				.options = options | WEXITED};
	rc = do_waitid(&wo);
	if (rc <= 0)
		return rc;
	status = wo.exit_code;
	ut = wo.utime;
	st = wo.stime;
	/*
	 * As Linux: do_wait reaps first, then put_user stores the status (EFAULT
	 * for a bad pointer, the child gone all the same), then the rusage.
	 */
	if (a->a1 && copy_to_user(a->a1, &status, sizeof(status)))
		return -EFAULT;
	if (a->a3 && put_rusage(a->a3, ut, st, ia32))
		return -EFAULT;
	return rc;
}

long sys_wait4(const struct syscall_args *a)
{
	return do_wait4(a, false);
}

/* compat_sys_wait4 (6.6 linux/kernel/exit.c): the rusage in i386's layout. */
long compat_sys_wait4(const struct syscall_args *a)
{
	return do_wait4(a, true);
}

/* waitpid(pid, stat_addr, options): wait4 without a rusage (6.6 linux/kernel/exit.c). */
long sys_waitpid(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, a->a1, a->a2, 0, 0, 0};

	return do_wait4(&b, false);
}

/*
 * execve's strings, copied from user memory: the pointers, then the bytes,
 * in one buffer.  [BKL]: one static copy serves every CPU because exec
 * holds the big lock from this copy to the new stack's strings, giving
 * it up only after (mm_put_unlocked, kernel/task/exec.c); get_args
 * asserts it.  Past EXEC_STRINGS_MAX bytes or EXEC_PTRS_MAX pointers: E2BIG.
 */
static char exec_strings[EXEC_STRINGS_MAX];
static char *exec_ptrs[EXEC_PTRS_MAX];

/*
 * Copies the NULL-terminated vector at uptr (NULL: none) into exec_ptrs from
 * *n on; psize: the caller's pointer size (4: an IA-32 program's
 * compat_uptr_t vector, as 6.6's get_user_arg_ptr in a compat execve).
 */
static long copy_strings(uint64_t uptr, int *n, size_t *used, unsigned psize)
{
	int start = *n;

	for (; uptr; (*n)++) {
		uint64_t p = 0;
		long len;

		if (copy_from_user(&p, uptr + psize * (uint64_t)(*n - start), psize))
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

/* do_execveat_common's pr_warn_once for an empty argv */
static void printk_once_empty_argv(const char *prog)
{
	static bool said;

	if (said)
		return;
	said = true;
	kprintf("process '%s' launched '%s' with NULL argv: empty string added\n", current->comm,
		prog);
}

/*
 * The file name (PATH_MAX: ENAMETOOLONG, as getname), argv and envp; argc
 * or -errno, *envc set.  spawn: a NULL argv is {name}, this kernel's
 * convention, and an empty one EINVAL.  execve: an empty or NULL argv runs
 * the program with argv {""}, as Linux 5.18+'s do_execveat_common, so that
 * a program reading argv[1] on does not walk into envp.
 */
static long get_args(const struct syscall_args *a, char *prog, size_t plen, uint64_t uenvp,
		     int *envc, unsigned psize, bool execve)
{
	size_t used = 0;
	int n = 0;
	long argc, rc;

	kernel_lock_assert_held("execve's argument copy");
	rc = strncpy_from_user(prog, a->a0, plen);

	if (rc < 0)
		return rc;
	if (!*prog)
		return -ENOENT;
	*envc = 0;
	if (!a->a1 && !execve) {
		strlcpy(exec_strings, prog, sizeof(exec_strings));
		exec_ptrs[n++] = exec_strings;
		used = strlen(prog) + 1;
		argc = 1;
	} else if ((argc = copy_strings(a->a1, &n, &used, psize)) < 0) {
		return argc;
	}
	if (argc == 0) {
		if (!execve)
			return -EINVAL;
		exec_strings[used] = '\0';
		exec_ptrs[n++] = exec_strings + used++;
		argc = 1;
		printk_once_empty_argv(prog);
	}
	if ((rc = copy_strings(uenvp, &n, &used, psize)) < 0)
		return rc;
	*envc = (int)rc;
	return argc;
}

/*
 * execve and spawn: the file name in a buffer of the call's own
 * (__getname), the arguments in the static copy above; psize: the
 * caller's pointer size.
 */
static long execve_common(const struct syscall_args *a, uint64_t uenvp, unsigned psize, bool execve)
{
	char *name = __getname();
	int envc;
	long argc;

	if (!name)
		return -ENOMEM;
	argc = get_args(a, name, PATH_MAX, uenvp, &envc, psize, execve);
	if (argc >= 0 && execve)
		argc = exec_file(name, exec_ptrs, EXEC_PTRS_MAX, (int)argc, envc);
	else if (argc >= 0)
		argc = spawn_file(name, exec_ptrs, EXEC_PTRS_MAX, (int)argc, 0);
	__putname(name);
	return argc;
}

/*
 * spawn(const char *path, char *const argv[]): argv may be NULL (then argv =
 * {path}); the path is resolved as execve's (kernel/syscall/exec_file.c).
 */
long sys_spawn(const struct syscall_args *a)
{
	return execve_common(a, 0, 8, false);
}

/* execve(path, argv, envp): a file or a #! script (exec_file.c). */
long sys_execve(const struct syscall_args *a)
{
	return execve_common(a, a->a2, 8, true);
}

/* compat_sys_execve (6.6 fs/exec.c): argv and envp are vectors of 32-bit pointers. */
long compat_sys_execve(const struct syscall_args *a)
{
	return execve_common(a, a->a2, 4, true);
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

		if (tasks[i].state == TASK_UNUSED || !thread_group_leader(&tasks[i]) ||
		    (!proc_pid_visible(&tasks[i], &err) && err == -ENOENT))
			continue;
		if (copy_to_user(a->a0 + (uint64_t)n * sizeof(int), &pid, sizeof(pid)))
			return -EFAULT;
		n++;
	}
	return n;
}

/*
 * The clone flags this kernel acts on: the fork family, vfork, threads.
 * CLONE_SYSVSEM is accepted with nothing to share (no System V semaphore
 * undo lists here), CLONE_DETACHED is ignored as Linux ignores it in
 * clone, and CLONE_PTRACE / CLONE_UNTRACED are no-ops without a tracer.
 * Namespaces, pidfds, CLONE_IO, cgroups: EINVAL, with a line in the log.
 */
#define CLONE_SUPPORTED                                                                            \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_PTRACE | CLONE_VFORK |          \
	 CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |        \
	 CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_UNTRACED | CLONE_CHILD_SETTID)

static long clone_unsupported(uint64_t flags)
{
	/* In the log (dmesg), not on the console a program writes to. */
	printk(KERN_DEBUG "clone: flags 0x%lx from %s[%d] not supported: EINVAL\n",
	       (unsigned long)flags, current->comm, current->pid);
	return -EINVAL;
}

/*
 * clone(flags, newsp, parent_tid, child_tid, tls): x86_64's argument order;
 * an IA-32 call's tls is a struct user_desc pointer (clone_req.tls_desc).
 */
static long do_sys_clone(const struct syscall_args *a, bool ia32)
{
	struct clone_req c = {
		.regs = current->regs,
		.flags = a->a0 & ~(uint64_t)CLONE_DETACHED,
		.newsp = a->a1,
		.ptid = a->a2,
		.ctid = a->a3,
		.tls = a->a4,
		.tls_desc = ia32,
	};

	if (a->a0 & ~(uint64_t)(CLONE_SUPPORTED | CSIGNAL))
		return clone_unsupported(a->a0);
	/*
	 * legacy clone: the exit signal as given, unchecked (6.12's clone takes
	 * any CSIGNAL value; only clone3 checks valid_signal), a thread's ignored
	 */
	if (a->a0 & CLONE_THREAD)
		c.flags &= ~(uint64_t)CSIGNAL;
	return do_clone(&c);
}

long sys_clone(const struct syscall_args *a)
{
	return do_sys_clone(a, false);
}

/*
 * i386's clone (CONFIG_CLONE_BACKWARDS, 6.6 linux/kernel/fork.c): flags, newsp,
 * parent_tid, tls, child_tid.
 */
long compat_sys_clone(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, a->a1, a->a2, a->a4, a->a3, 0};

	return do_sys_clone(&b, true);
}

/* include/uapi/linux/sched.h's struct clone_args, sizes VER0 64, VER1 80, VER2 88. */
struct clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};
#define CLONE_ARGS_SIZE_VER0 64
#define CLONE_INTO_CGROUP    0x200000000ULL
#define MAX_PID_NS_LEVEL     32
_Static_assert(sizeof(struct clone_args) == 88, "clone_args VER2 is 88 bytes");

/*
 * clone3(uargs, size), Linux 6.6's copy_clone_args_from_user and
 * clone3_args_valid: a size past a page is E2BIG, below VER0 EINVAL;
 * a bigger struct than ours must have a zero tail (copy_struct_from_user:
 * E2BIG otherwise); a bad pointer is EFAULT.  set_tid (which needs
 * CAP_CHECKPOINT_RESTORE and pid namespaces) and cgroups are EINVAL here.
 * An IA-32 task's clone3 is the same call with the same struct (i386 435
 * is sys_clone3 in 6.6's syscall_32.tbl); its CLONE_SETTLS tls is a struct
 * user_desc pointer, as set_new_tls reads it in an ia32 call.
 */
static long do_clone3(const struct syscall_args *a, bool ia32)
{
	struct clone_args args;
	uint64_t usize = a->a1, uargs = a->a0;
	struct clone_req c = {.regs = current->regs, .tls_desc = ia32};

	if (usize > 4096) /* PAGE_SIZE */
		return -E2BIG;
	if (usize < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	memset(&args, 0, sizeof(args));
	if (copy_from_user(&args, uargs, usize < sizeof(args) ? usize : sizeof(args)))
		return -EFAULT;
	for (uint64_t off = sizeof(args); off < usize; off++) {
		uint8_t b;

		if (copy_from_user(&b, uargs + off, 1))
			return -EFAULT;
		if (b)
			return -E2BIG;
	}
	if (args.set_tid_size > MAX_PID_NS_LEVEL || (!args.set_tid && args.set_tid_size) ||
	    (args.set_tid && !args.set_tid_size))
		return -EINVAL;
	if ((args.exit_signal & ~(uint64_t)CSIGNAL) || args.exit_signal > 64)
		return -EINVAL;
	if ((args.flags & CLONE_INTO_CGROUP) &&
	    (args.cgroup > 0x7fffffff || usize < sizeof(struct clone_args)))
		return -EINVAL;
	/* clone3_args_valid */
	if (args.flags & ~(0xffffffffULL | CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP))
		return -EINVAL;
	if (args.flags & (CLONE_DETACHED | (CSIGNAL & ~0x80ULL))) /* 0x80: CLONE_NEWTIME */
		return -EINVAL;
	if ((args.flags & CLONE_SIGHAND) && (args.flags & CLONE_CLEAR_SIGHAND))
		return -EINVAL;
	if ((args.flags & (CLONE_THREAD | CLONE_PARENT)) && args.exit_signal)
		return -EINVAL;
	if (args.stack ? !args.stack_size || !access_ok(args.stack, args.stack_size)
		       : args.stack_size)
		return -EINVAL;
	if (args.set_tid || (args.flags & ~(uint64_t)(CLONE_SUPPORTED | CLONE_CLEAR_SIGHAND)))
		return clone_unsupported(args.flags);
	c.flags = args.flags | args.exit_signal;
	c.newsp = args.stack ? args.stack + args.stack_size : 0;
	c.ptid = args.parent_tid;
	c.ctid = args.child_tid;
	c.tls = args.tls;
	return do_clone(&c);
}

long sys_clone3(const struct syscall_args *a)
{
	return do_clone3(a, false);
}

long compat_sys_clone3(const struct syscall_args *a)
{
	return do_clone3(a, true);
}

long sys_vfork(const struct syscall_args *a)
{
	struct clone_req c = {.regs = current->regs, .flags = CLONE_VM | CLONE_VFORK | SIGCHLD};

	(void)a;
	return do_clone(&c);
}
