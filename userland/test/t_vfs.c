/*
 * t_vfs: the file system calls from ring 3, each result and errno checked
 * against Linux's.  Portable C on purpose: tests/sh/vfs-host.sh builds this
 * same file against glibc (tests/sh/vfs-host/shim/) and runs it on the host Linux,
 * which proves every expectation below is Linux's own behaviour.
 *
 *   t_vfs            all the checks; exit status = the number that failed
 *   t_vfs initramfs  also the image's initramfs, the console ioctls, the limits
 *   t_vfs cloexec A B  (run by the checks through execve) exit 0 if fd A was
 *                    closed by the exec (FD_CLOEXEC) and fd B kept
 *
 * Every check prints "t_vfs: FAIL: what (got N)" when it fails.  One file
 * of some 620 lines on purpose: the host build compiles exactly this file.
 */
#include "userland/lib/aslrbench_user.h"

#ifndef T_VFS_SELF
#define T_VFS_SELF "/bin/t_vfs" /* the cloexec check re-executes this program */
#endif

static int failures;
static char base[64];

static void check(int ok, const char *what, long got)
{
	if (!ok) {
		printf("t_vfs: FAIL: %s (got %ld)\n", what, got);
		failures++;
	}
}

static const char *at(const char *name)
{
	static char buf[4][128];
	static int k;
	char *b = buf[k++ % 4];

	snprintf(b, 128, "%s/%s", base, name);
	return b;
}

static void files(void)
{
	struct stat st;
	char buf[64];
	long fd, fd2, rc;
	struct iovec iov[2];

	fd = sys(__NR_openat, AT_FDCWD, at("f"), O_CREAT | O_EXCL | O_RDWR, 0666);
	check(fd >= 0, "create", fd);
	rc = sys(__NR_openat, AT_FDCWD, at("f"), O_CREAT | O_EXCL | O_RDWR, 0666);
	check(rc == -EEXIST, "O_EXCL on an existing file", rc);
	check(sys(__NR_write, (int)fd, "hello", 5) == 5, "write", 0);
	rc = sys(__NR_lseek, (int)fd, 0, SEEK_CUR);
	check(rc == 5, "position after write", rc);
	rc = sys(__NR_lseek, (int)fd, 0, SEEK_SET);
	check(rc == 0 && sys(__NR_read, (int)fd, buf, sizeof(buf)) == 5 && !memcmp(buf, "hello", 5),
	      "read back", rc);
	check(sys(__NR_read, (int)fd, buf, sizeof(buf)) == 0, "read at EOF", 0);
	rc = sys(__NR_lseek, (int)fd, -1, SEEK_SET);
	check(rc == -EINVAL, "lseek before 0", rc);
	rc = sys(__NR_lseek, (int)fd, 0, 7);
	check(rc == -EINVAL, "lseek bad whence", rc);
	rc = sys(__NR_lseek, (int)fd, 10, SEEK_END);
	check(rc == 15, "lseek past the end", rc);
	check(sys(__NR_write, (int)fd, "!", 1) == 1, "write past the end", 0);
	check(sys(__NR_fstat, (int)fd, &st) == 0 && st.st_size == 16, "hole fills the size",
	      st.st_size);
	check(sys(__NR_pread64, (int)fd, buf, 2, 5) == 2 && buf[0] == 0 && buf[1] == 0,
	      "hole reads zeros", 0);
	check(sys(__NR_pwrite64, (int)fd, "HE", 2, 0) == 2, "pwrite", 0);
	check(sys(__NR_lseek, (int)fd, 0, SEEK_CUR) == 16, "pwrite keeps the offset", 0);
	check(sys(__NR_pread64, (int)fd, buf, 5, 0) == 5 && !memcmp(buf, "HEllo", 5), "pread", 0);
	rc = sys(__NR_pread64, (int)fd, buf, 1, -1);
	check(rc == -EINVAL, "pread at a negative offset", rc);
	iov[0].iov_base = "ab";
	iov[0].iov_len = 2;
	iov[1].iov_base = "cd";
	iov[1].iov_len = 2;
	sys(__NR_lseek, (int)fd, 0, SEEK_SET);
	check(sys(__NR_writev, (int)fd, iov, 2) == 4, "writev", 0);
	sys(__NR_lseek, (int)fd, 0, SEEK_SET);
	memset(buf, 0, sizeof(buf));
	iov[0].iov_base = buf;
	iov[1].iov_base = buf + 10;
	check(sys(__NR_readv, (int)fd, iov, 2) == 4 && !memcmp(buf, "ab", 2) &&
		      !memcmp(buf + 10, "cd", 2),
	      "readv", 0);
	sys(__NR_close, (int)fd);
	check(sys(__NR_stat, at("f"), &st) == 0 && (st.st_mode & 07777) == 0644 &&
		      (st.st_mode & S_IFMT) == S_IFREG && st.st_nlink == 1,
	      "mode 0666 & ~umask 022", st.st_mode);
	fd = sys(__NR_openat, AT_FDCWD, at("f"), O_WRONLY | O_APPEND, 0);
	check(sys(__NR_write, (int)fd, "Z", 1) == 1 && sys(__NR_fstat, (int)fd, &st) == 0 &&
		      st.st_size == 17,
	      "O_APPEND writes at the end", st.st_size);
	rc = sys(__NR_fcntl, (int)fd, F_GETFL, 0);
	check((rc & (O_ACCMODE | O_APPEND)) == (O_WRONLY | O_APPEND), "F_GETFL", rc);
	rc = sys(__NR_read, (int)fd, buf, 1);
	check(rc == -EBADF, "read on a write-only fd", rc);
	sys(__NR_close, (int)fd);
	fd = sys(__NR_openat, AT_FDCWD, at("f"), O_RDONLY | O_TRUNC, 0);
	check(fd >= 0 && sys(__NR_fstat, (int)fd, &st) == 0 && st.st_size == 0, "O_TRUNC",
	      st.st_size);
	rc = sys(__NR_write, (int)fd, "x", 1);
	check(rc == -EBADF, "write on a read-only fd", rc);
	fd2 = sys(__NR_openat, AT_FDCWD, at("f/"), O_RDONLY, 0);
	check(fd2 == -ENOTDIR, "a file with a trailing slash", fd2);
	fd2 = sys(__NR_openat, AT_FDCWD, at("f"), O_RDONLY | O_DIRECTORY, 0);
	check(fd2 == -ENOTDIR, "O_DIRECTORY on a file", fd2);
	sys(__NR_close, (int)fd);
	rc = sys(__NR_openat, AT_FDCWD, at("none"), O_RDONLY, 0);
	check(rc == -ENOENT, "open a missing file", rc);
	rc = sys(__NR_openat, AT_FDCWD, at("none/x"), O_CREAT | O_RDWR, 0644);
	check(rc == -ENOENT, "create in a missing directory", rc);
	rc = sys(__NR_openat, AT_FDCWD, at("f/x"), O_RDONLY, 0);
	check(rc == -ENOTDIR, "a file as a directory", rc);
	rc = sys(__NR_openat, AT_FDCWD, base, O_WRONLY, 0);
	check(rc == -EISDIR, "a directory for writing", rc);
	rc = sys(__NR_read, 99, buf, 1);
	check(rc == -EBADF, "read on a bad fd", rc);
	rc = sys(__NR_close, 99);
	check(rc == -EBADF, "close a bad fd", rc);
	rc = sys(__NR_openat, AT_FDCWD, (const char *)1, O_RDONLY, 0);
	check(rc == -EFAULT, "path at a bad address", rc);
	fd = sys(__NR_openat, AT_FDCWD, at("f"), O_RDONLY, 0);
	rc = sys(__NR_read, (int)fd, (void *)0xffffffff80000000UL, 4);
	check(rc == -EFAULT, "read into kernel memory", rc);
	/* every user pointer is checked: a bad one is EFAULT, never a crash */
	{
		void *bad = (void *)0xffffffff80000000UL;
		struct iovec biov = {bad, 4};

		rc = sys(__NR_stat, at("f"), bad);
		check(rc == -EFAULT, "stat into kernel memory", rc);
		rc = sys(__NR_fstat, (int)fd, (void *)8);
		check(rc == -EFAULT, "fstat into an unmapped page", rc);
		rc = sys(__NR_readv, (int)fd, (void *)8, 1);
		check(rc == -EFAULT, "readv with an unmapped iovec", rc);
		sys(__NR_lseek, (int)fd, 0, SEEK_SET);
		rc = sys(__NR_readv, (int)fd, &biov, 1);
		check(rc == -EFAULT, "readv into kernel memory", rc);
		rc = sys(__NR_getcwd, bad, 64);
		check(rc == -EFAULT, "getcwd into kernel memory", rc);
		rc = sys(__NR_pipe2, bad, 0);
		check(rc == -EFAULT, "pipe2 into kernel memory", rc);
		rc = sys(__NR_readlink, "/proc/self", bad, 16);
		check(rc == -EFAULT, "readlink into kernel memory", rc);
		rc = sys(__NR_mkdir, bad, 0755);
		check(rc == -EFAULT, "mkdir of a path in kernel memory", rc);
		rc = sys(__NR_openat, AT_FDCWD, "", O_RDONLY, 0);
		check(rc == -ENOENT, "an empty path", rc);
	}
	sys(__NR_close, (int)fd);
	{
		char longname[300];

		memset(longname, 'a', sizeof(longname));
		longname[0] = '/';
		longname[sizeof(longname) - 1] = 0;
		rc = sys(__NR_openat, AT_FDCWD, longname, O_RDONLY, 0);
		check(rc == -ENAMETOOLONG, "a component over NAME_MAX", rc);
	}
}

static void dirs(void)
{
	struct stat st;
	char buf[512], cwd[128];
	long rc, fd, n;
	int seen = 0;

	check(sys(__NR_mkdir, at("d"), 0777) == 0, "mkdir", 0);
	rc = sys(__NR_mkdir, at("d"), 0777);
	check(rc == -EEXIST, "mkdir existing", rc);
	check(sys(__NR_stat, at("d"), &st) == 0 && (st.st_mode & 07777) == 0755 && st.st_nlink == 2,
	      "a new directory: 0755, two links", st.st_mode);
	fd = sys(__NR_openat, AT_FDCWD, at("d/g"), O_CREAT | O_WRONLY, 0600);
	sys(__NR_close, (int)fd);
	check(sys(__NR_mkdir, at("d/sub"), 0700) == 0, "mkdir a subdirectory", 0);
	check(sys(__NR_stat, at("d"), &st) == 0 && st.st_nlink == 3, "a subdirectory's .. links",
	      st.st_nlink);
	rc = sys(__NR_rmdir, at("d"));
	check(rc == -ENOTEMPTY, "rmdir a non-empty directory", rc);
	rc = sys(__NR_rmdir, at("d/g"));
	check(rc == -ENOTDIR, "rmdir a file", rc);
	rc = sys(__NR_unlink, at("d/sub"));
	check(rc == -EISDIR, "unlink a directory", rc);
	rc = sys(__NR_unlink, at("d/none"));
	check(rc == -ENOENT, "unlink a missing file", rc);
	rc = sys(__NR_rmdir, at("d/."));
	check(rc == -EINVAL, "rmdir of .", rc);
	fd = sys(__NR_openat, AT_FDCWD, at("d"), O_RDONLY | O_DIRECTORY, 0);
	n = sys(__NR_getdents64, (int)fd, buf, sizeof(buf));
	for (long off = 0; off < n;) {
		const char *name = buf + off + 19;
		unsigned short reclen = *(unsigned short *)(buf + off + 16);
		unsigned char type = (unsigned char)buf[off + 18];

		if (!strcmp(name, "g") && type == DT_REG)
			seen |= 1;
		if (!strcmp(name, "sub") && type == DT_DIR)
			seen |= 2;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			seen |= 4;
		off += reclen;
	}
	check(seen == 7, "getdents64 lists ., .., g and sub", seen);
	check(sys(__NR_getdents64, (int)fd, buf, sizeof(buf)) == 0, "getdents64 at the end", 0);
	rc = sys(__NR_getdents64, (int)fd, buf, 8);
	sys(__NR_lseek, (int)fd, 0, SEEK_SET);
	rc = sys(__NR_getdents64, (int)fd, buf, 8);
	check(rc == -EINVAL, "getdents64 buffer too small", rc);
	check(sys(__NR_fchdir, (int)fd) == 0, "fchdir", 0);
	sys(__NR_close, (int)fd);
	rc = sys(__NR_getcwd, cwd, sizeof(cwd));
	check(rc > 0 && !strcmp(cwd, at("d")), "getcwd after fchdir", rc);
	check(sys(__NR_stat, "g", &st) == 0, "a relative path from the cwd", 0);
	check(sys(__NR_chdir, "sub") == 0 && sys(__NR_chdir, "..") == 0 &&
		      sys(__NR_getcwd, cwd, sizeof(cwd)) > 0 && !strcmp(cwd, at("d")),
	      "chdir sub, ..", 0);
	rc = sys(__NR_getcwd, cwd, 3);
	check(rc == -ERANGE, "getcwd into a small buffer", rc);
	rc = sys(__NR_chdir, at("d/g"));
	check(rc == -ENOTDIR, "chdir to a file", rc);
	check(sys(__NR_chdir, "/") == 0, "chdir /", 0);
	check(sys(__NR_rename, at("d/g"), at("d/h")) == 0, "rename", 0);
	rc = sys(__NR_stat, at("d/g"), &st);
	check(rc == -ENOENT, "the old name is gone", rc);
	rc = sys(__NR_rename, at("d"), at("d/sub/x"));
	check(rc == -EINVAL, "rename a directory into itself", rc);
	rc = sys(__NR_rename, at("d/h"), at("d/sub"));
	check(rc == -EISDIR, "rename a file over a directory", rc);
	check(sys(__NR_unlink, at("d/h")) == 0 && sys(__NR_rmdir, at("d/sub")) == 0 &&
		      sys(__NR_rmdir, at("d")) == 0,
	      "unlink and rmdir clean up", 0);
	check(sys(__NR_stat, "/tmp", &st) == 0 && (st.st_mode & 07777) == 01777, "/tmp is 1777",
	      st.st_mode);
}

/* /proc/self/fd: a link per open fd, naming the file (d_path). */
static void proc_fd(void)
{
	char path[64], buf[128];
	long fd = sys(__NR_openat, AT_FDCWD, at("f"), O_RDONLY, 0), rc, n, dfd;
	int p[2], seen = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
	rc = sys(__NR_readlink, path, buf, sizeof(buf) - 1);
	buf[rc > 0 ? rc : 0] = 0;
	check(rc > 0 && !strcmp(buf, at("f")), "/proc/self/fd/N names the file", rc);
	sys(__NR_pipe2, p, 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	rc = sys(__NR_readlink, path, buf, sizeof(buf) - 1);
	check(rc > 6 && !memcmp(buf, "pipe:[", 6), "/proc/self/fd/N of a pipe", rc);
	/* An fd known to be closed: one just opened and closed (a harness may leave 63 open). */
	n = sys(__NR_dup, p[0]);
	sys(__NR_close, (int)n);
	snprintf(path, sizeof(path), "/proc/self/fd/%ld", n);
	rc = sys(__NR_readlink, path, buf, sizeof(buf));
	check(n >= 0 && rc == -ENOENT, "/proc/self/fd/N of a closed fd", rc);
	dfd = sys(__NR_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY, 0);
	n = sys(__NR_getdents64, (int)dfd, buf, sizeof(buf));
	for (long off = 0; off < n; off += *(unsigned short *)(buf + off + 16))
		if (!strcmp(buf + off + 19, "0") && buf[off + 18] == DT_LNK)
			seen = 1;
	check(seen, "getdents64 of /proc/self/fd lists fd 0 as a link", n);
	sys(__NR_close, (int)dfd);
	sys(__NR_close, p[0]);
	sys(__NR_close, p[1]);
	sys(__NR_close, (int)fd);
}

static void links(void)
{
	struct stat st;
	char buf[64];
	long rc;

	check(sys(__NR_symlink, "f", at("l")) == 0, "symlink", 0);
	rc = sys(__NR_symlink, "f", at("l"));
	check(rc == -EEXIST, "symlink over an existing name", rc);
	rc = sys(__NR_readlink, at("l"), buf, sizeof(buf));
	check(rc == 1 && buf[0] == 'f', "readlink", rc);
	rc = sys(__NR_readlink, at("f"), buf, sizeof(buf));
	check(rc == -EINVAL, "readlink of a file", rc);
	check(sys(__NR_lstat, at("l"), &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK &&
		      st.st_size == 1,
	      "lstat sees the link", st.st_mode);
	check(sys(__NR_stat, at("l"), &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG,
	      "stat follows it", st.st_mode);
	rc = sys(__NR_openat, AT_FDCWD, at("l"), O_RDONLY | O_NOFOLLOW, 0);
	check(rc == -ELOOP, "O_NOFOLLOW on a symlink", rc);
	sys(__NR_symlink, "loop2", at("loop1"));
	sys(__NR_symlink, "loop1", at("loop2"));
	rc = sys(__NR_openat, AT_FDCWD, at("loop1"), O_RDONLY, 0);
	check(rc == -ELOOP, "a symlink loop", rc);
	rc = sys(__NR_readlink, "/proc/self", buf, sizeof(buf));
	buf[rc > 0 ? rc : 0] = 0;
	check(rc > 0 && atol(buf) == sys(__NR_getpid), "/proc/self names the reader", rc);
	sys(__NR_unlink, at("loop1"));
	sys(__NR_unlink, at("loop2"));
	sys(__NR_unlink, at("l"));
	proc_fd();
}

static void fds(void)
{
	char buf[8];
	long fd, d, rc;
	int p[2];

	fd = sys(__NR_openat, AT_FDCWD, at("f"), O_RDWR | O_TRUNC, 0);
	sys(__NR_write, (int)fd, "0123456789", 10);
	d = sys(__NR_dup, (int)fd);
	check(d > fd, "dup gives a new fd", d);
	sys(__NR_lseek, (int)fd, 2, SEEK_SET);
	check(sys(__NR_read, (int)d, buf, 1) == 1 && buf[0] == '2', "dup shares the offset",
	      buf[0]);
	rc = sys(__NR_dup2, (int)fd, 40);
	check(rc == 40, "dup2 to a chosen fd", rc);
	rc = sys(__NR_dup2, (int)fd, (int)fd);
	check(rc == fd, "dup2 to itself", rc);
	rc = sys(__NR_dup3, (int)fd, (int)fd, 0);
	check(rc == -EINVAL, "dup3 to itself", rc);
	rc = sys(__NR_dup3, (int)fd, 41, O_CLOEXEC);
	check(rc == 41 && sys(__NR_fcntl, 41, F_GETFD, 0) == FD_CLOEXEC, "dup3 O_CLOEXEC", rc);
	check(sys(__NR_fcntl, 40, F_GETFD, 0) == 0, "dup2 clears FD_CLOEXEC", 0);
	check(sys(__NR_fcntl, 40, F_SETFD, FD_CLOEXEC) == 0 &&
		      sys(__NR_fcntl, 40, F_GETFD, 0) == FD_CLOEXEC,
	      "F_SETFD", 0);
	rc = sys(__NR_fcntl, (int)fd, F_DUPFD_CLOEXEC, 45);
	check(rc == 45 && sys(__NR_fcntl, 45, F_GETFD, 0) == FD_CLOEXEC, "F_DUPFD_CLOEXEC", rc);
	rc = sys(__NR_fcntl, (int)fd, F_DUPFD, 45);
	check(rc == 46, "F_DUPFD: the lowest free fd from arg", rc);
	check(sys(__NR_fcntl, (int)fd, F_SETFL, O_APPEND) == 0 &&
		      (sys(__NR_fcntl, (int)d, F_GETFL, 0) & O_APPEND) == O_APPEND,
	      "F_SETFL is shared by dups", 0);
	rc = sys(__NR_fcntl, 99, F_GETFD, 0);
	check(rc == -EBADF, "fcntl on a bad fd", rc);
	for (int i = 40; i <= 46; i++)
		sys(__NR_close, i);
	sys(__NR_close, (int)d);
	sys(__NR_close, (int)fd);
	rc = sys(__NR_ioctl, 0 + (int)sys(__NR_openat, AT_FDCWD, at("f"), O_RDONLY, 0), TCGETS,
		 buf);
	check(rc == -ENOTTY, "ioctl TCGETS on a file", rc);

	check(sys(__NR_pipe2, p, 0) == 0, "pipe2", 0);
	check(sys(__NR_write, p[1], "abc", 3) == 3 && sys(__NR_read, p[0], buf, 8) == 3 &&
		      !memcmp(buf, "abc", 3),
	      "through a pipe", 0);
	rc = sys(__NR_lseek, p[0], 0, SEEK_SET);
	check(rc == -ESPIPE, "lseek on a pipe", rc);
	if (sys(__NR_fork) == 0) {
		sys(__NR_close, p[0]);
		sys(__NR_write, p[1], "child", 5);
		exit(0);
	}
	sys(__NR_close, p[1]);
	rc = sys(__NR_read, p[0], buf, 8);
	check(rc == 5 && !memcmp(buf, "child", 5), "a pipe from a child", rc);
	rc = sys(__NR_read, p[0], buf, 8);
	check(rc == 0, "EOF once every writer closed", rc);
	sys(__NR_wait4, -1, 0, 0, 0);
	sys(__NR_close, p[0]);
	sys(__NR_pipe2, p, O_CLOEXEC | O_NONBLOCK);
	check(sys(__NR_fcntl, p[0], F_GETFD, 0) == FD_CLOEXEC, "pipe2 O_CLOEXEC", 0);
	rc = sys(__NR_read, p[0], buf, 1);
	check(rc == -EAGAIN, "O_NONBLOCK read on an empty pipe", rc);
	sys(__NR_close, p[0]);
	{
		/* SIGPIPE's default kills the writer (Linux's pipe_write): ignored, EPIPE. */
		static const uint64_t ign[4] = {1, 0, 0, 0};

		sys(__NR_rt_sigaction, 13, (long)ign, 0, 8, 0, 0);
	}
	rc = sys(__NR_write, p[1], "x", 1);
	check(rc == -EPIPE, "write with no reader left", rc);
	sys(__NR_close, p[1]);
	rc = sys(__NR_pipe2, p, 0x40000000);
	check(rc == -EINVAL, "pipe2 bad flags", rc);

	/* execve closes FD_CLOEXEC fds and keeps the others */
	if (sys(__NR_fork) == 0) {
		char a[8], b[8];
		char *argv[] = {"t_vfs", "cloexec", a, b, 0};
		char *envp[] = {0};
		long fa = sys(__NR_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC, 0);
		long fb = sys(__NR_openat, AT_FDCWD, "/dev/null", O_RDONLY, 0);

		snprintf(a, sizeof(a), "%ld", fa);
		snprintf(b, sizeof(b), "%ld", fb);
		sys(__NR_execve, T_VFS_SELF, argv, envp);
		exit(99);
	}
	{
		int status = -1;

		sys(__NR_wait4, -1, &status, 0, 0);
		check(status == 0, "execve closes O_CLOEXEC fds, keeps the rest", status);
	}
}

static void devices(void)
{
	char buf[8] = "xxxxxxx";
	long fd = sys(__NR_openat, AT_FDCWD, "/dev/zero", O_RDONLY, 0), rc;
	struct stat st;

	check(sys(__NR_read, (int)fd, buf, 4) == 4 && !memcmp(buf, "\0\0\0\0xxx", 7), "/dev/zero",
	      0);
	sys(__NR_close, (int)fd);
	fd = sys(__NR_openat, AT_FDCWD, "/dev/null", O_RDWR, 0);
	check(sys(__NR_write, (int)fd, "x", 1) == 1 && sys(__NR_read, (int)fd, buf, 4) == 0,
	      "/dev/null", 0);
	sys(__NR_close, (int)fd);
	check(sys(__NR_stat, "/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR &&
		      st.st_rdev == ((1 << 8) | 3),
	      "/dev/null is char 1:3", st.st_rdev);
	rc = 0;
	for (int i = 0; i < 5000 && rc >= 0; i++)
		rc = sys(__NR_openat, AT_FDCWD, "/dev/null", O_RDONLY, 0);
	check(rc == -EMFILE, "EMFILE once the table is full", rc);
	for (int i = 3; i < 5000; i++)
		if (sys(__NR_close, i) == -EBADF && i > 64)
			break;
}

/* link, truncate, ftruncate, fsync, chown (root's part; the owner's is in perms()). */
static void attrs(void)
{
	struct stat st;
	char buf[16];
	long fd = sys(__NR_openat, AT_FDCWD, at("a"), O_CREAT | O_RDWR | O_TRUNC, 0644), ro, rc;

	check(sys(__NR_link, at("a"), at("a2")) == 0 && sys(__NR_stat, at("a"), &st) == 0 &&
		      st.st_nlink == 2,
	      "link: two names, nlink 2", st.st_nlink);
	check(sys(__NR_write, (int)fd, "shared", 6) == 6 && sys(__NR_stat, at("a2"), &st) == 0 &&
		      st.st_size == 6,
	      "a hard link sees the same data", st.st_size);
	rc = sys(__NR_link, at("a"), at("a2"));
	check(rc == -EEXIST, "link over an existing name", rc);
	rc = sys(__NR_link, base, at("dlink"));
	check(rc == -EPERM, "link to a directory", rc);
	check(sys(__NR_unlink, at("a2")) == 0 && sys(__NR_fstat, (int)fd, &st) == 0 &&
		      st.st_nlink == 1,
	      "unlink drops nlink", st.st_nlink);
	check(sys(__NR_ftruncate, (int)fd, 3) == 0 && sys(__NR_fstat, (int)fd, &st) == 0 &&
		      st.st_size == 3,
	      "ftruncate shrinks", st.st_size);
	check(sys(__NR_truncate, at("a"), 10) == 0 &&
		      sys(__NR_pread64, (int)fd, buf, 10, 0) == 10 && buf[3] == 0 && buf[9] == 0 &&
		      !memcmp(buf, "sha", 3),
	      "truncate grows with zeros", 0);
	rc = sys(__NR_truncate, at("a"), -1);
	check(rc == -EINVAL, "truncate to a negative size", rc);
	rc = sys(__NR_truncate, base, 0);
	check(rc == -EISDIR, "truncate a directory", rc);
	ro = sys(__NR_openat, AT_FDCWD, at("a"), O_RDONLY, 0);
	rc = sys(__NR_ftruncate, (int)ro, 0);
	check(rc == -EINVAL, "ftruncate of a read-only fd", rc);
	sys(__NR_close, (int)ro);
	check(sys(__NR_fsync, (int)fd) == 0, "fsync", 0);
	rc = sys(__NR_fsync, 99);
	check(rc == -EBADF, "fsync of a bad fd", rc);
	if (sys(__NR_geteuid) == 0) {
		check(sys(__NR_fchown, (int)fd, 1000, 1000) == 0 &&
			      sys(__NR_fstat, (int)fd, &st) == 0 && st.st_uid == 1000 &&
			      st.st_gid == 1000,
		      "root chowns", st.st_uid);
		sys(__NR_symlink, "a", at("al"));
		check(sys(__NR_lchown, at("al"), 1000, -1) == 0 &&
			      sys(__NR_lstat, at("al"), &st) == 0 && st.st_uid == 1000 &&
			      sys(__NR_stat, at("al"), &st) == 0 && st.st_uid == 1000,
		      "lchown changes the link itself", st.st_uid);
		check(sys(__NR_chown, at("a"), -1, 0) == 0 && sys(__NR_stat, at("a"), &st) == 0 &&
			      st.st_uid == 1000 && st.st_gid == 0,
		      "chown -1 keeps the uid", st.st_gid);
		sys(__NR_unlink, at("al"));
	}
	sys(__NR_close, (int)fd);
	sys(__NR_unlink, at("a"));
}

/* As uid 1000: Linux's permission bits, the sticky /tmp, and no bypass. */
static void perms(void)
{
	long fd = sys(__NR_openat, AT_FDCWD, at("secret"), O_CREAT | O_WRONLY, 0600), rc;
	int status = -1;

	sys(__NR_close, (int)fd);
	fd = sys(__NR_openat, AT_FDCWD, at("pub"), O_CREAT | O_WRONLY, 0644);
	sys(__NR_close, (int)fd);
	sys(__NR_chmod, base, 01777);
	if (sys(__NR_fork) == 0) {
		int f = 0;
		long r;

		sys(__NR_setresgid, 1000, 1000, 1000);
		sys(__NR_setresuid, 1000, 1000, 1000);
		r = sys(__NR_openat, AT_FDCWD, at("secret"), O_RDONLY, 0);
		f += r != -EACCES;
		r = sys(__NR_openat, AT_FDCWD, at("pub"), O_WRONLY, 0);
		f += r != -EACCES;
		r = sys(__NR_openat, AT_FDCWD, at("pub"), O_RDONLY, 0);
		f += r < 0;
		r = sys(__NR_access, at("secret"), R_OK);
		f += r != -EACCES;
		r = sys(__NR_unlink, at("pub"));
		f += r != -EPERM; /* sticky: not the owner of the file or the directory */
		r = sys(__NR_chmod, at("pub"), 0666);
		f += r != -EPERM;
		r = sys(__NR_mkdir, "/newdir", 0755);
		f += r != -EACCES;
		r = sys(__NR_openat, AT_FDCWD, at("mine"), O_CREAT | O_WRONLY, 0600);
		f += r < 0;
		r = sys(__NR_fchown,
			(int)sys(__NR_openat, AT_FDCWD, at("mine2"), O_CREAT | O_WRONLY, 0600), 0,
			-1);
		f += r != -EPERM; /* giving a file away needs CAP_CHOWN */
		r = sys(__NR_chown, at("mine2"), -1, 1000);
		f += r != 0; /* the owner may set its own group */
		r = sys(__NR_chown, at("pub"), -1, 1000);
		f += r != -EPERM;
		r = sys(__NR_unlink, at("mine"));
		f += r != 0;
		sys(__NR_unlink, at("mine2"));
		exit(f);
	}
	sys(__NR_wait4, -1, &status, 0, 0);
	check(status == 0, "as uid 1000: EACCES, EPERM and the sticky bit", status);
	rc = sys(__NR_access, at("secret"), R_OK | W_OK);
	check(rc == 0, "root passes access()", rc);
	sys(__NR_unlink, at("secret"));
	sys(__NR_unlink, at("pub"));
}

#ifndef HOST_SHIM
/* Only here: the image's own initramfs and console. */
static void image(void)
{
	char buf[64];
	struct winsize ws;
	long rc = read_file("/etc/motd", buf, sizeof(buf));

	check(rc > 19 && !memcmp(buf, "aslrbench initramfs", 19), "/etc/motd from the initramfs",
	      rc);
	rc = sys(__NR_readlink, "/etc/issue", buf, sizeof(buf));
	check(rc == 4 && !memcmp(buf, "motd", 4), "a symlink from the initramfs", rc);
	rc = sys(__NR_ioctl, 1, TIOCGWINSZ, &ws);
	check(rc == 0 && ws.ws_col > 0, "TIOCGWINSZ on the console", rc);
	{
		unsigned char t[36], u[36];
		int pg = 0, bad = -1, none = 99999;

		rc = sys(__NR_ioctl, 0, TCGETS, t);
		check(rc == 0 && (t[12] & 2), "TCGETS: Linux's default c_lflag has ICANON", rc);
		t[0] ^= 1;
		check(sys(__NR_ioctl, 0, TCSETS, t) == 0 && sys(__NR_ioctl, 0, TCGETS, u) == 0 &&
			      u[0] == t[0],
		      "TCSETS is read back by TCGETS", 0);
		t[0] ^= 1;
		sys(__NR_ioctl, 0, TCSETSW, t);
		rc = sys(__NR_ioctl, 0, TIOCGPGRP, &pg);
		check(rc == 0 && pg > 0, "TIOCGPGRP", pg);
		rc = sys(__NR_ioctl, 0, TIOCSPGRP, &bad);
		check(rc == -EINVAL, "TIOCSPGRP of a negative group", rc);
		rc = sys(__NR_ioctl, 0, TIOCSPGRP, &none);
		check(rc == -ESRCH, "TIOCSPGRP of no such group", rc);
		rc = sys(__NR_ioctl, 0, TIOCSPGRP, &pg);
		check(rc == 0, "TIOCSPGRP back", rc);
		rc = sys(__NR_ioctl, 0, 0x12345678, &pg);
		check(rc == -ENOTTY, "an unknown ioctl on the console", rc);
	}
}

/*
 * The kernel's own limits: 64 MiB per file (EFBIG), file data at most half
 * of memory (ENOSPC, as a tmpfs of the default size), given back on unlink.
 */
static void limits(void)
{
	const long max = 64L << 20;
	long fd, rc = 0;
	int n;

	fd = sys(__NR_openat, AT_FDCWD, at("big0"), O_CREAT | O_RDWR, 0600);
	rc = sys(__NR_pwrite64, (int)fd, "xy", 2, max - 1);
	check(rc == 1, "a write across 64 MiB is cut short", rc);
	rc = sys(__NR_pwrite64, (int)fd, "x", 1, max);
	check(rc == -EFBIG, "a write at 64 MiB is EFBIG", rc);
	sys(__NR_close, (int)fd);
	sys(__NR_unlink, at("big0"));
	sys(__NR_close, (int)fd);
	for (n = 0; n < 16; n++) {
		char name[8] = "big0";

		name[3] = (char)('0' + n % 10);
		name[2] = n >= 10 ? '1' : 'g';
		fd = sys(__NR_openat, AT_FDCWD, at(name), O_CREAT | O_RDWR, 0600);
		rc = sys(__NR_pwrite64, (int)fd, "x", 1, max - 1);
		sys(__NR_close, (int)fd);
		if (rc != 1)
			break;
	}
	/* ENOSPC at half of memory takes real data: tests/linux/lx_bigwrite.c fills it. */
	check(rc == 1 && n == 16,
	      "16 files of 64 MiB holding one byte each: holes take no memory, as tmpfs's", rc);
	for (int i = 0; i <= n && i < 16; i++) {
		char name[8] = "big0";

		name[3] = (char)('0' + i % 10);
		name[2] = i >= 10 ? '1' : 'g';
		sys(__NR_unlink, at(name));
	}
	fd = sys(__NR_openat, AT_FDCWD, at("big0"), O_CREAT | O_RDWR, 0600);
	rc = sys(__NR_pwrite64, (int)fd, "x", 1, max - 1);
	check(rc == 1, "unlink gives the space back", rc);
	sys(__NR_close, (int)fd);
	sys(__NR_unlink, at("big0"));
}
#endif

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "cloexec"))
		return sys(__NR_fcntl, (int)atol(argv[2]), F_GETFD, 0) == -EBADF &&
				       sys(__NR_fcntl, (int)atol(argv[3]), F_GETFD, 0) == 0
			       ? 0
			       : 1;
	sys(__NR_umask, 022);
	snprintf(base, sizeof(base), "/tmp/t_vfs.%ld", sys(__NR_getpid));
	check(sys(__NR_mkdir, base, 0755) == 0, "mkdir the test directory", 0);
	files();
	dirs();
	links();
	fds();
	devices();
	attrs();
	if (sys(__NR_geteuid) == 0)
		perms();
	else
		printf("t_vfs: not root: permission checks skipped\n");
#ifndef HOST_SHIM
	if (argc > 1) {
		image();
		limits();
	}
#else
	(void)argc;
#endif
	sys(__NR_unlink, at("f"));
	check(sys(__NR_rmdir, base) == 0, "the test directory is empty at the end", 0);
	printf("t_vfs: %d failed\n", failures);
	return failures;
}
