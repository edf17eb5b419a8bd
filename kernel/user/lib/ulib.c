/* The user programs' C library (see ulib.h). */
#include "kernel/user/lib/ulib.h"

/*
 * One syscall instruction for the whole program (never inlined): every task
 * asleep in the kernel then shows the same user RIP, as a libc's syscall
 * stub does, which is what the attack lab's proc-leak strategy relies on.
 */
__attribute__((noinline)) long syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

long write(int fd, const void *buf, size_t n)
{
	return syscall3(__NR_write, fd, buf, n);
}

long read(int fd, void *buf, size_t n)
{
	return syscall3(__NR_read, fd, buf, n);
}

long open(const char *path, int flags)
{
	return syscall2(__NR_open, path, flags);
}

long close(int fd)
{
	return syscall1(__NR_close, fd);
}

long openat(int dirfd, const char *path, int flags, unsigned mode)
{
	return syscall6(__NR_openat, dirfd, (long)path, flags, mode, 0, 0);
}

long lseek(int fd, long off, int whence)
{
	return syscall3(__NR_lseek, fd, off, whence);
}

long pread64(int fd, void *buf, size_t n, long off)
{
	return syscall6(__NR_pread64, fd, (long)buf, (long)n, off, 0, 0);
}

long pwrite64(int fd, const void *buf, size_t n, long off)
{
	return syscall6(__NR_pwrite64, fd, (long)buf, (long)n, off, 0, 0);
}

long readv(int fd, const struct iovec *iov, int cnt)
{
	return syscall3(__NR_readv, fd, iov, cnt);
}

long writev(int fd, const struct iovec *iov, int cnt)
{
	return syscall3(__NR_writev, fd, iov, cnt);
}

long dup(int fd)
{
	return syscall1(__NR_dup, fd);
}

long dup2(int fd, int to)
{
	return syscall2(__NR_dup2, fd, to);
}

long dup3(int fd, int to, int flags)
{
	return syscall3(__NR_dup3, fd, to, flags);
}

long fcntl(int fd, int cmd, long arg)
{
	return syscall3(__NR_fcntl, fd, cmd, arg);
}

long pipe2(int fds[2], int flags)
{
	return syscall2(__NR_pipe2, fds, flags);
}

long stat(const char *path, struct stat *st)
{
	return syscall2(__NR_stat, path, st);
}

long lstat(const char *path, struct stat *st)
{
	return syscall2(__NR_lstat, path, st);
}

long fstat(int fd, struct stat *st)
{
	return syscall2(__NR_fstat, fd, st);
}

long getdents64(int fd, void *buf, size_t n)
{
	return syscall3(__NR_getdents64, fd, buf, n);
}

long mkdir(const char *path, unsigned mode)
{
	return syscall2(__NR_mkdir, path, mode);
}

long rmdir(const char *path)
{
	return syscall1(__NR_rmdir, path);
}

long unlink(const char *path)
{
	return syscall1(__NR_unlink, path);
}

long unlinkat(int dirfd, const char *path, int flags)
{
	return syscall3(__NR_unlinkat, dirfd, path, flags);
}

long rename(const char *from, const char *to)
{
	return syscall2(__NR_rename, from, to);
}

long symlink(const char *target, const char *path)
{
	return syscall2(__NR_symlink, target, path);
}

long readlink(const char *path, char *buf, size_t n)
{
	return syscall3(__NR_readlink, path, buf, n);
}

long chdir(const char *path)
{
	return syscall1(__NR_chdir, path);
}

long fchdir(int fd)
{
	return syscall1(__NR_fchdir, fd);
}

long getcwd(char *buf, size_t n)
{
	return syscall2(__NR_getcwd, buf, n);
}

long access(const char *path, int mode)
{
	return syscall2(__NR_access, path, mode);
}

long umask(unsigned mask)
{
	return syscall1(__NR_umask, mask);
}

long chmod(const char *path, unsigned mode)
{
	return syscall2(__NR_chmod, path, mode);
}

long fchmod(int fd, unsigned mode)
{
	return syscall2(__NR_fchmod, fd, mode);
}

long ioctl(int fd, unsigned long cmd, void *arg)
{
	return syscall3(__NR_ioctl, fd, cmd, arg);
}

long setresuid(unsigned r, unsigned e, unsigned s)
{
	return syscall3(__NR_setresuid, r, e, s);
}

long setresgid(unsigned r, unsigned e, unsigned s)
{
	return syscall3(__NR_setresgid, r, e, s);
}

long geteuid(void)
{
	return syscall0(__NR_geteuid);
}

long execve(const char *path, char *const argv[], char *const envp[])
{
	return syscall3(__NR_execve, path, argv, envp);
}

long link(const char *from, const char *to)
{
	return syscall2(__NR_link, from, to);
}

long truncate(const char *path, long len)
{
	return syscall2(__NR_truncate, path, len);
}

long ftruncate(int fd, long len)
{
	return syscall2(__NR_ftruncate, fd, len);
}

long fsync(int fd)
{
	return syscall1(__NR_fsync, fd);
}

long chown(const char *path, unsigned uid, unsigned gid)
{
	return syscall3(__NR_chown, path, uid, gid);
}

long lchown(const char *path, unsigned uid, unsigned gid)
{
	return syscall3(__NR_lchown, path, uid, gid);
}

long fchown(int fd, unsigned uid, unsigned gid)
{
	return syscall3(__NR_fchown, fd, uid, gid);
}

long fork(void)
{
	return syscall0(__NR_fork);
}

long spawn(const char *name, char *const argv[])
{
	return syscall2(__NR_spawn, name, argv);
}

long wait4(int pid, int *status, int options, void *rusage)
{
	return syscall6(__NR_wait4, pid, (long)status, options, (long)rusage, 0, 0);
}

long getpid(void)
{
	return syscall0(__NR_getpid);
}

long getppid(void)
{
	return syscall0(__NR_getppid);
}

long sched_yield(void)
{
	return syscall0(__NR_sched_yield);
}

long nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall2(__NR_nanosleep, req, rem);
}

long getrandom(void *buf, size_t n, unsigned flags)
{
	return syscall3(__NR_getrandom, buf, n, flags);
}

void *brk(void *addr)
{
	return (void *)syscall1(__NR_brk, addr);
}

long mmap_anon(size_t len, int prot)
{
	return syscall6(__NR_mmap, 0, (long)len, prot, 0x22, -1, 0);
}

long munmap(void *addr, size_t len)
{
	return syscall2(__NR_munmap, addr, len);
}

uint64_t now_ns(void)
{
	struct timespec ts = {0, 0};

	syscall2(__NR_clock_gettime, 1, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (int64_t)(ms % 1000) * 1000000};

	nanosleep(&ts, 0);
}

void exit(int code)
{
	for (;;)
		syscall1(__NR_exit, code);
}

long read_file(const char *path, char *buf, long cap)
{
	long fd = open(path, 0), n, total = 0;

	if (fd < 0)
		return fd;
	while (total < cap - 1 && (n = read((int)fd, buf + total, (size_t)(cap - 1 - total))) > 0)
		total += n;
	close((int)fd);
	buf[total] = '\0';
	return total;
}

long atol(const char *s)
{
	long v = 0, sign = 1;

	if (*s == '-') {
		sign = -1;
		s++;
	}
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v * sign;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write(1, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	return n;
}

void __libc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	exit(main(argc, argv));
}
