/*
 * stat, fstat, lstat, newfstatat, getdents64, readlink(at), getcwd,
 * access/faccessat(2), ioctl on the console (Linux 6.6 numbers, struct stat
 * in kernel/uapi/stat.h), and the shared helpers of
 * fs_common.h.
 */
#include "kernel/fs/tty.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"
#include "kernel/uapi/stat.h"

static char paths[2][PATH_MAX];

char *path_buf(int which)
{
	return paths[which];
}

long getname(char *buf, uint64_t upath)
{
	long n = strncpy_from_user(buf, upath, PATH_MAX);

	if (n == 0)
		return -ENOENT;
	return n;
}

int at_start(int dirfd, const char *path, struct inode **start)
{
	struct file *f;

	*start = 0;
	if (path[0] == '/' || dirfd == AT_FDCWD)
		return 0;
	f = fget((uint64_t)(int64_t)dirfd);
	if (!f || !f->inode)
		return -EBADF;
	if (!S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	*start = f->inode;
	return 0;
}

/*
 * i386's struct stat64 (Linux 6.6 arch/x86/include/uapi/asm/stat.h, packed,
 * 96 bytes), filled as cp_stat64 (arch/x86/kernel/sys_ia32.c) fills it: the
 * inode number in both st_ino and __st_ino (truncated), the times' seconds
 * in 32 bits.
 */
struct stat64_ia32 {
	uint64_t st_dev;
	uint8_t pad0[4];
	uint32_t __st_ino;
	uint32_t st_mode, st_nlink, st_uid, st_gid;
	uint64_t st_rdev;
	uint8_t pad3[4];
	int64_t st_size;
	uint32_t st_blksize;
	uint64_t st_blocks;
	uint32_t st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	uint64_t st_ino;
} __attribute__((packed));
_Static_assert(sizeof(struct stat64_ia32) == 96, "i386 struct stat64 is 96 bytes");

static int copy_stat64(const struct linux_stat *st, uint64_t ubuf)
{
	struct stat64_ia32 s;

	memset(&s, 0, sizeof(s));
	s.st_dev = st->st_dev;
	s.st_ino = st->st_ino;
	s.__st_ino = (uint32_t)st->st_ino;
	s.st_mode = st->st_mode;
	s.st_nlink = (uint32_t)st->st_nlink;
	s.st_uid = st->st_uid;
	s.st_gid = st->st_gid;
	s.st_rdev = st->st_rdev;
	s.st_size = st->st_size;
	s.st_atime = (uint32_t)st->st_atime;
	s.st_atime_nsec = (uint32_t)st->st_atime_nsec;
	s.st_mtime = (uint32_t)st->st_mtime;
	s.st_mtime_nsec = (uint32_t)st->st_mtime_nsec;
	s.st_ctime = (uint32_t)st->st_ctime;
	s.st_ctime_nsec = (uint32_t)st->st_ctime_nsec;
	s.st_blksize = (uint32_t)st->st_blksize;
	s.st_blocks = (uint64_t)st->st_blocks;
	return copy_to_user(ubuf, &s, sizeof(s));
}

/* ia32: an IA-32 stat64 call (struct stat64_ia32 out), else x86_64's struct stat. */
static int fill_stat(struct inode *ino, uint64_t ubuf, bool ia32)
{
	struct linux_stat st;

	memset(&st, 0, sizeof(st));
	st.st_dev = ino->ramfs ? 1 : (ino->mode & S_IFMT) == S_IFIFO ? 0xc : 0x16;
	st.st_ino = ino->ino;
	st.st_nlink = ino->ramfs ? ino->nlink : S_ISDIR(ino->mode) ? 2 : 1;
	st.st_mode = ino->mode;
	st.st_uid = ino->uid;
	st.st_gid = ino->gid;
	st.st_rdev = ino->rdev;
	st.st_size = S_ISREG(ino->mode) || S_ISLNK(ino->mode) ? (int64_t)ino->size : 0;
	st.st_blksize = 4096;
	st.st_blocks = ino->ramfs && S_ISREG(ino->mode) ? (int64_t)ino->ram.blocks * 8 : 0;
	st.st_atime = (uint64_t)ino->atime;
	st.st_mtime = (uint64_t)ino->mtime;
	st.st_ctime = (uint64_t)ino->ctime;
	if (ia32)
		return copy_stat64(&st, ubuf);
	return copy_to_user(ubuf, &st, sizeof(st));
}

static long do_fstatat(int dirfd, uint64_t upath, uint64_t ubuf, uint64_t flags, bool ia32)
{
	char *path = path_buf(0);
	struct inode *start, *ino;
	long rc;

	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	rc = strncpy_from_user(path, upath, PATH_MAX);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		struct file *f;

		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		if (dirfd == AT_FDCWD)
			return fill_stat(current->fs->pwd ? current->fs->pwd : root_inode, ubuf,
					 ia32);
		f = fget((uint64_t)(int64_t)dirfd);
		if (!f || !f->inode)
			return -EBADF;
		return fill_stat(f->inode, ubuf, ia32);
	}
	if ((rc = at_start(dirfd, path, &start)))
		return rc;
	rc = path_lookup(start, path, (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &ino);
	if (rc)
		return rc;
	rc = fill_stat(ino, ubuf, ia32);
	iput(ino);
	return rc;
}

long sys_stat(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, 0, false);
}

long sys_lstat(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, AT_SYMLINK_NOFOLLOW, false);
}

long sys_newfstatat(const struct syscall_args *a)
{
	return do_fstatat((int)a->a0, a->a1, a->a2, a->a3, false);
}

static long do_fstat(uint64_t fd, uint64_t ubuf, bool ia32)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!f->inode)
		return -EBADF;
	return fill_stat(f->inode, ubuf, ia32);
}

long sys_fstat(const struct syscall_args *a)
{
	return do_fstat(a->a0, a->a1, false);
}
/*
 * The IA-32 calls (Linux 6.6 arch/x86/kernel/sys_ia32.c: compat_sys_ia32_stat64,
 * lstat64, fstat64, fstatat64): the native lookups, struct stat64 out.
 */
long compat_sys_ia32_stat64(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, 0, true);
}

long compat_sys_ia32_lstat64(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, AT_SYMLINK_NOFOLLOW, true);
}

long compat_sys_ia32_fstat64(const struct syscall_args *a)
{
	return do_fstat(a->a0, a->a1, true);
}

/* fstatat64(int dfd, path, statbuf, int flag) */
long compat_sys_ia32_fstatat64(const struct syscall_args *a)
{
	return do_fstatat((int)a->a0, a->a1, a->a2, (uint32_t)a->a3, true);
}

/* struct linux_dirent64: d_ino, d_off, d_reclen, d_type, d_name, 8-byte aligned. */
long sys_getdents64(const struct syscall_args *a)
{
	static struct dirent_out d;
	struct file *f = fget(a->a0);
	uint64_t ubuf = a->a1, count = (uint32_t)a->a2, done = 0;
	char rec[19 + NAME_MAX + 1 + 8];

	if (!f)
		return -EBADF;
	if (!f->inode || !S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	if (f->inode->dead) /* iterate_dir's IS_DEADDIR: not even "." and ".." */
		return -ENOENT;
	if (!access_ok(ubuf, count))
		return -EFAULT;
	for (;;) {
		struct inode *dir = f->inode;
		uint64_t idx = f->pos, off;
		uint16_t reclen;
		size_t len;

		if (idx == 0 || idx == 1) {
			struct inode *up = dir->covered ? dir->covered->parent : dir->parent;

			strlcpy(d.name, idx ? ".." : ".", sizeof(d.name));
			d.ino = idx ? (up ? up->ino : dir->ino) : dir->ino;
			d.type = DT_DIR;
		} else if (!dir->op->readdir || dir->op->readdir(dir, idx, &d)) {
			break;
		}
		len = strlen(d.name);
		reclen = (uint16_t)((19 + len + 1 + 7) & ~7UL);
		if (done + reclen > count) {
			if (!done)
				return -EINVAL;
			break;
		}
		memset(rec, 0, reclen);
		off = idx + 1;
		memcpy(rec, &d.ino, 8);
		memcpy(rec + 8, &off, 8);
		memcpy(rec + 16, &reclen, 2);
		rec[18] = (char)d.type;
		memcpy(rec + 19, d.name, len);
		if (copy_to_user(ubuf + done, rec, reclen))
			return done ? (long)done : -EFAULT;
		done += reclen;
		f->pos = idx + 1;
	}
	return (long)done;
}

static long do_readlinkat(int dirfd, uint64_t upath, uint64_t ubuf, int64_t size)
{
	char *path = path_buf(0), *target = path_buf(1);
	struct inode *start, *ino;
	long rc;

	if (size <= 0)
		return -EINVAL;
	if ((rc = getname(path, upath)) < 0)
		return rc;
	if ((rc = at_start(dirfd, path, &start)))
		return rc;
	if ((rc = path_lookup(start, path, 0, &ino)))
		return rc;
	if (!S_ISLNK(ino->mode) || !ino->op->readlink) {
		iput(ino);
		return -EINVAL;
	}
	rc = ino->op->readlink(ino, target, PATH_MAX);
	iput(ino);
	if (rc < 0)
		return rc;
	if (rc > size)
		rc = size;
	return copy_to_user(ubuf, target, (size_t)rc) ? -EFAULT : rc;
}

long sys_readlink(const struct syscall_args *a)
{
	return do_readlinkat(AT_FDCWD, a->a0, a->a1, (int64_t)a->a2);
}

long sys_readlinkat(const struct syscall_args *a)
{
	return do_readlinkat((int)a->a0, a->a1, a->a2, (int64_t)a->a3);
}

long sys_getcwd(const struct syscall_args *a)
{
	char *buf = path_buf(0);
	long len = dir_path(current->fs->pwd ? current->fs->pwd : root_inode, buf, PATH_MAX);

	if (len < 0)
		return len;
	if ((uint64_t)len > a->a1)
		return -ERANGE;
	return copy_to_user(a->a0, buf, (size_t)len) ? -EFAULT : len;
}

/* access: checked with the real ids (and root's capabilities only for a real root). */
static long do_faccessat(int dirfd, uint64_t upath, int mode, int flags)
{
	char *path = path_buf(0);
	struct cred saved = current->cred;
	struct inode *start, *ino;
	long rc;

	if (mode & ~7)
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((rc = getname(path, upath)) < 0)
		return rc;
	if ((rc = at_start(dirfd, path, &start)))
		return rc;
	if (!(flags & AT_EACCESS)) {
		current->cred.fsuid = saved.uid;
		current->cred.fsgid = saved.gid;
		if (saved.uid != 0)
			current->cred.cap_effective = 0;
	}
	rc = path_lookup(start, path, (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &ino);
	if (!rc) {
		if (mode)
			rc = inode_permission(ino, mode);
		iput(ino);
	}
	current->cred = saved;
	return rc;
}

long sys_access(const struct syscall_args *a)
{
	return do_faccessat(AT_FDCWD, a->a0, (int)a->a1, 0);
}

long sys_faccessat(const struct syscall_args *a)
{
	return do_faccessat((int)a->a0, a->a1, (int)a->a2, 0);
}

long sys_faccessat2(const struct syscall_args *a)
{
	return do_faccessat((int)a->a0, a->a1, (int)a->a2, (int)a->a3);
}

long sys_ioctl(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f)
		return -EBADF;
	if (!f->inode || !S_ISCHR(f->inode->mode) ||
	    (f->inode->rdev != DEV_CONSOLE && f->inode->rdev != DEV_TTY))
		return -ENOTTY;
	return tty_ioctl((unsigned int)a->a1, a->a2);
}
