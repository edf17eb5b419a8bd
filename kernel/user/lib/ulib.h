/* The user programs' C library: system calls, strings, printf.  Freestanding. */
#ifndef USER_ULIB_H
#define USER_ULIB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/string.h"	   /* the kernel's own string functions, shared */
#include "kernel/lib/vsprintf.h"   /* and its printf formatter */
#include "kernel/lib/errno.h"	   /* Linux's values, as the kernel returns them */
#include "kernel/uapi/aslrbench.h" /* system calls and their values */

#define WIFEXITED(s)   (((s)&0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((s)&0x7f) != 0 && ((s)&0x7f) != 0x7f)
#define WTERMSIG(s)    ((s)&0x7f)

struct timespec {
	int64_t tv_sec, tv_nsec;
};

long syscall6(long nr, long a, long b, long c, long d, long e, long f);
#define syscall0(n)	     syscall6(n, 0, 0, 0, 0, 0, 0)
#define syscall1(n, a)	     syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define syscall2(n, a, b)    syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define syscall3(n, a, b, c) syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* struct stat as the x86_64 kernel writes it (arch/x86/include/uapi/asm/stat.h). */
struct stat {
	uint64_t st_dev, st_ino, st_nlink;
	uint32_t st_mode, st_uid, st_gid, __pad0;
	uint64_t st_rdev;
	int64_t st_size, st_blksize, st_blocks;
	uint64_t st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	int64_t __unused[3];
};
struct iovec {
	void *iov_base;
	size_t iov_len;
};
struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};
#define S_IFMT	       0170000
#define S_IFDIR	       0040000
#define S_IFREG	       0100000
#define S_IFLNK	       0120000
#define S_IFCHR	       0020000
#define S_IFIFO	       0010000
#define S_ISVTX	       01000
#define DT_DIR	       4
#define DT_REG	       8
#define DT_LNK	       10
#define SYS_getdents64 __NR_getdents64

/* Thin wrappers: return the kernel's value, -errno on failure (no errno variable). */
long write(int fd, const void *buf, size_t n);
long read(int fd, void *buf, size_t n);
long open(const char *path, int flags);
long close(int fd);
long openat(int dirfd, const char *path, int flags, unsigned mode);
long lseek(int fd, long off, int whence);
long pread64(int fd, void *buf, size_t n, long off);
long pwrite64(int fd, const void *buf, size_t n, long off);
long readv(int fd, const struct iovec *iov, int cnt);
long writev(int fd, const struct iovec *iov, int cnt);
long dup(int fd);
long dup2(int fd, int to);
long dup3(int fd, int to, int flags);
long fcntl(int fd, int cmd, long arg);
long pipe2(int fds[2], int flags);
long stat(const char *path, struct stat *st);
long lstat(const char *path, struct stat *st);
long fstat(int fd, struct stat *st);
long getdents64(int fd, void *buf, size_t n);
long mkdir(const char *path, unsigned mode);
long rmdir(const char *path);
long unlink(const char *path);
long unlinkat(int dirfd, const char *path, int flags);
long rename(const char *from, const char *to);
long symlink(const char *target, const char *path);
long readlink(const char *path, char *buf, size_t n);
long chdir(const char *path);
long fchdir(int fd);
long getcwd(char *buf, size_t n);
long access(const char *path, int mode);
long umask(unsigned mask);
long chmod(const char *path, unsigned mode);
long fchmod(int fd, unsigned mode);
long ioctl(int fd, unsigned long cmd, void *arg);
long setresuid(unsigned r, unsigned e, unsigned s);
long setresgid(unsigned r, unsigned e, unsigned s);
long geteuid(void);
long link(const char *from, const char *to);
long truncate(const char *path, long len);
long ftruncate(int fd, long len);
long fsync(int fd);
long chown(const char *path, unsigned uid, unsigned gid);
long lchown(const char *path, unsigned uid, unsigned gid);
long fchown(int fd, unsigned uid, unsigned gid);
long execve(const char *path, char *const argv[], char *const envp[]);
long fork(void);
long spawn(const char *name, char *const argv[]);
long wait4(int pid, int *status, int options, void *rusage);
long getpid(void);
long getppid(void);
long sched_yield(void);
long nanosleep(const struct timespec *req, struct timespec *rem);
long getrandom(void *buf, size_t n, unsigned flags);
void *brk(void *addr);
long mmap_anon(size_t len, int prot);
long munmap(void *addr, size_t len);
uint64_t now_ns(void);
void sleep_ms(unsigned ms);
__attribute__((noreturn)) void exit(int code);

long atol(const char *s);
/* A whole (small) file into buf, NUL-terminated; its length or -errno. */
long read_file(const char *path, char *buf, long cap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int main(int argc, char **argv);

#endif
