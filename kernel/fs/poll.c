/* vfs_poll and the pollers' wake-up: see poll.h. */
#include "kernel/fs/poll.h"
#include "kernel/task/sched.h"

const char poll_wait_chan;

unsigned vfs_poll(struct file *f)
{
	unsigned mask;

	if (pipe_poll(f, &mask) || console_poll(f, &mask))
		return mask;
	return DEFAULT_POLLMASK; /* as Linux's vfs_poll for a file without ->poll */
}

void poll_notify(void)
{
	wake_up(&poll_wait_chan);
}
