/* read, write, open, close, lseek: through the fd table and struct file. */
#include "kernel/lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/task.h"
#include "kernel/syscall/syscall.h"

#define CHUNK  512
#define MAX_RW (1UL << 30)

static struct file *fget(uint64_t fd)
{
	return fd < NR_OPEN ? current->files[fd] : 0;
}

long sys_read(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	char buf[CHUNK];
	size_t n = a->a2 < CHUNK ? a->a2 : CHUNK;
	long got;

	/* Linux 6.6's vfs_read: not opened for reading is EBADF, no read op EINVAL. */
	if (!f || !(f->f_mode & FMODE_READ))
		return -EBADF;
	if (!f->ops->read)
		return -EINVAL;
	if (!access_ok(a->a1, a->a2))
		return -EFAULT;
	if (a->a2 == 0)
		return 0;
	/*
	 * Touch the first byte of the buffer before a read that may sleep: a bad
	 * buffer is reported at once instead of after the console has input.
	 */
	if (copy_from_user(buf, a->a1, 1) || copy_to_user(a->a1, buf, 1))
		return -EFAULT;
	/* One chunk per call: a short read is allowed, and a console read returns early. */
	got = f->ops->read(f, buf, n);
	if (got > 0 && copy_to_user(a->a1, buf, (size_t)got))
		return -EFAULT;
	return got;
}

long sys_write(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	char buf[CHUNK];
	size_t done = 0, len = a->a2 > MAX_RW ? MAX_RW : a->a2;

	/* Linux 6.6's vfs_write: not opened for writing is EBADF, no write op EINVAL. */
	if (!f || !(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!f->ops->write)
		return -EINVAL;
	if (!access_ok(a->a1, len))
		return -EFAULT;
	while (done < len) {
		size_t n = len - done < CHUNK ? len - done : CHUNK;
		long w;

		if (copy_from_user(buf, a->a1 + done, n))
			return done ? (long)done : -EFAULT;
		w = f->ops->write(f, buf, n);
		if (w < 0)
			return done ? (long)done : w;
		done += (size_t)w;
	}
	return (long)done;
}

long sys_open(const struct syscall_args *a)
{
	char path[PATH_MAX_LEN];
	struct file *f;
	long rc = strncpy_from_user(path, a->a0, sizeof(path));
	int fd;

	if (rc < 0)
		return rc;
	for (fd = 0; fd < NR_OPEN && current->files[fd]; fd++)
		;
	if (fd == NR_OPEN)
		return -EMFILE;
	rc = vfs_open(path, (int)a->a1, &f);
	if (rc)
		return rc;
	current->files[fd] = f;
	return fd;
}

long sys_close(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f)
		return -EBADF;
	current->files[a->a0] = 0;
	file_put(f);
	return 0;
}

long sys_lseek(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);
	int64_t off = (int64_t)a->a1;

	if (!f)
		return -EBADF;
	if (!f->data)
		return -ESPIPE;
	switch (a->a2) {
	case 0: /* SEEK_SET */
		break;
	case 1: /* SEEK_CUR */
		off += (int64_t)f->pos;
		break;
	case 2: /* SEEK_END */
		off += (int64_t)f->size;
		break;
	default:
		return -EINVAL;
	}
	if (off < 0)
		return -EINVAL;
	f->pos = (uint64_t)off;
	return off;
}
