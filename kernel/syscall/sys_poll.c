/*
 * poll and ppoll (Linux 6.6's fs/select.c: do_sys_poll, do_pollfd), and
 * the deadline, sleep and sigmask helpers select shares.  Every file is
 * asked vfs_poll (fs/poll.c); a poller that finds nothing ready sleeps on
 * the one poll channel until a pipe or the console changes, or its
 * deadline, and scans again: no busy wait.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/tsc.h"
#include "kernel/fs/poll.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/poll_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/uapi/time_types.h"

#define MAX_SECONDS 1000000 /* about 11 days, as nanosleep's clamp: longer than any run */
/* The sigmask bits no mask can block (Linux's sigdelsetmask(SIGKILL|SIGSTOP)). */
#define UNBLOCKABLE ((1ULL << (9 - 1)) | (1ULL << (19 - 1)))

struct pollfd_k {
	int32_t fd;
	int16_t events, revents;
};

int poll_deadline_set(struct poll_deadline *d, int64_t sec, int64_t nsec)
{
	uint64_t ns;

	if (sec < 0 || nsec < 0 || nsec >= (int64_t)NSEC_PER_SEC)
		return -EINVAL;
	if (sec > MAX_SECONDS)
		sec = MAX_SECONDS;
	ns = (uint64_t)sec * NSEC_PER_SEC + (uint64_t)nsec;
	d->forever = false;
	d->zero = ns == 0;
	d->end_ns = ktime_get_ns() + ns;
	return 0;
}

void poll_deadline_forever(struct poll_deadline *d)
{
	*d = (struct poll_deadline){.forever = true};
}

bool poll_deadline_passed(const struct poll_deadline *d)
{
	return d->zero || (!d->forever && ktime_get_ns() >= d->end_ns);
}

uint64_t poll_deadline_left_ns(const struct poll_deadline *d)
{
	uint64_t now = ktime_get_ns();

	return d->forever || d->zero || now >= d->end_ns ? 0 : d->end_ns - now;
}

long poll_sleep(const struct poll_deadline *d, const void *wchan)
{
	/*
	 * Linux 6.6's do_poll/do_select: -ERESTARTNOHAND, EINTR once a handler
	 * ran, else the call restarts (Linux's poll restarts through its
	 * restart_block with the time left; here with the timeout it was given).
	 */
	if (sleep_interrupted())
		return -ERESTARTNOHAND;
	if (d->forever) {
		sleep_on_interruptible(&poll_wait_chan, 0, wchan);
		return 0;
	}
	/* an early end just sleeps again (the caller's loop) */
	sleep_on_interruptible(&poll_wait_chan, jiffies_for_deadline(d->end_ns), wchan);
	return 0;
}

long poll_sigmask_set(uint64_t umask, uint64_t size, uint64_t *saved, bool *set)
{
	uint64_t mask;

	*set = false;
	if (!umask)
		return 0;
	if (size != sizeof(uint64_t))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	*saved = current->sigmask;
	*set = true;
	current->sigmask = mask & ~UNBLOCKABLE;
	return 0;
}

/*
 * Linux's restore_saved_sigmask_unless: interrupted by a signal, the call's
 * mask stays for the handler and the old one comes back after it
 * (restore_sigmask); otherwise it comes back now.
 */
void poll_sigmask_restore(uint64_t saved, bool set, long rc)
{
	struct task_struct *t = current;

	if (!set)
		return;
	if (rc == -ERESTARTNOHAND) {
		t->saved_sigmask = saved;
		t->restore_sigmask = true;
		return;
	}
	t->sigmask = saved;
}

/* Linux's do_pollfd: a negative fd is skipped, a closed one is POLLNVAL. */
static unsigned pollfd_revents(const struct pollfd_k *p)
{
	struct file *f;

	if (p->fd < 0)
		return 0;
	f = fget((uint64_t)(uint32_t)p->fd);
	if (!f)
		return POLLNVAL;
	return vfs_poll(f) & ((uint16_t)p->events | POLLERR | POLLHUP);
}

static long do_sys_poll(uint64_t ufds, uint64_t nfds, struct poll_deadline *d)
{
	/*
	 * The pollfds, copied in once: at most NR_OPEN of them (512 bytes), since
	 * nfds above RLIMIT_NOFILE (NR_OPEN here: see sys_linux.c) is EINVAL.  On
	 * the stack, not static: another task may poll while this one sleeps.
	 */
	struct pollfd_k pfds[NR_OPEN];
	long count, rc = 0;
	bool timed_out = d->zero;

	if (nfds > NR_OPEN)
		return -EINVAL;
	if (copy_from_user(pfds, ufds, nfds * sizeof(pfds[0])))
		return -EFAULT;
	/* As Linux's do_poll: scan, then sleep; after the deadline, one last scan. */
	for (;;) {
		uint64_t flags = irq_save();

		count = 0;
		for (uint64_t i = 0; i < nfds; i++) {
			pfds[i].revents = (int16_t)pollfd_revents(&pfds[i]);
			count += pfds[i].revents != 0;
		}
		if (count || timed_out) {
			irq_restore(flags);
			break;
		}
		rc = poll_sleep(d, (const void *)do_sys_poll);
		timed_out = poll_deadline_passed(d);
		irq_restore(flags);
		if (rc)
			break;
	}
	/* The revents go back whatever the result (all zero on a timeout or EINTR). */
	for (uint64_t i = 0; i < nfds; i++)
		if (copy_to_user(ufds + i * sizeof(pfds[0]) + 6, &pfds[i].revents, 2))
			return -EFAULT;
	return rc ? rc : count;
}

/* poll(fds, nfds, timeout_ms): a negative timeout waits forever. */
long sys_poll(const struct syscall_args *a)
{
	struct poll_deadline d;
	int ms = (int)a->a2;

	if (ms < 0)
		poll_deadline_forever(&d);
	else
		poll_deadline_set(&d, ms / 1000, (int64_t)(ms % 1000) * 1000000);
	return do_sys_poll(a->a0, a->a1, &d);
}

/* ppoll(fds, nfds, tsp, sigmask, sigsetsize): the time left is written back to *tsp. */
long sys_ppoll(const struct syscall_args *a)
{
	struct poll_deadline d;
	struct __kernel_timespec ts;
	uint64_t saved = 0;
	bool masked;
	long rc;

	if (a->a2) {
		if (copy_from_user(&ts, a->a2, sizeof(ts)))
			return -EFAULT;
		if (poll_deadline_set(&d, ts.tv_sec, ts.tv_nsec))
			return -EINVAL;
	} else {
		poll_deadline_forever(&d);
	}
	rc = poll_sigmask_set(a->a3, a->a4, &saved, &masked);
	if (rc)
		return rc;
	rc = do_sys_poll(a->a0, a->a1, &d);
	poll_sigmask_restore(saved, masked, rc);
	/* Linux's poll_select_finish: no update for a zero timeout; a failed copy is ignored. */
	if (a->a2 && !d.zero) {
		uint64_t left = poll_deadline_left_ns(&d);

		ts = (struct __kernel_timespec){(int64_t)(left / NSEC_PER_SEC),
						(int64_t)(left % NSEC_PER_SEC)};
		copy_to_user(a->a2, &ts, sizeof(ts));
	}
	return rc;
}
