/*
 * What poll/select see of an open file (Linux 6.6's vfs_poll), and the one
 * wait channel every poller sleeps on.  A poller may wait on many files but
 * a task sleeps on one channel (sched.c), so instead of a wait queue per
 * file there is one generic wake-up: whatever can make a file ready (pipe
 * reads, writes and closes, console input) calls poll_notify(), and every
 * sleeping poller rescans its fds.  Spurious wake-ups cost a rescan; a lost
 * one cannot happen because pollers scan and sleep with interrupts off and
 * the kernel is not preempted.
 */
#ifndef KERNEL_FS_POLL_H
#define KERNEL_FS_POLL_H

#include <stdbool.h>

#include "kernel/fs/file.h"

/* Linux's <asm-generic/poll.h> bits. */
#define POLLIN	   0x0001
#define POLLPRI	   0x0002
#define POLLOUT	   0x0004
#define POLLERR	   0x0008
#define POLLHUP	   0x0010
#define POLLNVAL   0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200

/* Files without a poll of their own (regular, /dev/null, /proc...): always ready. */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* The events ready on f now; never sleeps. */
unsigned vfs_poll(struct file *f);
/* Wakes every task sleeping in poll/select (it rescans). */
void poll_notify(void);
/* The channel pollers sleep on. */
extern const char poll_wait_chan;

/* Per kind of file: false when f is not of that kind. */
bool pipe_poll(struct file *f, unsigned *mask);
bool console_poll(struct file *f, unsigned *mask);
/* The console has a byte to read (the line discipline is raw: see tty.c). */
bool n_tty_input_ready(void);

#endif
