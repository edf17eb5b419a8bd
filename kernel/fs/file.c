/* Open files and the console: see file.h. */
#include "kernel/fs/file.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/tty.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/task/fail_nth.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/sched.h"
#include "kernel/task/task.h"

#define NR_FILES 256

static struct file files[NR_FILES];

struct file *file_alloc(const struct file_ops *ops, long *err)
{
	/* Linux: a failed filp allocation is ENOMEM, a full table ENFILE. */
	*err = -ENOMEM;
	if (should_fail_alloc())
		return 0;
	*err = -ENFILE;
	for (int i = 0; i < NR_FILES; i++) {
		if (files[i].refs)
			continue;
		memset(&files[i], 0, sizeof(files[i]));
		files[i].ops = ops;
		files[i].refs = 1;
		return &files[i];
	}
	return 0;
}

/* Gives back a file from file_alloc that was never used (open's failure paths). */
void file_discard(struct file *f)
{
	f->refs = 0;
}

void file_get(struct file *f)
{
	f->refs++;
}

void file_put(struct file *f)
{
	if (--f->refs > 0)
		return;
	if (f->ops->release)
		f->ops->release(f);
	if (f->data)
		pmm_free_page(virt_to_phys(f->data));
	f->data = 0;
	iput(f->inode);
	f->inode = 0;
}

void files_init(void)
{
	task_file_get = file_get;
	task_file_put = file_put;
}

static bool atomic_pos(const struct file *f)
{
	return f->inode && (S_ISREG(f->inode->mode) || S_ISDIR(f->inode->mode));
}

void file_pos_lock(struct file *f)
{
	if (!atomic_pos(f))
		return;
	mutex_lock(&f->f_pos_lock, file_pos_lock);
}

void file_pos_unlock(struct file *f)
{
	if (!atomic_pos(f))
		return;
	mutex_unlock(&f->f_pos_lock);
}

long file_read_snapshot(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	size_t left;

	if (*pos >= f->size)
		return 0;
	left = f->size - *pos;
	if (n > left)
		n = left;
	memcpy(kbuf, f->data + *pos, n);
	*pos += n;
	return (long)n;
}

static long console_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)pos;
	return n_tty_read(kbuf, n);
}

static long console_write_op(struct file *f, const char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)pos;
	console_write(kbuf, n);
	return (long)n;
}

const struct file_ops console_ops = {console_read, console_write_op, 0};

/* The console: readable when a byte is waiting, always writable (output never blocks). */
bool console_poll(struct file *f, unsigned *mask)
{
	if (f->ops != &console_ops)
		return false;
	*mask = POLLOUT | POLLWRNORM;
	if (n_tty_input_ready())
		*mask |= POLLIN | POLLRDNORM;
	return true;
}
static struct file *the_console;

/* fds 0-2 of the first tasks: one open file, whose inode is /dev/console's. */
struct file *console_file(void)
{
	if (!the_console) {
		long err;
		struct inode *ino = inode_alloc(S_IFCHR | 0600, 0, 0);

		if (!ino)
			return 0;
		ino->rdev = DEV_CONSOLE;
		the_console = file_alloc(&console_ops, &err);
		if (!the_console) {
			iput(ino);
			return 0;
		}
		the_console->inode = ino;
		the_console->f_flags = O_RDWR;
	}
	file_get(the_console);
	return the_console;
}
