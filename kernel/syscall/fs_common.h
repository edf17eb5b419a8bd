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
 * Two PATH_MAX buffers (0 and 1, for rename and symlink): static, since a
 * path call never sleeps and the kernel is not preempted, and 8 KiB would
 * crowd a 16 KiB kernel stack.
 */
char *path_buf(int which);
/* strncpy_from_user of a path: its length, -EFAULT, -ENAMETOOLONG, -ENOENT if empty. */
long getname(char *buf, uint64_t upath);
/* Linux's user_path_at(AT_FDCWD, ...): the user's path looked up with flags, a reference in *out.
 */
long user_path(uint64_t upath, int flags, struct inode **out);
/* Where a relative path starts for dirfd (AT_FDCWD: NULL, the cwd); -EBADF, -ENOTDIR. */
int at_start(int dirfd, const char *path, struct inode **start);

#endif
