/*
 * The namespace calls (Linux 6.6 numbers and errnos): mkdir(at), rmdir,
 * unlink(at), rename(at/at2), symlink(at), link(at), chdir, fchdir, umask.  Only the ramfs root
 * changes: elsewhere (/proc) a change is EPERM once the permission check passed, as a file system
 * without the operation answers in Linux.
 */
#include "kernel/fs/names.h"
#include "kernel/fs/vfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/syscall/fs_common.h"
#include "kernel/syscall/syscall.h"
#include "kernel/task/task.h"

#define RENAME_NOREPLACE 1

static bool is_dot(const char *last)
{
	return !last[0] || !strcmp(last, ".") || !strcmp(last, "..");
}

static long do_mkdirat(int dirfd, uint64_t upath, uint32_t mode)
{
	char last[NAME_MAX + 1];
	struct inode *dir, *ino;
	bool must_dir;
	long rc = user_path_parent(dirfd, upath, &dir, last, &must_dir);

	if (rc)
		return rc;
	if (is_dot(last)) {
		rc = -EEXIST;
	} else if (dir->op->lookup && !dir->op->lookup(dir, last, &ino)) {
		iput(ino);
		rc = -EEXIST;
	} else if ((rc = may_create(dir))) {
	} else if (!dir->ramfs) {
		rc = -EPERM;
	} else if (!(ino = ramfs_new(S_IFDIR | (mode & ~current->fs->umask & 01777),
				     current->cred.fsuid, current->cred.fsgid, &rc))) {
	} else {
		rc = ramfs_link(dir, last, ino);
		iput(ino);
	}
	iput(dir);
	return rc;
}

long sys_mkdir(const struct syscall_args *a)
{
	return do_mkdirat(AT_FDCWD, a->a0, (uint32_t)a->a1);
}

long sys_mkdirat(const struct syscall_args *a)
{
	return do_mkdirat((int)a->a0, a->a1, (uint32_t)a->a2);
}

/* The entry to remove, checked: a referenced child of a ramfs dir. */
static long victim(struct inode *dir, const char *last, struct inode **out)
{
	long rc;

	if (!dir->op->lookup)
		return -ENOTDIR;
	if ((rc = dir->op->lookup(dir, last, out)))
		return rc;
	if ((rc = may_delete(dir, *out)) || (!dir->ramfs && (rc = -EPERM)) ||
	    ((*out)->mounted && (rc = -EBUSY))) {
		iput(*out);
		*out = 0; /* rename puts what it holds at the end: nothing, now */
		return rc;
	}
	return 0;
}

static long do_rmdir(int dirfd, uint64_t upath)
{
	char last[NAME_MAX + 1];
	struct inode *dir, *ino;
	bool must_dir;
	long rc = user_path_parent(dirfd, upath, &dir, last, &must_dir);

	if (rc)
		return rc;
	if (!last[0])
		rc = -EBUSY;
	else if (!strcmp(last, "."))
		rc = -EINVAL;
	else if (!strcmp(last, ".."))
		rc = -ENOTEMPTY;
	else if (!(rc = victim(dir, last, &ino))) {
		if (!S_ISDIR(ino->mode))
			rc = -ENOTDIR;
		else if (!ramfs_dir_empty(ino))
			rc = -ENOTEMPTY;
		else if (!(rc = ramfs_unlink(dir, last)))
			ino->dead = true;
		iput(ino);
	}
	iput(dir);
	return rc;
}

static long do_unlink(int dirfd, uint64_t upath)
{
	char last[NAME_MAX + 1];
	struct inode *dir, *ino;
	bool must_dir;
	long rc = user_path_parent(dirfd, upath, &dir, last, &must_dir);

	if (rc)
		return rc;
	if (is_dot(last))
		rc = last[0] ? -EISDIR : -EISDIR;
	else if (!(rc = victim(dir, last, &ino))) {
		if (S_ISDIR(ino->mode))
			rc = -EISDIR;
		else if (must_dir)
			rc = -ENOTDIR;
		else
			rc = ramfs_unlink(dir, last);
		iput(ino);
	}
	iput(dir);
	return rc;
}

long sys_rmdir(const struct syscall_args *a)
{
	return do_rmdir(AT_FDCWD, a->a0);
}

long sys_unlink(const struct syscall_args *a)
{
	return do_unlink(AT_FDCWD, a->a0);
}

long sys_unlinkat(const struct syscall_args *a)
{
	if (a->a2 & ~(uint64_t)AT_REMOVEDIR)
		return -EINVAL;
	return a->a2 ? do_rmdir((int)a->a0, a->a1) : do_unlink((int)a->a0, a->a1);
}

static bool is_ancestor(struct inode *anc, struct inode *dir)
{
	for (struct inode *d = dir; d && d != root_inode; d = d->parent)
		if (d == anc)
			return true;
	return false;
}

static long do_renameat2(int olddfd, uint64_t uold, int newdfd, uint64_t unew, unsigned flags)
{
	char oldlast[NAME_MAX + 1], newlast[NAME_MAX + 1];
	struct inode *od, *nd, *old = 0, *tgt = 0;
	struct dentry *d;
	bool md1, md2;
	long rc;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	if ((rc = user_path_parent(olddfd, uold, &od, oldlast, &md1)))
		return rc;
	if ((rc = user_path_parent(newdfd, unew, &nd, newlast, &md2))) {
		iput(od);
		return rc;
	}
	if (is_dot(oldlast) || is_dot(newlast))
		rc = -EBUSY;
	else if (!(rc = victim(od, oldlast, &old))) {
		if (!nd->ramfs)
			rc = -EXDEV;
		else if ((md1 || md2) && !S_ISDIR(old->mode))
			rc = -ENOTDIR;
		else if (!(rc = may_create(nd)) && !nd->op->lookup(nd, newlast, &tgt)) {
			if (tgt == old)
				rc = 1; /* the same file: nothing to do, success */
			else if (flags & RENAME_NOREPLACE)
				rc = -EEXIST;
			else if ((rc = may_delete(nd, tgt)) || (tgt->mounted && (rc = -EBUSY)))
				;
			else if (S_ISDIR(old->mode) && !S_ISDIR(tgt->mode))
				rc = -ENOTDIR;
			else if (!S_ISDIR(old->mode) && S_ISDIR(tgt->mode))
				rc = -EISDIR;
			else if (S_ISDIR(tgt->mode) && !ramfs_dir_empty(tgt))
				rc = -ENOTEMPTY;
		}
		if (!rc && S_ISDIR(old->mode) && is_ancestor(old, nd))
			rc = -EINVAL;
		/*
		 * The new name first (Linux's d_alloc in the lookup of the new
		 * name, ENOMEM): once a name is gone nothing may fail.
		 */
		if (!rc && (d = ramfs_d_alloc(&rc))) {
			if (tgt) {
				ramfs_unlink(nd, newlast);
				tgt->dead = S_ISDIR(tgt->mode);
			}
			ramfs_unlink(od, oldlast);
			ramfs_d_add(nd, newlast, old, d);
		}
		if (rc == 1)
			rc = 0;
	}
	if (tgt)
		iput(tgt);
	if (old)
		iput(old);
	iput(od);
	iput(nd);
	return rc;
}

long sys_rename(const struct syscall_args *a)
{
	return do_renameat2(AT_FDCWD, a->a0, AT_FDCWD, a->a1, 0);
}

long sys_renameat(const struct syscall_args *a)
{
	return do_renameat2((int)a->a0, a->a1, (int)a->a2, a->a3, 0);
}

long sys_renameat2(const struct syscall_args *a)
{
	return do_renameat2((int)a->a0, a->a1, (int)a->a2, a->a3, (unsigned)a->a4);
}

/* do_symlinkat, with a buffer of the call's own for the target. */
static long symlink_to(char *target, uint64_t utarget, int dirfd, uint64_t upath)
{
	char last[NAME_MAX + 1];
	struct inode *dir, *ino;
	bool must_dir;
	long len = getname(target, utarget), rc;

	if (len < 0)
		return len;
	if ((rc = user_path_parent(dirfd, upath, &dir, last, &must_dir)))
		return rc;
	if (is_dot(last) || must_dir) {
		rc = -EEXIST;
	} else if (dir->op->lookup && !dir->op->lookup(dir, last, &ino)) {
		iput(ino);
		rc = -EEXIST;
	} else if ((rc = may_create(dir))) {
	} else if (!dir->ramfs) {
		rc = -EPERM;
	} else if (!(ino = ramfs_new(S_IFLNK | 0777, current->cred.fsuid, current->cred.fsgid,
				     &rc))) {
	} else {
		rc = ramfs_set_data(ino, target, (uint64_t)len);
		if (!rc)
			rc = ramfs_link(dir, last, ino);
		iput(ino);
	}
	iput(dir);
	return rc;
}

static long do_symlinkat(uint64_t utarget, int dirfd, uint64_t upath)
{
	char *target = __getname();
	long rc = target ? symlink_to(target, utarget, dirfd, upath) : -ENOMEM;

	__putname(target);
	return rc;
}

long sys_symlink(const struct syscall_args *a)
{
	return do_symlinkat(a->a0, AT_FDCWD, a->a1);
}

long sys_symlinkat(const struct syscall_args *a)
{
	return do_symlinkat(a->a0, (int)a->a1, a->a2);
}

static long set_cwd(struct inode *ino)
{
	long rc;

	if (!S_ISDIR(ino->mode))
		return -ENOTDIR;
	if ((rc = inode_permission(ino, MAY_EXEC)))
		return rc;
	iget(ino);
	if (current->fs->pwd)
		iput(current->fs->pwd);
	current->fs->pwd = ino;
	return 0;
}

long sys_chdir(const struct syscall_args *a)
{
	struct inode *ino;
	long rc = user_path(a->a0, LOOKUP_FOLLOW | LOOKUP_DIR, &ino);

	if (rc)
		return rc;
	rc = set_cwd(ino);
	iput(ino);
	return rc;
}

long sys_fchdir(const struct syscall_args *a)
{
	struct file *f = fget(a->a0);

	if (!f || !f->inode)
		return -EBADF;
	return set_cwd(f->inode);
}

long sys_umask(const struct syscall_args *a)
{
	uint32_t old = current->fs->umask;

	current->fs->umask = (uint32_t)a->a0 & 0777;
	return old;
}

/* link(2): a second name for a non-directory of the ramfs. */
static long do_linkat(int olddfd, uint64_t uold, int newdfd, uint64_t unew, int flags)
{
	char last[NAME_MAX + 1];
	struct inode *old, *dir, *tmp;
	bool must_dir;
	long rc;

	if (flags & ~AT_SYMLINK_FOLLOW)
		return -EINVAL;
	if ((rc = user_path_at(olddfd, uold, (flags & AT_SYMLINK_FOLLOW) ? LOOKUP_FOLLOW : 0,
			       &old)))
		return rc;
	if ((rc = user_path_parent(newdfd, unew, &dir, last, &must_dir))) {
		iput(old);
		return rc;
	}
	if (S_ISDIR(old->mode))
		rc = -EPERM;
	else if (is_dot(last) || must_dir)
		rc = -EEXIST;
	else if (dir->op->lookup && !dir->op->lookup(dir, last, &tmp)) {
		iput(tmp);
		rc = -EEXIST;
	} else if ((rc = may_create(dir))) {
	} else if (!dir->ramfs || !old->ramfs) {
		rc = -EXDEV;
	} else {
		rc = ramfs_link(dir, last, old);
		if (!rc)
			old->ctime = vfs_now();
	}
	iput(dir);
	iput(old);
	return rc;
}

long sys_link(const struct syscall_args *a)
{
	return do_linkat(AT_FDCWD, a->a0, AT_FDCWD, a->a1, 0);
}

long sys_linkat(const struct syscall_args *a)
{
	return do_linkat((int)a->a0, a->a1, (int)a->a2, a->a3, (int)a->a4);
}
