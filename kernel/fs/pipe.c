/*
 * Pipes (Linux 6.6's fs/pipe.c, reduced): a one-page ring per pipe.  A read
 * sleeps while the pipe is empty and a writer remains, and returns 0 (EOF)
 * once every write end is closed; a write sleeps while the ring is full and
 * sends SIGPIPE and fails with EPIPE when no read end is left.  O_NONBLOCK
 * gives EAGAIN instead of sleeping; a signal ends a sleep with -ERESTARTSYS.
 * Each end is one struct file, so fork and dup share it and the counts
 * change only when its last reference goes.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/fs/pipe.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/task/fail_nth.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/task/task.h"

#define PIPE_BUF_SIZE PAGE_SIZE
#define NR_PIPES      64

struct pipe {
	char *buf;
	uint64_t head, tail; /* bytes written, read */
	int readers, writers;
	bool used;
};

static struct pipe pipes[NR_PIPES];

static long pipe_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	kernel_lock_assert_held("pipe_read");
	(void)pos; /* a pipe has no position */
	struct pipe *p = f->inode->priv;
	size_t got = 0;

	while (p->head == p->tail) {
		if (!p->writers)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on_interruptible(p, 0, (const void *)pipe_read);
	}
	while (got < n && p->tail != p->head) {
		kbuf[got++] = p->buf[p->tail % PIPE_BUF_SIZE];
		p->tail++;
	}
	wake_up(p);
	poll_notify();
	return (long)got;
}

static long pipe_write(struct file *f, const char *kbuf, size_t n, uint64_t *pos)
{
	kernel_lock_assert_held("pipe_write");
	(void)pos;
	struct pipe *p = f->inode->priv;
	size_t done = 0;

	for (;;) {
		if (!p->readers) {
			/* As Linux's pipe_write: SIGPIPE to the writer, then EPIPE. */
			send_sig(SIGPIPE, current);
			return -EPIPE;
		}
		if (p->head - p->tail < PIPE_BUF_SIZE)
			break;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on_interruptible(p, 0, (const void *)pipe_write);
	}
	while (done < n && p->head - p->tail < PIPE_BUF_SIZE) {
		p->buf[p->head % PIPE_BUF_SIZE] = kbuf[done++];
		p->head++;
	}
	wake_up(p);
	poll_notify();
	return (long)done;
}

static void pipe_release(struct file *f)
{
	struct pipe *p = f->inode->priv;

	if ((f->f_flags & O_ACCMODE) == O_RDONLY)
		p->readers--;
	else
		p->writers--;
	wake_up(p);
	poll_notify();
}

static void pipe_inode_release(struct inode *ino)
{
	struct pipe *p = ino->priv;

	pmm_free_page(virt_to_phys(p->buf));
	p->used = false;
}

static const struct file_ops pipe_read_ops = {pipe_read, 0, pipe_release};
static const struct file_ops pipe_write_ops = {0, pipe_write, pipe_release};

/*
 * Linux 6.6's pipe_poll: the read end is readable when the ring holds data
 * and hung up (POLLHUP, not POLLIN) once no writer is left; the write end
 * is writable while the ring has room and in error (POLLERR) once no
 * reader is left.
 */
bool pipe_poll(struct file *f, unsigned *mask)
{
	struct pipe *p;

	if (f->ops != &pipe_read_ops && f->ops != &pipe_write_ops)
		return false;
	p = f->inode->priv;
	*mask = 0;
	if (f->ops == &pipe_read_ops) {
		if (p->head != p->tail)
			*mask |= POLLIN | POLLRDNORM;
		if (!p->writers)
			*mask |= POLLHUP;
	} else {
		if (p->head - p->tail < PIPE_BUF_SIZE)
			*mask |= POLLOUT | POLLWRNORM;
		if (!p->readers)
			*mask |= POLLERR;
	}
	return true;
}
static const struct inode_ops pipe_iops = {
	.release = pipe_inode_release,
	.magic = 0x50495045, /* PIPEFS_MAGIC */
	.st_flags = ST_VALID,
};

long do_pipe(struct file **rd, struct file **wr, int flags)
{
	struct pipe *p = 0;
	long err;
	struct inode *ino;
	uint64_t page;

	/*
	 * As Linux 6.6's create_pipe_files: whatever get_pipe_inode needs (the
	 * pipe slot, its ring page, the inode) failing is ENFILE; a file is
	 * ENOMEM (alloc_file_pseudo).  The slot is a fault site of fail-nth
	 * (Linux's alloc_pipe_info kzalloc), the page and the inode are too.
	 */
	if (should_fail_alloc())
		return -ENFILE;
	for (int i = 0; i < NR_PIPES && !p; i++)
		if (!pipes[i].used)
			p = &pipes[i];
	if (!p)
		return -ENFILE;
	page = pmm_alloc_page();
	if (!page)
		return -ENFILE;
	ino = inode_alloc(S_IFIFO | 0600, &pipe_iops, 0);
	if (!ino) {
		pmm_free_page(page);
		return -ENFILE;
	}
	*p = (struct pipe){.buf = phys_to_virt(page), .used = true};
	ino->priv = p;
	ino->uid = current->cred.fsuid;
	ino->gid = current->cred.fsgid;
	*rd = file_alloc(&pipe_read_ops, &err);
	if (!*rd) {
		iput(ino); /* frees the page through pipe_inode_release */
		return err;
	}
	(*rd)->inode = ino;
	(*rd)->f_flags = O_RDONLY | (flags & O_NONBLOCK);
	p->readers = 1;
	*wr = file_alloc(&pipe_write_ops, &err);
	if (!*wr) {
		file_put(*rd);
		return err;
	}
	iget(ino);
	(*wr)->inode = ino;
	(*wr)->f_flags = O_WRONLY | (flags & O_NONBLOCK);
	p->writers = 1;
	return 0;
}
