/*
 * select and pselect6 (Linux 6.6's fs/select.c: core_sys_select,
 * do_select).  nfds is clamped to the fd table's size (NR_OPEN, Linux's
 * max_fds), each fd_set is copied as nfds bits rounded up to whole longs,
 * a set bit naming a closed fd is EBADF, and the result sets replace the
 * given ones.  The time left goes back into the timeval (select) or the
 * timespec (pselect6), as Linux's poll_select_finish.
 */
#include "kernel/arch/cpu.h"
#include "kernel/fs/poll.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/poll_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"
#include "kernel/uapi/time_types.h"

#define NSEC	    1000000000LL
#define USEC	    1000000LL
#define POLLIN_SET  (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET  POLLPRI

/* NR_OPEN is 64: one long per set. */
_Static_assert(NR_OPEN == 64, "select's sets are one 64-bit word");

struct sel_sets {
	uint64_t in, out, ex;
};

/* One fd_set of n bits (n <= 64): 0 for a NULL pointer. */
static long get_set(uint64_t uptr, int n, uint64_t *set)
{
	*set = 0;
	if (!uptr || !n)
		return 0;
	if (copy_from_user(set, uptr, sizeof(*set)))
		return -EFAULT;
	if (n < 64)
		*set &= (1ULL << n) - 1; /* bits past nfds are not looked at */
	return 0;
}

static long set_set(uint64_t uptr, int n, uint64_t set)
{
	if (!uptr || !n)
		return 0;
	return copy_to_user(uptr, &set, sizeof(set)) ? -EFAULT : 0;
}

static int scan(const struct sel_sets *want, struct sel_sets *res, int n)
{
	int count = 0;

	*res = (struct sel_sets){0, 0, 0};
	for (int fd = 0; fd < n; fd++) {
		uint64_t bit = 1ULL << fd;
		struct file *f;
		unsigned mask;

		if (!((want->in | want->out | want->ex) & bit) || !(f = fget((uint64_t)fd)))
			continue;
		mask = vfs_poll(f);
		if ((want->in & bit) && (mask & POLLIN_SET)) {
			res->in |= bit;
			count++;
		}
		if ((want->out & bit) && (mask & POLLOUT_SET)) {
			res->out |= bit;
			count++;
		}
		if ((want->ex & bit) && (mask & POLLEX_SET)) {
			res->ex |= bit;
			count++;
		}
	}
	return count;
}

static long core_sys_select(int n, uint64_t inp, uint64_t outp, uint64_t exp,
			    struct poll_deadline *d)
{
	struct sel_sets want, res;
	bool timed_out = d->zero;
	long rc = 0;
	int count;

	if (n < 0)
		return -EINVAL;
	if (n > NR_OPEN)
		n = NR_OPEN;
	if (get_set(inp, n, &want.in) || get_set(outp, n, &want.out) || get_set(exp, n, &want.ex))
		return -EFAULT;
	/* Linux's max_select_fd: every fd named must be open. */
	for (int fd = 0; fd < n; fd++)
		if (((want.in | want.out | want.ex) >> fd & 1) && !fget((uint64_t)fd))
			return -EBADF;
	for (;;) {
		uint64_t flags = irq_save();

		count = scan(&want, &res, n);
		if (count || timed_out) {
			irq_restore(flags);
			break;
		}
		rc = poll_sleep(d, (const void *)core_sys_select);
		timed_out = poll_deadline_passed(d);
		irq_restore(flags);
		if (rc)
			break;
	}
	if (rc)
		return rc;
	if (set_set(inp, n, res.in) || set_set(outp, n, res.out) || set_set(exp, n, res.ex))
		return -EFAULT;
	return count;
}

/* select(nfds, readfds, writefds, exceptfds, timeout): the timeval gets the time left. */
long sys_select(const struct syscall_args *a)
{
	struct poll_deadline d;
	struct __kernel_old_timeval tv;
	long rc;

	if (a->a4) {
		if (copy_from_user(&tv, a->a4, sizeof(tv)))
			return -EFAULT;
		/* As Linux's kern_select: whole seconds in tv_usec are carried over. */
		if (poll_deadline_set(&d, tv.tv_sec + tv.tv_usec / USEC,
				      (tv.tv_usec % USEC) * (NSEC / USEC)))
			return -EINVAL;
	} else {
		poll_deadline_forever(&d);
	}
	rc = core_sys_select((int)a->a0, a->a1, a->a2, a->a3, &d);
	if (a->a4 && !d.zero) {
		uint64_t left = poll_deadline_left_ns(&d);

		tv = (struct __kernel_old_timeval){(int64_t)(left / NSEC),
						   (int64_t)(left % NSEC) / 1000};
		copy_to_user(a->a4, &tv, sizeof(tv)); /* a read-only timeval: not updated */
	}
	return rc;
}

/* pselect6(nfds, r, w, e, timespec, {sigmask *, size} *). */
long sys_pselect6(const struct syscall_args *a)
{
	struct poll_deadline d;
	struct __kernel_timespec ts;
	uint64_t pack[2] = {0, 0}, saved = 0;
	bool masked;
	long rc;

	if (a->a5 && copy_from_user(pack, a->a5, sizeof(pack)))
		return -EFAULT;
	if (a->a4) {
		if (copy_from_user(&ts, a->a4, sizeof(ts)))
			return -EFAULT;
		if (poll_deadline_set(&d, ts.tv_sec, ts.tv_nsec))
			return -EINVAL;
	} else {
		poll_deadline_forever(&d);
	}
	rc = poll_sigmask_set(pack[0], pack[1], &saved, &masked);
	if (rc)
		return rc;
	rc = core_sys_select((int)a->a0, a->a1, a->a2, a->a3, &d);
	poll_sigmask_restore(saved, masked, rc);
	if (a->a4 && !d.zero) {
		uint64_t left = poll_deadline_left_ns(&d);

		ts = (struct __kernel_timespec){(int64_t)(left / NSEC), (int64_t)(left % NSEC)};
		copy_to_user(a->a4, &ts, sizeof(ts));
	}
	return rc;
}
