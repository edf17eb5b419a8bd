/*
 * writev, as Linux's do_readv_writev: the iovec array is checked whole
 * first (more than UIO_MAXIOV entries or a total past SSIZE_MAX: EINVAL; a
 * bad array or an entry outside the user half: EFAULT), then each entry
 * goes through the ordinary write path; a short write ends the call with
 * the bytes done so far.  iov_loop serves readv the same way.
 */
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/syscall.h"

#define UIO_MAXIOV 1024
#define SSIZE_MAX  0x7fffffffffffffffULL

struct iovec_k {
	uint64_t base, len;
};

long iov_loop(uint64_t fd, uint64_t uiov, uint64_t cnt, syscall_fn rw)
{
	uint64_t total = 0;
	long done = 0;

	if (cnt > UIO_MAXIOV)
		return -EINVAL;
	if (!cnt) { /* nothing to move, but the fd is still checked */
		struct syscall_args none = {fd, 0, 0, 0, 0, 0};

		return rw(&none) < 0 ? rw(&none) : 0;
	}
	if (!access_ok(uiov, cnt * sizeof(struct iovec_k)))
		return -EFAULT;
	for (uint64_t i = 0; i < cnt; i++) {
		struct iovec_k v;

		if (copy_from_user(&v, uiov + i * sizeof(v), sizeof(v)))
			return -EFAULT;
		if (v.len > SSIZE_MAX - total)
			return -EINVAL;
		total += v.len;
		if (v.len && !access_ok(v.base, v.len))
			return -EFAULT;
	}
	for (uint64_t i = 0; i < cnt; i++) {
		struct iovec_k v;
		struct syscall_args one = {fd, 0, 0, 0, 0, 0};
		long n;

		if (copy_from_user(&v, uiov + i * sizeof(v), sizeof(v)))
			return done ? done : -EFAULT;
		if (!v.len)
			continue;
		one.a1 = v.base;
		one.a2 = v.len;
		n = rw(&one);
		if (n < 0)
			return done ? done : n;
		done += n;
		if ((uint64_t)n < v.len)
			break;
	}
	return done;
}

long sys_writev(const struct syscall_args *a)
{
	return iov_loop(a->a0, a->a1, a->a2, sys_write);
}
