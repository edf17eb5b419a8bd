/*
 * The fd calls (Linux 6.6 numbers and errnos): read, write, pread64,
 * pwrite64, readv, writev, open, openat, close, lseek, dup, dup2, dup3,
 * fcntl, pipe, pipe2, sendfile.  Files are moved in CHUNK-byte pieces through a kernel
 * buffer, so every user pointer goes through copy_from_user/copy_to_user.
 */
#include "kernel/arch/kernel_lock.h"
#include "kernel/fs/names.h"
#include "kernel/fs/pipe.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/task/task.h"

#define CHUNK	   512
#define MAX_RW	   0x7ffff000UL /* Linux's MAX_RW_COUNT */
#define IOV_MAX	   1024
#define SETFL_MASK (O_APPEND | O_NONBLOCK)

struct file *fget(uint64_t fd)
{
	return fd < NR_OPEN ? current->files->fd[fd] : 0;
}

int fd_install(struct file *f, int from, bool cloexec)
{
	kernel_lock_assert_held("fd_install");
	for (int fd = from; fd < NR_OPEN; fd++) {
		if (current->files->fd[fd])
			continue;
		current->files->fd[fd] = f;
		if (cloexec)
			current->files->close_on_exec |= 1ULL << fd;
		else
			current->files->close_on_exec &= ~(1ULL << fd);
		return fd;
	}
	return -EMFILE;
}

/* Whole buffers for regular files and /proc; one short piece for the tty and pipes. */
static bool seekable(const struct file *f)
{
	return f->data || (f->inode && S_ISREG(f->inode->mode));
}

/*
 * A pipe with more bytes in its ring: Linux 6.12's pipe_read hands out all
 * that is buffered, up to the length asked, without waiting for more.
 */
static bool pipe_has_more(struct file *f)
{
	unsigned mask;

	return pipe_poll(f, &mask) && (mask & POLLIN);
}

/*
 * A long read or write gives up the CPU between pages and stops on SIGKILL,
 * as Linux 6.6's generic_perform_write (cond_resched after each page,
 * fatal_signal_pending before it) and filemap_read (cond_resched per batch
 * of folios, filemap_get_pages' fatal_signal_pending) do: a 64 MiB write to
 * a ramfs file from a fresh mapping held the CPU for 3.9 s.  Every call
 * yields, positioned ones too: they move their own offset, never f->pos.
 * True: stop.
 */
static bool rw_resched(uint64_t *steps)
{
	if (++*steps % (PAGE_SIZE / CHUNK))
		return false;
	if (fatal_signal_pending(current))
		return true;
	cond_resched();
	return false;
}

static long do_read(struct file *f, uint64_t ubuf, size_t len, uint64_t *pos)
{
	uint64_t steps = 0;
	char buf[CHUNK];
	size_t done = 0;

	/* Linux 6.6's vfs_read: not opened for reading is EBADF, no read op EINVAL. */
	if ((f->f_flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (!f->ops->read)
		return -EINVAL;
	if (!access_ok(ubuf, len))
		return -EFAULT;
	if (len > MAX_RW)
		len = MAX_RW;
	if (len == 0)
		return 0;
	/* A bad buffer is reported at once, not after the console has input. */
	if (copy_from_user(buf, ubuf, 1) || copy_to_user(ubuf, buf, 1))
		return -EFAULT;
	while (done < len) {
		size_t n = len - done < CHUNK ? len - done : CHUNK;
		long got = f->ops->read(f, buf, n, pos);

		if (got < 0)
			return done ? (long)done : got;
		if (got > 0 && copy_to_user(ubuf + done, buf, (size_t)got))
			return done ? (long)done : -EFAULT;
		done += (size_t)got;
		if ((size_t)got < n || (!seekable(f) && !pipe_has_more(f)) || rw_resched(&steps))
			break;
	}
	return (long)done;
}

static long do_write(struct file *f, uint64_t ubuf, size_t len, uint64_t *pos)
{
	char buf[CHUNK];
	size_t done = 0;
	uint64_t steps = 0;
	bool lock = inode_lockable(f->inode);
	long rc = 0;

	/* Linux 6.6's vfs_write: not opened for writing is EBADF, no write op EINVAL. */
	if ((f->f_flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (!f->ops->write)
		return -EINVAL;
	if (len > MAX_RW)
		len = MAX_RW;
	if (!access_ok(ubuf, len))
		return -EFAULT;
	if (lock)
		inode_lock(f->inode);
	while (done < len) {
		size_t n = len - done < CHUNK ? len - done : CHUNK;
		long w;

		if (copy_from_user(buf, ubuf + done, n)) {
			rc = -EFAULT;
			break;
		}
		w = f->ops->write(f, buf, n, pos);
		if (w < 0) {
			rc = w;
			break;
		}
		done += (size_t)w;
		if (rw_resched(&steps))
			break;
	}
	if (lock)
		inode_unlock(f->inode);
	return done ? (long)done : rc;
}

/*
 * read and write at the file position, held by Linux 6.6's fdget_pos
 * (f_pos_lock) for the whole call: with the call yielding between pages,
 * another task sharing the file waits rather than interleave with it.
 */
long sys_read(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	long rc;

	if (!f)
		return -EBADF;
	file_pos_lock(f);
	rc = do_read(f, a->a1, a->a2, &f->pos);
	file_pos_unlock(f);
	return rc;
}

long sys_write(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	long rc;

	if (!f)
		return -EBADF;
	file_pos_lock(f);
	rc = do_write(f, a->a1, a->a2, &f->pos);
	file_pos_unlock(f);
	return rc;
}

/* pread64/pwrite64: at an offset of their own, leaving the file position alone. */
static long do_positioned(const struct syscall_args *a, bool write)
{
	struct file *f = fget(a->a0);
	int64_t off = (int64_t)a->a3;
	uint64_t pos;

	if (!f)
		return -EBADF;
	if (!seekable(f))
		return -ESPIPE;
	if (off < 0)
		return -EINVAL;
	pos = (uint64_t)off;
	/* O_APPEND stays: Linux's pwrite appends on such a file too (pwrite(2), BUGS). */
	return write ? do_write(f, a->a1, a->a2, &pos) : do_read(f, a->a1, a->a2, &pos);
}

long sys_pread64(const struct syscall_args *a)
{
	return do_positioned(a, false);
}

long sys_pwrite64(const struct syscall_args *a)
{
	return do_positioned(a, true);
}

/*
 * sendfile(out_fd, in_fd, offset, count), after Linux 6.6's do_sendfile and
 * do_splice_direct: EBADF unless in is open for reading and out for
 * writing, EINVAL for an O_APPEND out or a negative offset, at most
 * MAX_RW_COUNT bytes; with an offset the file position stays and *offset
 * moves, without one the position moves.  Here in must be a file with a
 * position (regular, /proc): others give EINVAL, and busybox's cat, the
 * caller that matters, then falls back to read and write.
 */
long sys_sendfile(const struct syscall_args *a)
{
	struct file *out = fget(a->a0), *in = fget(a->a1);
	size_t count = a->a3, done = 0;
	uint64_t off_pos = 0, *ipos, steps = 0;
	bool lock;
	char buf[CHUNK];
	int64_t off;
	long rc = 0;

	if (!in || !out || (in->f_flags & O_ACCMODE) == O_WRONLY ||
	    (out->f_flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (!in->ops->read || !out->ops->write || !seekable(in) || (out->f_flags & O_APPEND))
		return -EINVAL;
	if (a->a2) {
		if (copy_from_user(&off, a->a2, sizeof(off)))
			return -EFAULT;
		if (off < 0)
			return -EINVAL;
		off_pos = (uint64_t)off;
	}
	ipos = a->a2 ? &off_pos : &in->pos;
	if (count > MAX_RW)
		count = MAX_RW;
	if (!a->a2)
		file_pos_lock(in);
	lock = inode_lockable(out->inode);
	if (lock)
		inode_lock(out->inode);
	while (done < count) {
		size_t n = count - done < CHUNK ? count - done : CHUNK;
		long got = in->ops->read(in, buf, n, ipos), w;

		if (got <= 0) {
			rc = got;
			break;
		}
		w = out->ops->write(out, buf, (size_t)got, &out->pos);
		/* What was read but not written goes back to the input. */
		*ipos -= (uint64_t)(got - (w > 0 ? w : 0));
		if (w < 0) {
			rc = w;
			break;
		}
		done += (size_t)w;
		if (w < got || rw_resched(&steps))
			break;
	}
	if (lock)
		inode_unlock(out->inode);
	if (!a->a2)
		file_pos_unlock(in);
	if (a->a2) {
		off = (int64_t)off_pos;
		if (copy_to_user(a->a2, &off, sizeof(off)))
			return -EFAULT;
	}
	return done ? (long)done : rc;
}

struct iovec {
	uint64_t base, len;
};

/* i386's struct compat_iovec: a 32-bit base and length (Linux 6.6 lib/iov_iter.c). */
struct compat_iovec {
	uint32_t base, len;
};

/* The i-th element of the user's vector, either ABI's. */
static int get_iov(uint64_t uvec, uint64_t i, bool ia32, struct iovec *v)
{
	struct compat_iovec c;

	if (!ia32)
		return copy_from_user(v, uvec + i * sizeof(*v), sizeof(*v));
	if (copy_from_user(&c, uvec + i * sizeof(c), sizeof(c)))
		return -EFAULT;
	v->base = c.base;
	v->len = c.len;
	/* copy_compat_iovec_from_user: a negative compat_ssize_t length is EINVAL */
	if ((int32_t)c.len < 0)
		v->len = ~0ULL;
	return 0;
}

static long do_iov(struct file *f, const struct syscall_args *a, bool write, bool ia32)
{
	uint64_t total = 0;
	long done = 0;

	if (a->a2 > IOV_MAX)
		return -EINVAL;
	/* Linux checks every length first: a negative or overflowing sum is EINVAL. */
	for (uint64_t i = 0; i < a->a2; i++) {
		struct iovec v;

		if (get_iov(a->a1, i, ia32, &v))
			return -EFAULT;
		if ((int64_t)v.len < 0 || (total += v.len) > 0x7fffffffffffffffULL)
			return -EINVAL;
		/* and every buffer, before any I/O (rw_copy_check_uvector's access_ok) */
		if (v.len && !access_ok(v.base, v.len))
			return -EFAULT;
	}
	for (uint64_t i = 0; i < a->a2; i++) {
		struct iovec v;
		long rc;

		if (get_iov(a->a1, i, ia32, &v))
			return done ? done : -EFAULT;
		if (!v.len)
			continue;
		rc = write ? do_write(f, v.base, v.len, &f->pos)
			   : do_read(f, v.base, v.len, &f->pos);
		if (rc < 0)
			return done ? done : rc;
		done += rc;
		if ((uint64_t)rc < v.len)
			break;
	}
	return done;
}

/* The whole vector under the position lock, as Linux 6.6's do_readv/do_writev (fdget_pos). */
static long iov_locked(const struct syscall_args *a, bool write, bool ia32)
{
	struct file *f = fget(a->a0);
	long rc;

	if (!f)
		return -EBADF;
	file_pos_lock(f);
	rc = do_iov(f, a, write, ia32);
	file_pos_unlock(f);
	return rc;
}

long sys_readv(const struct syscall_args *a)
{
	return iov_locked(a, false, false);
}

long sys_writev(const struct syscall_args *a)
{
	return iov_locked(a, true, false);
}

/* readv and writev of an IA-32 program: 32-bit iovecs (6.6's compat_sys_readv/writev). */
long compat_sys_readv(const struct syscall_args *a)
{
	return iov_locked(a, false, true);
}

long compat_sys_writev(const struct syscall_args *a)
{
	return iov_locked(a, true, true);
}

static long do_open(int dirfd, uint64_t upath, int flags, uint32_t mode)
{
	struct inode *start;
	struct file *f;
	char *path = __getname();
	long rc;
	int fd;

	if (!path)
		return -ENOMEM;
	if ((rc = getname(path, upath)) < 0 || (rc = at_start(dirfd, path, &start)))
		goto out;
	for (fd = 0; fd < NR_OPEN && current->files->fd[fd]; fd++)
		;
	rc = fd == NR_OPEN ? -EMFILE : do_filp_open(start, path, flags, mode, &f);
	if (!rc)
		rc = fd_install(f, 0, flags & O_CLOEXEC);
out:
	__putname(path);
	return rc;
}

long sys_open(const struct syscall_args *a)
{
	return do_open(AT_FDCWD, a->a0, (int)a->a1, (uint32_t)a->a2);
}

long sys_openat(const struct syscall_args *a)
{
	return do_open((int)a->a0, a->a1, (int)a->a2, (uint32_t)a->a3);
}

long sys_creat(const struct syscall_args *a)
{
	return do_open(AT_FDCWD, a->a0, O_CREAT | O_WRONLY | O_TRUNC, (uint32_t)a->a1);
}

long sys_close(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f)
		return -EBADF;
	current->files->fd[a->a0] = 0;
	current->files->close_on_exec &= ~(1ULL << a->a0);
	file_put(f);
	return 0;
}

static long do_lseek(struct file *f, const struct syscall_args *a)
{
	int64_t off = (int64_t)a->a1;
	uint64_t size;

	if (f->inode && S_ISDIR(f->inode->mode)) {
		/* A directory's position is an entry index: only rewinding makes sense. */
		if (a->a2 != SEEK_SET || off < 0)
			return -EINVAL;
		f->pos = (uint64_t)off;
		return off;
	}
	if (!seekable(f))
		return -ESPIPE;
	size = f->data ? f->size : f->inode->size;
	switch (a->a2) {
	case SEEK_SET:
		break;
	case SEEK_CUR:
		off += (int64_t)f->pos;
		break;
	case SEEK_END:
		if (f->seq)
			return -EINVAL;
		off += (int64_t)size;
		break;
	default:
		return -EINVAL;
	}
	if (off < 0)
		return -EINVAL;
	f->pos = (uint64_t)off;
	return off;
}

/* lseek waits for a read or write in progress on the same file (fdget_pos). */
long sys_lseek(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	long rc;

	if (!f)
		return -EBADF;
	file_pos_lock(f);
	rc = do_lseek(f, a);
	file_pos_unlock(f);
	return rc;
}

/* compat_sys_lseek (6.6 fs/read_write.c): the offset is a signed 32-bit compat_off_t. */
long compat_sys_lseek(const struct syscall_args *a)
{
	struct syscall_args b = *a;

	b.a1 = (uint64_t)(int64_t)(int32_t)a->a1;
	return sys_lseek(&b);
}

#define SEEK_MAX 4 /* SEEK_HOLE: the last whence Linux knows */

/*
 * _llseek(fd, offset_high, offset_low, loff_t *result, whence), Linux 6.6's
 * sys_llseek: the 64-bit position back through result, 0 returned.
 */
long sys_llseek(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	struct syscall_args b = {
		a->a0, ((uint64_t)(uint32_t)a->a1 << 32) | (uint32_t)a->a2, a->a4, 0, 0, 0};
	long off;

	if (!f)
		return -EBADF;
	if ((uint32_t)a->a4 > SEEK_MAX)
		return -EINVAL;
	off = sys_lseek(&b);
	if (off < 0)
		return off;
	return copy_to_user(a->a3, &off, sizeof(off)) ? -EFAULT : 0;
}

/*
 * ia32_pread64 and ia32_pwrite64 (6.6 arch/x86/kernel/sys_ia32.c): the
 * position comes in two 32-bit halves, low first.
 */
long compat_sys_ia32_pread64(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, a->a1, a->a2, ((uint64_t)a->a4 << 32) | (uint32_t)a->a3,
				 0,	0};

	return sys_pread64(&b);
}

long compat_sys_ia32_pwrite64(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, a->a1, a->a2, ((uint64_t)a->a4 << 32) | (uint32_t)a->a3,
				 0,	0};

	return sys_pwrite64(&b);
}

static long do_dup2(uint64_t oldfd, uint64_t newfd, bool cloexec)
{
	struct file *f = fget(oldfd), *old;

	if (!f)
		return -EBADF;
	if (newfd >= NR_OPEN)
		return -EBADF;
	old = current->files->fd[newfd];
	file_get(f);
	current->files->fd[newfd] = f;
	if (cloexec)
		current->files->close_on_exec |= 1ULL << newfd;
	else
		current->files->close_on_exec &= ~(1ULL << newfd);
	if (old)
		file_put(old);
	return (long)newfd;
}

long sys_dup(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	int fd;

	if (!f)
		return -EBADF;
	fd = fd_install(f, 0, false);
	if (fd >= 0)
		file_get(f);
	return fd;
}

long sys_dup2(const struct syscall_args *a)
{
	if (a->a0 == a->a1)
		return fget(a->a0) ? (long)a->a0 : -EBADF;
	return do_dup2(a->a0, a->a1, false);
}

long sys_dup3(const struct syscall_args *a)
{
	if (a->a2 & ~(uint64_t)O_CLOEXEC)
		return -EINVAL;
	if (a->a0 == a->a1)
		return -EINVAL;
	return do_dup2(a->a0, a->a1, a->a2 & O_CLOEXEC);
}

long sys_fcntl(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	int fd;

	if (!f)
		return -EBADF;
	switch (a->a1) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if ((int64_t)a->a2 < 0 || a->a2 >= NR_OPEN)
			return -EINVAL;
		fd = fd_install(f, (int)a->a2, a->a1 == F_DUPFD_CLOEXEC);
		if (fd >= 0)
			file_get(f);
		return fd;
	case F_GETFD:
		return (current->files->close_on_exec >> a->a0) & 1;
	case F_SETFD:
		if (a->a2 & FD_CLOEXEC)
			current->files->close_on_exec |= 1ULL << a->a0;
		else
			current->files->close_on_exec &= ~(1ULL << a->a0);
		return 0;
	case F_GETFL:
		return f->f_flags | O_LARGEFILE;
	case F_SETFL:
		f->f_flags = (f->f_flags & ~SETFL_MASK) | ((unsigned)a->a2 & SETFL_MASK);
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_pipe2(const struct syscall_args *a)
{
	struct file *rd, *wr;
	int fds[2];
	long rc;

	if (a->a1 & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	if (!access_ok(a->a0, sizeof(fds)))
		return -EFAULT;
	rc = do_pipe(&rd, &wr, (int)a->a1);
	if (rc)
		return rc;
	fds[0] = fd_install(rd, 0, a->a1 & O_CLOEXEC);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(wr, 0, a->a1 & O_CLOEXEC);
	if (fds[1] < 0 || copy_to_user(a->a0, fds, sizeof(fds))) {
		rc = fds[1] < 0 ? -EMFILE : -EFAULT;
		if (fds[0] >= 0)
			current->files->fd[fds[0]] = 0;
		if (fds[1] >= 0)
			current->files->fd[fds[1]] = 0;
		file_put(rd);
		file_put(wr);
		return rc;
	}
	return 0;
}

long sys_pipe(const struct syscall_args *a)
{
	struct syscall_args b = {a->a0, 0, 0, 0, 0, 0};

	return sys_pipe2(&b);
}
