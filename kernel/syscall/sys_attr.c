/*
 * A file's attributes (Linux 6.6 numbers and errnos): chmod, fchmod,
 * fchmodat, chown, fchown, lchown, fchownat, truncate, ftruncate, and
 * fsync/fdatasync (nothing to write back on a ramfs), utimensat.  Only
 * ramfs inodes change: elsewhere (/proc) the answer is EPERM, or EINVAL for
 * truncate.
 */
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"
#include "kernel/uapi/time_types.h"

#define CAP_FOWNER 3

static long chmod_inode(struct inode *ino, uint32_t mode)
{
	if (current->cred.fsuid != ino->uid &&
	    !(current->cred.cap_effective & (1ULL << CAP_FOWNER)))
		return -EPERM;
	if (!ino->ramfs)
		return -EPERM;
	ino->mode = (ino->mode & S_IFMT) | (mode & 07777);
	ino->ctime = vfs_now();
	return 0;
}

static long do_fchmodat(int dirfd, uint64_t upath, uint32_t mode)
{
	struct inode *ino;
	long rc = user_path_at(dirfd, upath, LOOKUP_FOLLOW, &ino);

	if (rc)
		return rc;
	rc = chmod_inode(ino, mode);
	iput(ino);
	return rc;
}

long sys_chmod(const struct syscall_args *a)
{
	return do_fchmodat(AT_FDCWD, a->a0, (uint32_t)a->a1);
}

long sys_fchmodat(const struct syscall_args *a)
{
	return do_fchmodat((int)a->a0, a->a1, (uint32_t)a->a2);
}

long sys_fchmod(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f || !f->inode)
		return -EBADF;
	return chmod_inode(f->inode, (uint32_t)a->a1);
}

static long truncate_inode(struct inode *ino, int64_t len)
{
	long rc;

	if (len < 0)
		return -EINVAL;
	if (S_ISDIR(ino->mode))
		return -EISDIR;
	if (!S_ISREG(ino->mode) || !ino->ramfs)
		return -EINVAL;
	if ((uint64_t)len > FILE_SIZE_MAX)
		return -EFBIG;
	inode_lock(ino); /* not in the middle of another task's write */
	rc = ramfs_truncate(ino, (uint64_t)len);
	inode_unlock(ino);
	return rc;
}

long sys_truncate(const struct syscall_args *a)
{
	struct inode *ino;
	long rc = user_path(a->a0, LOOKUP_FOLLOW, &ino);

	if (rc)
		return rc;
	rc = S_ISDIR(ino->mode) ? -EISDIR : inode_permission(ino, MAY_WRITE);
	if (!rc)
		rc = truncate_inode(ino, (int64_t)a->a1);
	iput(ino);
	return rc;
}

long sys_ftruncate(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f)
		return -EBADF;
	if (!f->inode || (f->f_flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL; /* Linux: not open for writing is EINVAL */
	return truncate_inode(f->inode, (int64_t)a->a1);
}

/* fsync, fdatasync: a ramfs has nothing to write back. */
long sys_fsync(const struct syscall_args *a)
{
	return fget(a->a0) ? 0 : -EBADF;
}

/* sync: the same, for every file (Linux's sync(2) never fails); busybox's poweroff, sync. */
long sys_sync(const struct syscall_args *a)
{
	(void)a;
	return 0;
}

/*
 * chown (Linux's chown_ok/chgrp_ok): root (CAP_CHOWN) sets anything; the
 * owner may only set the group to its own fsgid.  -1 leaves an id alone.
 * S_ISUID/S_ISGID of a regular file are cleared, as notify_change does.
 */
#define CAP_CHOWN 0
static long chown_inode(struct inode *ino, uint32_t uid, uint32_t gid)
{
	const struct cred *c = &current->cred;
	bool cap = c->cap_effective & (1ULL << CAP_CHOWN);

	if (uid != (uint32_t)-1 && uid != ino->uid && !cap)
		return -EPERM;
	if (gid != (uint32_t)-1 && gid != ino->gid && !cap &&
	    (c->fsuid != ino->uid || gid != c->fsgid))
		return -EPERM;
	if (!ino->ramfs)
		return -EPERM;
	if (uid != (uint32_t)-1)
		ino->uid = uid;
	if (gid != (uint32_t)-1)
		ino->gid = gid;
	if (S_ISREG(ino->mode))
		ino->mode &= ~(uint32_t)(S_ISUID | S_ISGID);
	ino->ctime = vfs_now();
	return 0;
}

static long do_fchownat(int dirfd, uint64_t upath, uint32_t uid, uint32_t gid, int flags)
{
	struct inode *ino;
	long rc;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((rc = user_path_at(dirfd, upath, (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW,
			       &ino)))
		return rc;
	rc = chown_inode(ino, uid, gid);
	iput(ino);
	return rc;
}

long sys_chown(const struct syscall_args *a)
{
	return do_fchownat(AT_FDCWD, a->a0, (uint32_t)a->a1, (uint32_t)a->a2, 0);
}

long sys_lchown(const struct syscall_args *a)
{
	return do_fchownat(AT_FDCWD, a->a0, (uint32_t)a->a1, (uint32_t)a->a2, AT_SYMLINK_NOFOLLOW);
}

long sys_fchownat(const struct syscall_args *a)
{
	return do_fchownat((int)a->a0, a->a1, (uint32_t)a->a2, (uint32_t)a->a3, (int)a->a4);
}

long sys_fchown(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f || !f->inode)
		return -EBADF;
	return chown_inode(f->inode, (uint32_t)a->a1, (uint32_t)a->a2);
}

/*
 * utimensat, as Linux 2.6.29's fs/utimes.c (busybox touch needs it; paxtest
 * touches its log): times NULL or both UTIME_NOW set both to now and need
 * the owner, CAP_FOWNER or write permission (EACCES); explicit times need
 * the owner or CAP_FOWNER (EPERM, inode_change_ok); both UTIME_OMIT return
 * 0 before the path is looked at; a path of NULL with a dirfd is futimens.
 * The inodes keep seconds only.
 */
#define UTIME_NOW  ((1L << 30) - 1L)
#define UTIME_OMIT ((1L << 30) - 2L)

static bool nsec_valid(int64_t nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW || (nsec >= 0 && nsec <= 999999999);
}

static long utimes_inode(struct inode *ino, const struct __kernel_timespec *t)
{
	bool owner = current->cred.fsuid == ino->uid ||
		     (current->cred.cap_effective & (1ULL << CAP_FOWNER));
	int64_t now = vfs_now();

	if (t && t[0].tv_nsec == UTIME_NOW && t[1].tv_nsec == UTIME_NOW)
		t = 0;
	if (!t && !owner && inode_permission(ino, MAY_WRITE))
		return -EACCES;
	if (t && !owner)
		return -EPERM;
	if (!ino->ramfs)
		return -EPERM;
	if (!t || t[0].tv_nsec != UTIME_OMIT)
		ino->atime = (!t || t[0].tv_nsec == UTIME_NOW) ? now : t[0].tv_sec;
	if (!t || t[1].tv_nsec != UTIME_OMIT)
		ino->mtime = (!t || t[1].tv_nsec == UTIME_NOW) ? now : t[1].tv_sec;
	ino->ctime = now;
	return 0;
}

long sys_utimensat(const struct syscall_args *a)
{
	int dirfd = (int)a->a0, flags = (int)a->a3;
	struct __kernel_timespec t[2], *tp = 0;
	struct inode *ino;
	long rc;

	if (a->a2) {
		if (copy_from_user(t, a->a2, sizeof(t)))
			return -EFAULT;
		if (t[0].tv_nsec == UTIME_OMIT && t[1].tv_nsec == UTIME_OMIT)
			return 0;
		if (!nsec_valid(t[0].tv_nsec) || !nsec_valid(t[1].tv_nsec))
			return -EINVAL;
		tp = t;
	}
	if (flags & ~AT_SYMLINK_NOFOLLOW)
		return -EINVAL;
	if (!a->a1 && dirfd != AT_FDCWD) {
		struct file *f = fget((uint64_t)(int64_t)dirfd);

		if (flags)
			return -EINVAL;
		if (!f || !f->inode)
			return -EBADF;
		return utimes_inode(f->inode, tp);
	}
	if ((rc = user_path_at(dirfd, a->a1, (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW,
			       &ino)))
		return rc;
	rc = utimes_inode(ino, tp);
	iput(ino);
	return rc;
}
