/*
 * select and pselect6, and an IA-32 task's _newselect and old select
 * (Linux 6.6's fs/select.c: core_sys_select, do_select, do_compat_select).  nfds is clamped to the
 * fd table's size (NR_OPEN, Linux's max_fds), each fd_set is copied as nfds bits rounded up to
 * whole longs, a set bit naming a closed fd is EBADF, and the result sets replace the given ones.
 * The time left goes back into the timeval (select) or the timespec (pselect6), as Linux's
 * poll_select_finish.
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

/*
 * The bytes of an fd_set of n bits: whole longs, 8 bytes, or for an IA-32
 * task whole compat_ulong_t, 4 bytes (compat_get_fd_set: n <= 32 reads one
 * word).  Little-endian, so either lands in the low bits of one uint64_t.
 */
static size_t set_bytes(int n, unsigned word)
{
	return (size_t)((n + 8 * word - 1) / (8 * word)) * word;
}

/* One fd_set of n bits (n <= 64): 0 for a NULL pointer. */
static long get_set(uint64_t uptr, int n, uint64_t *set, unsigned word)
{
	*set = 0;
	if (!uptr || !n)
		return 0;
	if (copy_from_user(set, uptr, set_bytes(n, word)))
		return -EFAULT;
	if (n < 64)
		*set &= (1ULL << n) - 1; /* bits past nfds are not looked at */
	return 0;
}

static long set_set(uint64_t uptr, int n, uint64_t set, unsigned word)
{
	if (!uptr || !n)
		return 0;
	return copy_to_user(uptr, &set, set_bytes(n, word)) ? -EFAULT : 0;
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

/* word: the size of an fd_set's word, 8 (long) or 4 (an IA-32 task's compat_ulong_t). */
static long core_sys_select(int n, uint64_t inp, uint64_t outp, uint64_t exp,
			    struct poll_deadline *d, unsigned word)
{
	struct sel_sets want, res;
	bool timed_out = d->zero;
	long rc = 0;
	int count;

	if (n < 0)
		return -EINVAL;
	if (n > NR_OPEN)
		n = NR_OPEN;
	if (get_set(inp, n, &want.in, word) || get_set(outp, n, &want.out, word) ||
	    get_set(exp, n, &want.ex, word))
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
	if (set_set(inp, n, res.in, word) || set_set(outp, n, res.out, word) ||
	    set_set(exp, n, res.ex, word))
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
	rc = core_sys_select((int)a->a0, a->a1, a->a2, a->a3, &d, 8);
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
	rc = core_sys_select((int)a->a0, a->a1, a->a2, a->a3, &d, 8);
	poll_sigmask_restore(saved, masked, rc);
	if (a->a4 && !d.zero) {
		uint64_t left = poll_deadline_left_ns(&d);

		ts = (struct __kernel_timespec){(int64_t)(left / NSEC), (int64_t)(left % NSEC)};
		copy_to_user(a->a4, &ts, sizeof(ts));
	}
	return rc;
}

/* include/vdso/time32.h's struct old_timeval32 */
struct old_timeval32 {
	int32_t tv_sec, tv_usec;
};

/*
 * do_compat_select (6.6 fs/select.c): an IA-32 task's select, fd_sets of
 * 32-bit words and an old_timeval32 that gets the time left.
 */
static long do_compat_select(int n, uint64_t inp, uint64_t outp, uint64_t exp, uint64_t tvp)
{
	struct poll_deadline d;
	struct old_timeval32 tv;
	long rc;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		if (poll_deadline_set(&d, (int64_t)tv.tv_sec + tv.tv_usec / USEC,
				      (int64_t)(tv.tv_usec % USEC) * (NSEC / USEC)))
			return -EINVAL;
	} else {
		poll_deadline_forever(&d);
	}
	rc = core_sys_select(n, inp, outp, exp, &d, 4);
	if (tvp && !d.zero) {
		uint64_t left = poll_deadline_left_ns(&d);

		tv = (struct old_timeval32){(int32_t)(left / NSEC),
					    (int32_t)((left % NSEC) / 1000)};
		copy_to_user(tvp, &tv, sizeof(tv)); /* a read-only timeval: not updated */
	}
	return rc;
}

/* i386's _newselect (142): compat_sys_select. */
long compat_sys_select(const struct syscall_args *a)
{
	return do_compat_select((int)a->a0, a->a1, a->a2, a->a3, a->a4);
}

/* struct compat_sel_arg_struct: old select's (82) one argument, five 32-bit words. */
struct compat_sel_arg_struct {
	uint32_t n, inp, outp, exp, tvp;
};

/* i386's old select (82): compat_sys_old_select, the arguments in a block. */
long compat_sys_old_select(const struct syscall_args *a)
{
	struct compat_sel_arg_struct s;

	if (copy_from_user(&s, a->a0, sizeof(s)))
		return -EFAULT;
	return do_compat_select((int)s.n, s.inp, s.outp, s.exp, s.tvp);
}
