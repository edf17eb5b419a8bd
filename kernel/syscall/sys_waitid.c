/*
 * waitid(which, id, infop, options, rusage), as Linux 6.6's (linux/kernel/exit.c:
 * kernel_waitid and SYSCALL_DEFINE5(waitid)).  The siginfo gets si_signo
 * SIGCHLD, si_code CLD_EXITED/CLD_KILLED/CLD_DUMPED/CLD_STOPPED/CLD_CONTINUED,
 * si_pid, si_uid (the child's real uid) and si_status (the exit code or the
 * signal); with WNOHANG and no child ready the call returns 0 and those
 * fields are all zero.  As Linux, infop is written whatever the result, ECHILD included.
 */
#include <stddef.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/process.h"
#include "kernel/uapi/resource.h"
#include "kernel/uapi/signal.h"

#define P_ALL	     0
#define P_PID	     1
#define P_PGID	     2
#define SIGINFO_SIZE 128 /* sizeof(siginfo_t): checked whole, as user_write_access_begin */

/* waitid stores siginfo_t's fields up to si_status (x86_64 offsets 0 to 28), as Linux's. */
#define WAITID_SIGINFO_BYTES (offsetof(struct siginfo, chld.status) + sizeof(int32_t))

static long kernel_waitid(int which, int id, int options, struct wait_opts *wo)
{
	if ((unsigned)options & ~(unsigned)(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED |
					    __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	*wo = (struct wait_opts){.options = options, .id = id};
	switch (which) {
	case P_ALL:
		wo->type = WAIT_ALL;
		break;
	case P_PID:
		if (id <= 0)
			return -EINVAL;
		wo->type = WAIT_PID;
		break;
	case P_PGID:
		if (id < 0)
			return -EINVAL;
		wo->type = WAIT_PGID;
		if (!id)
			wo->id = current->signal->pgid;
		break;
	default: /* P_PIDFD too: this kernel has no pidfds */
		return -EINVAL;
	}
	return do_waitid(wo);
}

long sys_waitid(const struct syscall_args *a)
{
	struct wait_opts wo;
	struct siginfo si;
	long err = kernel_waitid((int)a->a0, (int)a->a1, (int)a->a3, &wo);

	memset(&si, 0, sizeof(si));
	if (err > 0) {
		err = 0;
		si.si_signo = SIGCHLD;
		si.chld.pid = wo.pid;
		si.chld.uid = wo.uid;
		si.si_code = wo.why;
		si.chld.status = wo.status;
		if (a->a4) {
			struct linux_rusage ru;

			rusage_from_ticks(&ru, wo.utime, wo.stime);
			if (copy_to_user(a->a4, &ru, sizeof(ru)))
				return -EFAULT;
		}
	}
	if (!a->a2)
		return err;
	if (!access_ok(a->a2, SIGINFO_SIZE) || copy_to_user(a->a2, &si, WAITID_SIGINFO_BYTES))
		return -EFAULT;
	return err;
}
