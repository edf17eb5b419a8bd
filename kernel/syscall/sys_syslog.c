/*
 * syslog(2): the kernel log, as Linux 6.6's do_syslog (linux/kernel/printk/printk.c).
 *
 * Why: the console is the user's terminal here, so a kernel message printed
 * there lands in the middle of a program's output (an unknown system call's
 * warning split paxtest's result lines).  Messages go to the log; the
 * console shows those below console_loglevel; busybox's dmesg reads the
 * rest through this call.  Permissions are those of dmesg_restrict=0 (the
 * upstream default): anyone may read the whole log and its size, every
 * other action needs CAP_SYSLOG.
 */
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/task/task.h"
#include "kernel/syscall/syscall.h"
#include "kernel/uapi/aslrbench.h"

enum {
	SYSLOG_ACTION_CLOSE,
	SYSLOG_ACTION_OPEN,
	SYSLOG_ACTION_READ,
	SYSLOG_ACTION_READ_ALL,
	SYSLOG_ACTION_READ_CLEAR,
	SYSLOG_ACTION_CLEAR,
	SYSLOG_ACTION_CONSOLE_OFF,
	SYSLOG_ACTION_CONSOLE_ON,
	SYSLOG_ACTION_CONSOLE_LEVEL,
	SYSLOG_ACTION_SIZE_UNREAD,
	SYSLOG_ACTION_SIZE_BUFFER,
};

#define MINIMUM_CONSOLE_LOGLEVEL 1

static uint64_t syslog_pos; /* READ's place: it consumes what it returns */
static uint64_t clear_pos;  /* READ_ALL starts here once CLEAR moved it */
static int saved_console_loglevel = -1;
static int log_chan;

static void wake_readers(void)
{
	wake_up(&log_chan);
}

/* Log bytes [from, end) to the user's buffer in chunks: the count, or -EFAULT. */
static long copy_log(uint64_t ubuf, uint64_t from, uint64_t end)
{
	char chunk[512]; /* the call's own, no buffer shared by every caller (kernel/fs/names.h) */
	uint64_t done = 0;

	while (from + done < end) {
		size_t want = end - from - done < sizeof(chunk) ? end - from - done : sizeof(chunk);
		size_t got = log_copy(from + done, chunk, want);

		if (!got)
			break;
		if (copy_to_user(ubuf + done, chunk, got))
			return -EFAULT;
		done += got;
	}
	return (long)done;
}

/* The start of the first whole line at or after pos. */
static uint64_t line_start(uint64_t pos)
{
	char c;

	if (pos <= log_start())
		return log_start();
	while (pos < log_end() && log_copy(pos - 1, &c, 1) == 1 && c != '\n')
		pos++;
	return pos;
}

static long syslog_read(uint64_t ubuf, int len)
{
	uint64_t end;
	long n;

	log_wake = wake_readers;
	while (syslog_pos >= log_end()) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on_interruptible(&log_chan, 0, (const void *)syslog_read);
	}
	if (syslog_pos < log_start())
		syslog_pos = log_start();
	end = log_end() - syslog_pos > (uint64_t)len ? syslog_pos + (uint64_t)len : log_end();
	n = copy_log(ubuf, syslog_pos, end);
	if (n > 0)
		syslog_pos += (uint64_t)n;
	return n;
}

/* The newest whole lines that fit len, from clear_pos on. */
static long syslog_read_all(uint64_t ubuf, int len, bool clear)
{
	uint64_t end = log_end(), from = clear_pos > log_start() ? clear_pos : log_start();
	long n;

	if (end - from > (uint64_t)len)
		from = line_start(end - (uint64_t)len);
	n = copy_log(ubuf, from, end);
	if (n >= 0 && clear)
		clear_pos = end;
	return n;
}

static bool may_syslog(int type)
{
	if (type == SYSLOG_ACTION_READ_ALL || type == SYSLOG_ACTION_SIZE_BUFFER)
		return true;
	return current->cred.cap_effective & (1ULL << CAP_SYSLOG);
}

long sys_syslog(const struct syscall_args *a)
{
	int type = (int)a->a0, len = (int)a->a2;
	uint64_t ubuf = a->a1;

	if (type < SYSLOG_ACTION_CLOSE || type > SYSLOG_ACTION_SIZE_BUFFER)
		return -EINVAL;
	if (!may_syslog(type))
		return -EPERM;
	switch (type) {
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!ubuf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		if (!access_ok(ubuf, (uint64_t)len))
			return -EFAULT;
		if (type == SYSLOG_ACTION_READ)
			return syslog_read(ubuf, len);
		return syslog_read_all(ubuf, len, type == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR:
		clear_pos = log_end();
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		console_quiet = 0;
		if (saved_console_loglevel == -1)
			saved_console_loglevel = (int)console_loglevel;
		console_loglevel = MINIMUM_CONSOLE_LOGLEVEL;
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel != -1) {
			console_loglevel = (uint32_t)saved_console_loglevel;
			saved_console_loglevel = -1;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel =
			(uint32_t)(len < MINIMUM_CONSOLE_LOGLEVEL ? MINIMUM_CONSOLE_LOGLEVEL : len);
		console_quiet = 0;
		saved_console_loglevel = -1;
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
		return (long)(log_end() - (syslog_pos > log_start() ? syslog_pos : log_start()));
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	default: /* CLOSE, OPEN: nothing to do */
		return 0;
	}
}
