/*
 * Opening files (Linux 6.6's do_filp_open, fs/open.c and fs/namei.c's
 * open_last_lookups, reduced): O_CREAT, O_EXCL, O_TRUNC, O_APPEND,
 * O_DIRECTORY, O_NOFOLLOW; the ramfs file, directory and character
 * device operations.
 */
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/task/task.h"

extern const struct file_ops console_ops;

static long ramfs_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	struct inode *ino = f->inode;

	if (*pos >= ino->size)
		return 0;
	if (n > ino->size - *pos)
		n = ino->size - *pos;
	memcpy(kbuf, ino->ram.data + *pos, n);
	*pos += n;
	return (long)n;
}

static long ramfs_write(struct file *f, const char *kbuf, size_t n, uint64_t *pos)
{
	struct inode *ino = f->inode;
	uint64_t old_size = ino->size;
	int rc;

	if (f->f_flags & O_APPEND)
		*pos = ino->size;
	/* Linux's generic_write_checks: EFBIG at the limit, a short write before it. */
	if (*pos >= FILE_SIZE_MAX)
		return -EFBIG;
	if (n > FILE_SIZE_MAX - *pos)
		n = FILE_SIZE_MAX - *pos;
	if (*pos + n > ino->size && (rc = ramfs_truncate(ino, *pos + n)))
		return rc;
	if ((rc = ramfs_prepare_write(ino, *pos, n))) {
		ramfs_truncate(ino, old_size); /* a failed write leaves the size as it was */
		return rc;
	}
	memcpy(ino->ram.data + *pos, kbuf, n);
	*pos += n;
	ino->mtime = ino->ctime = vfs_now();
	return (long)n;
}

static long dir_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)kbuf, (void)n, (void)pos;
	return -EISDIR;
}

static long null_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)kbuf, (void)n, (void)pos;
	return 0;
}

static long zero_read(struct file *f, char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)pos;
	memset(kbuf, 0, n);
	return (long)n;
}

static long sink_write(struct file *f, const char *kbuf, size_t n, uint64_t *pos)
{
	(void)f, (void)kbuf, (void)pos;
	return (long)n;
}

static const struct file_ops ramfs_file_ops = {ramfs_read, ramfs_write, 0};
static const struct file_ops dir_ops = {dir_read, 0, 0};
static const struct file_ops null_ops = {null_read, sink_write, 0};
static const struct file_ops zero_ops = {zero_read, sink_write, 0};

/* pre: a file allocated ahead (O_CREAT), used or given back here. */
static long open_inode(struct inode *ino, int flags, struct file *pre, struct file **out)
{
	const struct file_ops *ops;
	struct file *f;
	long rc;

	if (ino->op && ino->op->open) {
		if (pre)
			file_discard(pre);
		rc = ino->op->open(ino, flags, &f);
		if (rc)
			return rc;
	} else {
		switch (ino->mode & S_IFMT) {
		case S_IFREG:
			ops = &ramfs_file_ops;
			break;
		case S_IFDIR:
			ops = &dir_ops;
			break;
		case S_IFCHR:
			ops = ino->rdev == DEV_NULL				 ? &null_ops
			      : ino->rdev == DEV_ZERO				 ? &zero_ops
			      : ino->rdev == DEV_CONSOLE || ino->rdev == DEV_TTY ? &console_ops
										 : 0;
			if (!ops)
				goto nxio;
			break;
		default:
			goto nxio;
		}
		if (pre) {
			f = pre;
			f->ops = ops;
		} else if (!(f = file_alloc(ops, &rc))) {
			return rc;
		}
	}
	iget(ino);
	f->inode = ino;
	f->f_flags = (unsigned)flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
	*out = f;
	return 0;
nxio:
	if (pre)
		file_discard(pre);
	return -ENXIO;
}

long vfs_open_inode(struct inode *ino, int flags, struct file **out)
{
	return open_inode(ino, flags, 0, out);
}

static int acc_mask(int flags)
{
	int acc = flags & O_ACCMODE, mask = 0;

	if (acc == O_RDONLY || acc == O_RDWR)
		mask |= MAY_READ;
	if (acc == O_WRONLY || acc == O_RDWR || (flags & O_TRUNC))
		mask |= MAY_WRITE;
	return mask;
}

/* O_CREAT: the last component is created in its parent unless it exists. */
static int open_create(struct inode *start, const char *path, int flags, uint32_t mode,
		       struct inode **out, bool *created)
{
	char last[NAME_MAX + 1];
	struct inode *dir, *ino;
	bool must_dir;
	long err;
	int rc = path_parent(start, path, &dir, last, &must_dir);

	if (rc)
		return rc;
	if (!last[0] || !strcmp(last, ".") || !strcmp(last, "..") || must_dir) {
		iput(dir);
		return -EISDIR;
	}
	if ((rc = inode_permission(dir, MAY_EXEC)))
		goto out;
	rc = dir->op->lookup ? dir->op->lookup(dir, last, &ino) : -ENOTDIR;
	if (!rc) {
		while (ino->mounted) {
			struct inode *m = ino->mounted;

			iget(m);
			iput(ino);
			ino = m;
		}
		if (flags & O_EXCL) {
			iput(ino);
			rc = -EEXIST;
		} else if (S_ISLNK(ino->mode)) {
			iput(ino);
			rc = (flags & O_NOFOLLOW) ? -ELOOP
						  : path_lookup(dir, last, LOOKUP_FOLLOW, &ino);
			/* A dangling link: Linux creates its target; here ENOENT. */
		}
		if (!rc)
			*out = ino;
		goto out;
	}
	if (rc != -ENOENT)
		goto out;
	if (!dir->ramfs) {
		rc = -EACCES;
		goto out;
	}
	if ((rc = may_create(dir)))
		goto out;
	ino = ramfs_new(S_IFREG | (mode & ~current->fs->umask & 07777), current->cred.fsuid,
			current->cred.fsgid, &err);
	if (!ino) {
		rc = (int)err;
		goto out;
	}
	rc = ramfs_link(dir, last, ino);
	if (rc) {
		iput(ino);
		goto out;
	}
	*created = true;
	*out = ino;
out:
	iput(dir);
	return rc;
}

long do_filp_open(struct inode *start, const char *path, int flags, uint32_t mode,
		  struct file **out)
{
	struct inode *ino;
	struct file *pre = 0;
	bool created = false;
	long rc;

	/*
	 * As Linux's path_openat, the file comes first (alloc_empty_file):
	 * an open that creates cannot then fail for want of one and leave
	 * the new file behind.
	 */
	if ((flags & O_CREAT) && !(pre = file_alloc(0, &rc)))
		return rc;
	if (flags & O_CREAT)
		rc = open_create(start, path, flags, mode, &ino, &created);
	else
		rc = path_lookup(start, path,
				 ((flags & O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
					 ((flags & O_DIRECTORY) ? LOOKUP_DIR : 0),
				 &ino);
	if (rc) {
		if (pre)
			file_discard(pre);
		return rc;
	}
	if (S_ISLNK(ino->mode))
		rc = -ELOOP; /* O_NOFOLLOW on a symlink */
	else if ((flags & O_DIRECTORY) && !S_ISDIR(ino->mode))
		rc = -ENOTDIR;
	else if (S_ISDIR(ino->mode) && (acc_mask(flags) & MAY_WRITE || (flags & O_CREAT)))
		rc = -EISDIR;
	else if (!created)
		rc = inode_permission(ino, acc_mask(flags));
	if (!rc && (flags & O_TRUNC) && inode_lockable(ino)) {
		inode_lock(ino);
		rc = ramfs_truncate(ino, 0);
		inode_unlock(ino);
	}
	if (!rc)
		rc = open_inode(ino, flags, pre, out);
	else if (pre)
		file_discard(pre);
	iput(ino);
	return rc;
}
