/*
 * stat, fstat, lstat, newfstatat, statfs, fstatfs, getdents64 (and i386's getdents),
 * readlink(at), getcwd,
 * access/faccessat(2), ioctl on the console (Linux 6.6 numbers, struct stat
 * in kernel/uapi/stat.h), and the shared helpers of
 * fs_common.h.
 */
#include "kernel/fs/names.h"
#include "kernel/fs/tty.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"
#include "kernel/uapi/stat.h"

long getname(char *buf, uint64_t upath)
{
	long n = strncpy_from_user(buf, upath, PATH_MAX);

	if (n == 0)
		return -ENOENT;
	return n;
}

/* The user's path in a buffer of its own, walked whole (last NULL) or to its parent. */
static long walk_user_path(int dirfd, uint64_t upath, int flags, struct inode **out, char *last,
			   bool *must_dir)
{
	char *path = __getname();
	struct inode *start;
	long rc;

	if (!path)
		return -ENOMEM;
	if ((rc = getname(path, upath)) >= 0 && !(rc = at_start(dirfd, path, &start)))
		rc = last ? path_parent(start, path, out, last, must_dir)
			  : path_lookup(start, path, flags, out);
	__putname(path);
	return rc;
}

long user_path_at(int dirfd, uint64_t upath, int flags, struct inode **out)
{
	return walk_user_path(dirfd, upath, flags, out, 0, 0);
}

long user_path_parent(int dirfd, uint64_t upath, struct inode **dir, char *last, bool *must_dir)
{
	return walk_user_path(dirfd, upath, 0, dir, last, must_dir);
}

long user_path(uint64_t upath, int flags, struct inode **out)
{
	return user_path_at(AT_FDCWD, upath, flags, out);
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

/* include/uapi/linux/stat.h's struct statx (256 bytes, the same for both ABIs). */
struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};

struct statx_k {
	uint32_t stx_mask, stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, spare0;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align, stx_dio_offset_align;
	uint64_t spare3[12];
};
_Static_assert(sizeof(struct statx_k) == 256, "struct statx is 256 bytes");

#define STATX_BASIC_STATS    0x7ffU /* type, mode, nlink, uid, gid, times, ino, size, blocks */
#define STATX__RESERVED	     0x80000000U
#define STATX_ATTR_AUTOMOUNT 0x1000
#define STATX_ATTR_DAX	     0x200000
#define AT_NO_AUTOMOUNT	     0x800
#define AT_STATX_SYNC_TYPE   0x6000

/* A user dev_t's major and minor (new_encode_dev's layout, glibc's gnu_dev_major/minor). */
static uint32_t dev_major(uint64_t dev)
{
	return (uint32_t)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL));
}

static uint32_t dev_minor(uint64_t dev)
{
	return (uint32_t)((dev & 0xff) | ((dev >> 12) & ~0xffULL));
}

/*
 * cp_statx (6.6 fs/stat.c): what generic_fillattr gives, STATX_BASIC_STATS
 * whatever was asked; no birth time, no mount id (this kernel has no
 * mount table), the attribute mask vfs_getattr_nosec always reports.
 */
static int copy_statx(const struct linux_stat *st, uint64_t ubuf)
{
	struct statx_k x;

	memset(&x, 0, sizeof(x));
	x.stx_mask = STATX_BASIC_STATS;
	x.stx_blksize = (uint32_t)st->st_blksize;
	x.stx_attributes_mask = STATX_ATTR_AUTOMOUNT | STATX_ATTR_DAX;
	x.stx_nlink = (uint32_t)st->st_nlink;
	x.stx_uid = st->st_uid;
	x.stx_gid = st->st_gid;
	x.stx_mode = (uint16_t)st->st_mode;
	x.stx_ino = st->st_ino;
	x.stx_size = (uint64_t)st->st_size;
	x.stx_blocks = (uint64_t)st->st_blocks;
	x.stx_atime.tv_sec = (int64_t)st->st_atime;
	x.stx_atime.tv_nsec = (uint32_t)st->st_atime_nsec;
	x.stx_ctime.tv_sec = (int64_t)st->st_ctime;
	x.stx_ctime.tv_nsec = (uint32_t)st->st_ctime_nsec;
	x.stx_mtime.tv_sec = (int64_t)st->st_mtime;
	x.stx_mtime.tv_nsec = (uint32_t)st->st_mtime_nsec;
	x.stx_rdev_major = dev_major(st->st_rdev);
	x.stx_rdev_minor = dev_minor(st->st_rdev);
	x.stx_dev_major = dev_major(st->st_dev);
	x.stx_dev_minor = dev_minor(st->st_dev);
	return copy_to_user(ubuf, &x, sizeof(x));
}

/* What a stat call writes: x86_64's struct stat, i386's struct stat64, struct statx. */
enum stat_fmt { STAT_NATIVE, STAT_IA32, STAT_X };

static int fill_stat(struct inode *ino, uint64_t ubuf, enum stat_fmt fmt)
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
	if (fmt == STAT_IA32)
		return copy_stat64(&st, ubuf);
	if (fmt == STAT_X)
		return copy_statx(&st, ubuf);
	return copy_to_user(ubuf, &st, sizeof(st));
}

static long do_fstatat(int dirfd, uint64_t upath, uint64_t ubuf, uint64_t flags, enum stat_fmt fmt)
{
	char *path;
	struct inode *start, *ino;
	long rc;
	bool empty;
	/* vfs_statx's flags; AT_NO_AUTOMOUNT and the sync type mean nothing without mounts */
	uint64_t ok = fmt == STAT_X ? AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT |
					      AT_STATX_SYNC_TYPE
				    : AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH;

	if (flags & ~ok)
		return -EINVAL;
	if (!(path = __getname()))
		return -ENOMEM;
	rc = strncpy_from_user(path, upath, PATH_MAX);
	empty = rc == 0;
	if (rc > 0 && !(rc = at_start(dirfd, path, &start)))
		rc = path_lookup(start, path, (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW,
				 &ino);
	__putname(path);
	if (empty) {
		struct file *f;

		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		if (dirfd == AT_FDCWD)
			return fill_stat(current->fs->pwd ? current->fs->pwd : root_inode, ubuf,
					 fmt);
		f = fget((uint64_t)(int64_t)dirfd);
		if (!f || !f->inode)
			return -EBADF;
		return fill_stat(f->inode, ubuf, fmt);
	}
	if (rc)
		return rc;
	rc = fill_stat(ino, ubuf, fmt);
	iput(ino);
	return rc;
}

long sys_stat(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, 0, STAT_NATIVE);
}

long sys_lstat(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, AT_SYMLINK_NOFOLLOW, STAT_NATIVE);
}

long sys_newfstatat(const struct syscall_args *a)
{
	return do_fstatat((int)a->a0, a->a1, a->a2, a->a3, STAT_NATIVE);
}

static long do_fstat(uint64_t fd, uint64_t ubuf, enum stat_fmt fmt)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	if (!f->inode)
		return -EBADF;
	return fill_stat(f->inode, ubuf, fmt);
}

long sys_fstat(const struct syscall_args *a)
{
	return do_fstat(a->a0, a->a1, STAT_NATIVE);
}
/*
 * statfs and fstatfs as Linux's simple_statfs answers for ramfs, proc and
 * pipefs: the magic, PAGE_SIZE blocks, NAME_MAX; no size (ramfs has no
 * limit but memory, and reports 0 blocks); f_frsize = f_bsize and the
 * mount's flags, as statfs_by_dentry fills them in.
 */
static long fill_statfs(const struct inode *ino, uint64_t ubuf)
{
	struct linux_statfs st;

	memset(&st, 0, sizeof(st));
	st.f_type = ino->op ? ino->op->magic : 0;
	st.f_bsize = st.f_frsize = 4096;
	st.f_namelen = NAME_MAX;
	st.f_flags = ino->op ? ino->op->st_flags : ST_VALID;
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_statfs(const struct syscall_args *a)
{
	struct inode *ino;
	long rc = user_path(a->a0, LOOKUP_FOLLOW, &ino);

	if (rc)
		return rc;
	rc = fill_statfs(ino, a->a1);
	iput(ino);
	return rc;
}

long sys_fstatfs(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f || !f->inode)
		return -EBADF;
	return fill_statfs(f->inode, a->a1);
}

/*
 * The IA-32 calls (Linux 6.6 arch/x86/kernel/sys_ia32.c: compat_sys_ia32_stat64,
 * lstat64, fstat64, fstatat64): the native lookups, struct stat64 out.
 */
long compat_sys_ia32_stat64(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, 0, STAT_IA32);
}

long compat_sys_ia32_lstat64(const struct syscall_args *a)
{
	return do_fstatat(AT_FDCWD, a->a0, a->a1, AT_SYMLINK_NOFOLLOW, STAT_IA32);
}

long compat_sys_ia32_fstat64(const struct syscall_args *a)
{
	return do_fstat(a->a0, a->a1, STAT_IA32);
}

/* fstatat64(int dfd, path, statbuf, int flag) */
long compat_sys_ia32_fstatat64(const struct syscall_args *a)
{
	return do_fstatat((int)a->a0, a->a1, a->a2, (uint32_t)a->a3, STAT_IA32);
}

/*
 * statx(dfd, path, flags, mask, buf), 6.6's do_statx: a reserved mask bit
 * or both sync types is EINVAL, then vfs_statx's flags; an IA-32 task's
 * (i386 383) is the same call, struct statx being the same on both.
 */
long sys_statx(const struct syscall_args *a)
{
	uint32_t flags = (uint32_t)a->a2, mask = (uint32_t)a->a3;

	if (mask & STATX__RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	return do_fstatat((int)a->a0, a->a1, a->a4, flags, STAT_X);
}

/*
 * One directory record at rec, its length returned: struct linux_dirent64
 * (d_ino, d_off, d_reclen, d_type, d_name, 8-byte aligned) or, for an
 * IA-32 task's getdents, struct compat_linux_dirent (6.6 fs/readdir.c:
 * 32-bit d_ino and d_off, d_reclen, d_name, its NUL, d_type in the last
 * byte, 4-byte aligned); 0 when the inode number does not fit in 32 bits
 * (compat_filldir's EOVERFLOW).
 */
static uint16_t fill_dirent(char *rec, const struct dirent_out *d, uint64_t off, bool compat)
{
	size_t len = strlen(d->name);
	uint16_t reclen;

	if (compat) {
		uint32_t ino32 = (uint32_t)d->ino, off32 = (uint32_t)off;

		if (ino32 != d->ino)
			return 0;
		reclen = (uint16_t)((10 + len + 2 + 3) & ~3UL);
		memset(rec, 0, reclen);
		memcpy(rec, &ino32, 4);
		memcpy(rec + 4, &off32, 4);
		memcpy(rec + 8, &reclen, 2);
		memcpy(rec + 10, d->name, len);
		rec[reclen - 1] = (char)d->type;
		return reclen;
	}
	reclen = (uint16_t)((19 + len + 1 + 7) & ~7UL);
	memset(rec, 0, reclen);
	memcpy(rec, &d->ino, 8);
	memcpy(rec + 8, &off, 8);
	memcpy(rec + 16, &reclen, 2);
	rec[18] = (char)d->type;
	memcpy(rec + 19, d->name, len);
	return reclen;
}

/*
 * getdents64 and i386's getdents: as many whole records as fit; a first
 * one that does not is EINVAL (EOVERFLOW for an inode number too wide),
 * a later one ends the call with what was written.
 */
static long do_getdents(const struct syscall_args *a, bool compat)
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
		uint64_t idx = f->pos;
		uint16_t reclen;

		if (idx == 0 || idx == 1) {
			struct inode *up = dir->covered ? dir->covered->parent : dir->parent;

			strlcpy(d.name, idx ? ".." : ".", sizeof(d.name));
			d.ino = idx ? (up ? up->ino : dir->ino) : dir->ino;
			d.type = DT_DIR;
		} else if (!dir->op->readdir || dir->op->readdir(dir, idx, &d)) {
			break;
		}
		reclen = fill_dirent(rec, &d, idx + 1, compat);
		if (!reclen || done + reclen > count) {
			if (!done)
				return reclen ? -EINVAL : -EOVERFLOW;
			break;
		}
		if (copy_to_user(ubuf + done, rec, reclen))
			return done ? (long)done : -EFAULT;
		done += reclen;
		f->pos = idx + 1;
	}
	return (long)done;
}

long sys_getdents64(const struct syscall_args *a)
{
	return do_getdents(a, false);
}

/* compat_sys_getdents (6.6 fs/readdir.c), i386's getdents (141). */
long compat_sys_getdents(const struct syscall_args *a)
{
	return do_getdents(a, true);
}

static long do_readlinkat(int dirfd, uint64_t upath, uint64_t ubuf, int64_t size)
{
	struct inode *ino;
	char *target;
	long rc;

	if (size <= 0)
		return -EINVAL;
	if ((rc = user_path_at(dirfd, upath, 0, &ino)))
		return rc;
	if (!S_ISLNK(ino->mode) || !ino->op->readlink) {
		iput(ino);
		return -EINVAL;
	}
	if (!(target = __getname())) {
		iput(ino);
		return -ENOMEM;
	}
	rc = ino->op->readlink(ino, target, PATH_MAX);
	iput(ino);
	if (rc > size)
		rc = size;
	if (rc >= 0 && copy_to_user(ubuf, target, (size_t)rc))
		rc = -EFAULT;
	__putname(target);
	return rc;
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
	char *buf = __getname();
	long len;

	if (!buf)
		return -ENOMEM;
	len = dir_path(current->fs->pwd ? current->fs->pwd : root_inode, buf, PATH_MAX);
	if (len >= 0 && (uint64_t)len > a->a1)
		len = -ERANGE;
	if (len >= 0 && copy_to_user(a->a0, buf, (size_t)len))
		len = -EFAULT;
	__putname(buf);
	return len;
}

/* access: checked with the real ids (and root's capabilities only for a real root). */
static long do_faccessat(int dirfd, uint64_t upath, int mode, int flags)
{
	struct cred saved = current->cred;
	struct inode *ino;
	long rc;

	if (mode & ~7)
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!(flags & AT_EACCESS)) {
		current->cred.fsuid = saved.uid;
		current->cred.fsgid = saved.gid;
		if (saved.uid != 0)
			current->cred.cap_effective = 0;
	}
	rc = user_path_at(dirfd, upath, (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, &ino);
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
