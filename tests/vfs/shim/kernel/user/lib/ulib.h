/*
 * The host stand-in for kernel/user/lib/ulib.h: the same calls, made with
 * glibc's syscall() and returning -errno as the kernel's wrappers do, so
 * kernel/user/t_vfs.c builds unchanged against glibc (tests/vfs/host_vfs.sh)
 * and its expectations are checked on the host Linux.
 */
#ifndef HOST_ULIB_SHIM_H
#define HOST_ULIB_SHIM_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define HOST_SHIM 1
#define S_(...)                                                                                    \
	({                                                                                         \
		long r_ = syscall(__VA_ARGS__);                                                    \
		r_ == -1 ? -(long)errno : r_;                                                      \
	})

#define openat(d, p, f, m)   S_(SYS_openat, (long)(d), (long)(p), (long)(f), (long)(m))
#define read(f, b, n)	     S_(SYS_read, (long)(f), (long)(b), (long)(n))
#define write(f, b, n)	     S_(SYS_write, (long)(f), (long)(b), (long)(n))
#define close(f)	     S_(SYS_close, (long)(f))
#define lseek(f, o, w)	     S_(SYS_lseek, (long)(f), (long)(o), (long)(w))
#define pread64(f, b, n, o)  S_(SYS_pread64, (long)(f), (long)(b), (long)(n), (long)(o))
#define pwrite64(f, b, n, o) S_(SYS_pwrite64, (long)(f), (long)(b), (long)(n), (long)(o))
#define readv(f, v, n)	     S_(SYS_readv, (long)(f), (long)(v), (long)(n))
#define writev(f, v, n)	     S_(SYS_writev, (long)(f), (long)(v), (long)(n))
#define dup(f)		     S_(SYS_dup, (long)(f))
#define dup2(f, t)	     S_(SYS_dup2, (long)(f), (long)(t))
#define dup3(f, t, x)	     S_(SYS_dup3, (long)(f), (long)(t), (long)(x))
#define fcntl(f, c, a)	     S_(SYS_fcntl, (long)(f), (long)(c), (long)(a))
#define pipe2(p, x)	     S_(SYS_pipe2, (long)(p), (long)(x))
#define stat(p, s)	     S_(SYS_stat, (long)(p), (long)(s))
#define lstat(p, s)	     S_(SYS_lstat, (long)(p), (long)(s))
#define fstat(f, s)	     S_(SYS_fstat, (long)(f), (long)(s))
#define getdents64(f, b, n)  S_(SYS_getdents64, (long)(f), (long)(b), (long)(n))
#define mkdir(p, m)	     S_(SYS_mkdir, (long)(p), (long)(m))
#define rmdir(p)	     S_(SYS_rmdir, (long)(p))
#define unlink(p)	     S_(SYS_unlink, (long)(p))
#define rename(a, b)	     S_(SYS_rename, (long)(a), (long)(b))
#define symlink(a, b)	     S_(SYS_symlink, (long)(a), (long)(b))
#define readlink(p, b, n)    S_(SYS_readlink, (long)(p), (long)(b), (long)(n))
#define chdir(p)	     S_(SYS_chdir, (long)(p))
#define fchdir(f)	     S_(SYS_fchdir, (long)(f))
#define getcwd(b, n)	     S_(SYS_getcwd, (long)(b), (long)(n))
#define access(p, m)	     S_(SYS_access, (long)(p), (long)(m))
#define umask(m)	     S_(SYS_umask, (long)(m))
#define chmod(p, m)	     S_(SYS_chmod, (long)(p), (long)(m))
#define fchmod(f, m)	     S_(SYS_fchmod, (long)(f), (long)(m))
#define ioctl(f, c, a)	     S_(SYS_ioctl, (long)(f), (long)(c), (long)(a))
#define setresuid(a, b, c)   S_(SYS_setresuid, (long)(a), (long)(b), (long)(c))
#define setresgid(a, b, c)   S_(SYS_setresgid, (long)(a), (long)(b), (long)(c))
#define link(a, b)	     S_(SYS_link, (long)(a), (long)(b))
#define truncate(p, l)	     S_(SYS_truncate, (long)(p), (long)(l))
#define ftruncate(f, l)	     S_(SYS_ftruncate, (long)(f), (long)(l))
#define fsync(f)	     S_(SYS_fsync, (long)(f))
#define chown(p, u, g)	     S_(SYS_chown, (long)(p), (long)(u), (long)(g))
#define lchown(p, u, g)	     S_(SYS_lchown, (long)(p), (long)(u), (long)(g))
#define fchown(f, u, g)	     S_(SYS_fchown, (long)(f), (long)(u), (long)(g))
#define geteuid()	     S_(SYS_geteuid)
#define getpid()	     S_(SYS_getpid)
/* t_vfs re-executes itself: /bin/t_vfs in the kernel's table, this binary here */
#define execve(p, a, e)	  S_(SYS_execve, (long)"/proc/self/exe", (long)(a), (long)(e))
#define wait4(p, s, o, r) S_(SYS_wait4, (long)(p), (long)(s), (long)(o), (long)(r))

/*
 * A write to a pipe with no reader must come back as EPIPE, not kill the
 * test; 64 fds as the kernel's NR_OPEN (RLIMIT_NOFILE is Linux's limit);
 * unbuffered output, so a forked child does not print its parent's lines.
 */
__attribute__((constructor)) static void host_setup(void)
{
	struct rlimit rl = {64, 64};

	signal(SIGPIPE, SIG_IGN);
	setrlimit(RLIMIT_NOFILE, &rl);
	setvbuf(stdout, 0, _IONBF, 0);
}

#endif
