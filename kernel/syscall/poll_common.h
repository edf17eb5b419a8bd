/* What poll/ppoll (sys_poll.c) and select/pselect6 (sys_select.c) share. */
#ifndef KERNEL_SYSCALL_POLL_COMMON_H
#define KERNEL_SYSCALL_POLL_COMMON_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A poll/select deadline: none (wait forever), zero (do not sleep), or an
 * end time on the clock clock_gettime reads (tsc_to_ns).  Sleeps are timed
 * in jiffies, but the deadline passes by that clock only: ticks that QEMU
 * delivers late and then in a burst must not end a timeout early.
 */
struct poll_deadline {
	bool forever, zero;
	uint64_t end_ns;
};

/* Linux's poll_select_set_timeout: -EINVAL for a negative or unnormalised time. */
int poll_deadline_set(struct poll_deadline *d, int64_t sec, int64_t nsec);
void poll_deadline_forever(struct poll_deadline *d);
bool poll_deadline_passed(const struct poll_deadline *d);
/* What is left of it, in ns (0 once passed). */
uint64_t poll_deadline_left_ns(const struct poll_deadline *d);
/*
 * One sleep of a poller that found nothing ready: until poll_notify() or
 * the deadline.  Called with interrupts off, after the scan.
 * -ERESTARTNOHAND when a signal is pending (sleep_interrupted), else 0.
 */
long poll_sleep(const struct poll_deadline *d, const void *wchan);

/*
 * ppoll's and pselect6's sigmask: installed for the wait and put back after
 * it, as Linux's set_user_sigmask / restore_saved_sigmask_unless (kept for
 * the handler when rc says a signal interrupted the wait).  -EINVAL for a
 * size other than 8, -EFAULT.
 */
long poll_sigmask_set(uint64_t umask, uint64_t size, uint64_t *saved, bool *set);
void poll_sigmask_restore(uint64_t saved, bool set, long rc);

#endif
