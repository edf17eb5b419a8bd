/* What the file-system calls share: fds, user paths, the *at() start directory. */
#ifndef KERNEL_SYSCALL_FS_COMMON_H
#define KERNEL_SYSCALL_FS_COMMON_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct inode;

struct file *fget(uint64_t fd);
/* The lowest free fd >= from; -EMFILE. */
int fd_install(struct file *f, int from, bool cloexec);
/*
 * strncpy_from_user of a path into buf, a PATH_MAX buffer of the call's
 * own (__getname, kernel/fs/names.h): its length, -EFAULT,
 * -ENAMETOOLONG, -ENOENT if empty.
 */
long getname(char *buf, uint64_t upath);
/*
 * Linux's user_path_at: the user's path, relative to dirfd, looked up
 * with flags (LOOKUP_*); a reference in *out.  The name's buffer is the
 * call's own, given back before it returns.
 */
long user_path_at(int dirfd, uint64_t upath, int flags, struct inode **out);
/*
 * The parent directory of the user's path (a reference in *dir) and its
 * last name, NAME_MAX + 1 bytes in last; *must_dir: the path ended in '/'.
 */
long user_path_parent(int dirfd, uint64_t upath, struct inode **dir, char *last, bool *must_dir);
/* user_path_at(AT_FDCWD, ...) */
long user_path(uint64_t upath, int flags, struct inode **out);
/* Where a relative path starts for dirfd (AT_FDCWD: NULL, the cwd); -EBADF, -ENOTDIR. */
int at_start(int dirfd, const char *path, struct inode **start);

#endif
