/*
 * lx_errsweep: system calls with bad arguments, one line each,
 * "CALL(ARGS) -> RESULT", where RESULT is -ENAME for an error, "ok" for
 * success (or the value, where it is the same on every Linux).  Bad fds,
 * bad pointers (NULL, a kernel address, an unmapped page), bad flags, bad
 * lengths, unknown system call numbers.  tests/sh/linux-ref.sh runs it
 * under Linux 6.12 and under aslrbench and fails on any line that differs.
 * Raw system calls (syscall(2)), so no C library checks an argument first.
 * Usage: lx_errsweep
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define KADDR  0xffff800000000000UL /* the kernel half */
#define NCADDR 0x0000800000000000UL /* the first non-canonical address */

static const struct {
	int e;
	const char *name;
} names[] = {
	{EPERM, "EPERM"},
	{ENOENT, "ENOENT"},
	{ESRCH, "ESRCH"},
	{EINTR, "EINTR"},
	{EIO, "EIO"},
	{E2BIG, "E2BIG"},
	{ENOEXEC, "ENOEXEC"},
	{EBADF, "EBADF"},
	{ECHILD, "ECHILD"},
	{EAGAIN, "EAGAIN"},
	{ENOMEM, "ENOMEM"},
	{EACCES, "EACCES"},
	{EFAULT, "EFAULT"},
	{EBUSY, "EBUSY"},
	{EEXIST, "EEXIST"},
	{ENOTDIR, "ENOTDIR"},
	{EISDIR, "EISDIR"},
	{EINVAL, "EINVAL"},
	{EMFILE, "EMFILE"},
	{ENOTTY, "ENOTTY"},
	{ESPIPE, "ESPIPE"},
	{EROFS, "EROFS"},
	{ERANGE, "ERANGE"},
	{ENAMETOOLONG, "ENAMETOOLONG"},
	{ENOSYS, "ENOSYS"},
	{ENOTEMPTY, "ENOTEMPTY"},
	{ELOOP, "ELOOP"},
	{EOVERFLOW, "EOVERFLOW"},
	{EOPNOTSUPP, "EOPNOTSUPP"},
};

static void show(const char *call, long rc, int exact)
{
	const char *name = 0;
	int e = errno;

	if (rc >= 0) {
		if (exact)
			printf("%s -> %ld\n", call, rc);
		else
			printf("%s -> ok\n", call);
		return;
	}
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			name = names[i].name;
	if (name)
		printf("%s -> -%s\n", call, name);
	else
		printf("%s -> -%d\n", call, e);
}

/* T: the call's value is "ok" when it succeeds; X: its value is printed. */
#define T(call, ...)                                                                               \
	do {                                                                                       \
		errno = 0;                                                                         \
		show(call, syscall(__VA_ARGS__), 0);                                               \
	} while (0)
#define X(call, ...)                                                                               \
	do {                                                                                       \
		errno = 0;                                                                         \
		show(call, syscall(__VA_ARGS__), 1);                                               \
	} while (0)

int main(void)
{
	static char buf[4096] __attribute__((aligned(4096)));
	struct timespec bad_ts = {0, 2000000000L};
	int fd = open("/etc/motd", O_RDONLY);
	char *hole = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	setvbuf(stdout, 0, _IOLBF, 0);
	munmap(hole, 4096); /* an unmapped page */

	/* file descriptors */
	T("read(-1, buf, 1)", SYS_read, -1, buf, 1);
	T("read(1000000, buf, 1)", SYS_read, 1000000, buf, 1);
	T("read(file, KADDR, 1)", SYS_read, fd, KADDR, 1);
	T("read(file, NULL, 1)", SYS_read, fd, 0, 1);
	T("read(file, hole, 1)", SYS_read, fd, hole, 1);
	X("read(file, buf, 0)", SYS_read, fd, buf, 0);
	T("write(-1, buf, 1)", SYS_write, -1, buf, 1);
	T("write(file O_RDONLY, buf, 1)", SYS_write, fd, buf, 1);
	T("write(1, KADDR, 1)", SYS_write, 1, KADDR, 1);
	T("write(1, NCADDR, 1)", SYS_write, 1, NCADDR, 1);
	T("pread64(file, buf, 1, -1)", SYS_pread64, fd, buf, 1, -1L);
	T("close(-1)", SYS_close, -1);
	T("close(1000000)", SYS_close, 1000000);
	T("dup(-1)", SYS_dup, -1);
	T("dup2(-1, 50)", SYS_dup2, -1, 50);
	X("dup2(file, file)", SYS_dup2, fd, fd);
	T("dup3(file, file, 0)", SYS_dup3, fd, fd, 0);
	T("dup3(file, 50, 0x1234)", SYS_dup3, fd, 50, 0x1234);
	T("fcntl(-1, F_GETFD)", SYS_fcntl, -1, F_GETFD);
	T("fcntl(file, 9999)", SYS_fcntl, fd, 9999);
	T("fstat(-1, buf)", SYS_fstat, -1, buf);
	T("fstat(file, KADDR)", SYS_fstat, fd, KADDR);
	T("lseek(-1, 0, SEEK_SET)", SYS_lseek, -1, 0, SEEK_SET);
	T("lseek(file, 0, 99)", SYS_lseek, fd, 0, 99);
	T("lseek(file, -1, SEEK_SET)", SYS_lseek, fd, -1L, SEEK_SET);
	T("ioctl(-1, 0, 0)", SYS_ioctl, -1, 0, 0);
	T("ioctl(file, TCGETS, buf)", SYS_ioctl, fd, 0x5401, buf);
	T("getdents64(-1, buf, 4096)", SYS_getdents64, -1, buf, 4096);
	T("getdents64(file, buf, 4096)", SYS_getdents64, fd, buf, 4096);

	/* paths */
	T("open(KADDR, O_RDONLY)", SYS_open, KADDR, O_RDONLY);
	T("open(NULL, O_RDONLY)", SYS_open, 0, O_RDONLY);
	T("open(\"\", O_RDONLY)", SYS_open, "", O_RDONLY);
	T("open(\"/\", O_WRONLY)", SYS_open, "/", O_WRONLY);
	T("open(\"/nonexistent\", O_RDONLY)", SYS_open, "/nonexistent", O_RDONLY);
	T("open(\"/etc/motd/x\", O_RDONLY)", SYS_open, "/etc/motd/x", O_RDONLY);
	T("open(\"/etc/motd\", O_DIRECTORY)", SYS_open, "/etc/motd", O_DIRECTORY);
	T("open(\"/proc/self/stat\", O_WRONLY)", SYS_open, "/proc/self/stat", O_WRONLY);
	T("openat(-1, \"x\", O_RDONLY)", SYS_openat, -1, "x", O_RDONLY);
	T("openat(file, \"x\", O_RDONLY)", SYS_openat, fd, "x", O_RDONLY);
	T("stat(\"\", buf)", SYS_stat, "", buf);
	T("stat(\"/\", KADDR)", SYS_stat, "/", KADDR);
	T("chdir(KADDR)", SYS_chdir, KADDR);
	T("chdir(\"/nonexistent\")", SYS_chdir, "/nonexistent");
	T("chdir(\"/etc/motd\")", SYS_chdir, "/etc/motd");
	T("getcwd(buf, 0)", SYS_getcwd, buf, 0);
	T("getcwd(buf, 1)", SYS_getcwd, buf, 1);
	T("getcwd(KADDR, 100)", SYS_getcwd, KADDR, 100);
	T("readlink(\"/proc/self/exe\", KADDR, 100)", SYS_readlink, "/proc/self/exe", KADDR, 100);
	T("readlink(\"/etc/motd\", buf, 100)", SYS_readlink, "/etc/motd", buf, 100);
	T("readlink(\"/proc/self/exe\", buf, 0)", SYS_readlink, "/proc/self/exe", buf, 0);
	T("execve(KADDR, NULL, NULL)", SYS_execve, KADDR, 0, 0);
	T("execve(\"/nonexistent\", NULL, NULL)", SYS_execve, "/nonexistent", 0, 0);
	T("execve(\"/etc/motd\", NULL, NULL)", SYS_execve, "/etc/motd", 0, 0);
	T("execve(\"/\", NULL, NULL)", SYS_execve, "/", 0, 0);
	T("mkdir(\"/nonexistent/x\", 0755)", SYS_mkdir, "/nonexistent/x", 0755);
	T("rmdir(\"/\")", SYS_rmdir, "/");
	T("unlink(\"/etc\")", SYS_unlink, "/etc");

	/* memory */
	T("mmap(0, 0, RW, PRIVATE|ANON, -1, 0)", SYS_mmap, 0, 0, PROT_READ | PROT_WRITE,
	  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T("mmap(0, 4096, RW, 0, -1, 0)", SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, 0, -1, 0);
	T("mmap(0, 4096, R, PRIVATE, -1, 0)", SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE, -1, 0);
	T("mmap(0, 4096, R, PRIVATE, file, 1)", SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE, fd, 1);
	T("mmap(0, 2^63, R, PRIVATE|ANON, -1, 0)", SYS_mmap, 0, 1UL << 63, PROT_READ,
	  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T("mmap(0, 2^47, R, PRIVATE|ANON, -1, 0)", SYS_mmap, 0, 1UL << 47, PROT_READ,
	  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T("mmap(KADDR, 4096, R, PRIVATE|ANON|FIXED, -1, 0)", SYS_mmap, KADDR, 4096, PROT_READ,
	  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	T("mmap(1, 4096, R, PRIVATE|ANON|FIXED, -1, 0)", SYS_mmap, 1, 4096, PROT_READ,
	  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	T("mmap(0, 4096, R, PRIVATE|SHARED|ANON, -1, 0)", SYS_mmap, 0, 4096, PROT_READ,
	  MAP_PRIVATE | MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	T("munmap(buf + 1, 4096)", SYS_munmap, buf + 1, 4096);
	T("munmap(buf, 0)", SYS_munmap, buf, 0);
	T("munmap(KADDR, 4096)", SYS_munmap, KADDR, 4096);
	T("munmap(hole, 4096)", SYS_munmap, hole, 4096);
	T("mprotect(buf + 1, 4096, R)", SYS_mprotect, buf + 1, 4096, PROT_READ);
	T("mprotect(buf, 4096, 0xff)", SYS_mprotect, buf, 4096, 0xff);
	T("mprotect(hole, 4096, R)", SYS_mprotect, hole, 4096, PROT_READ);
	T("mprotect(KADDR, 4096, R)", SYS_mprotect, KADDR, 4096, PROT_READ);
	T("madvise(buf + 1, 4096, MADV_NORMAL)", SYS_madvise, buf + 1, 4096, MADV_NORMAL);
	T("madvise(buf, 4096, 9999)", SYS_madvise, buf, 4096, 9999);
	T("madvise(hole, 4096, MADV_DONTNEED)", SYS_madvise, hole, 4096, MADV_DONTNEED);
	T("mremap(buf + 1, 4096, 8192, 0)", SYS_mremap, buf + 1, 4096, 8192, 0);
	T("mremap(hole, 4096, 8192, MREMAP_MAYMOVE)", SYS_mremap, hole, 4096, 8192, 1);
	T("msync(buf + 1, 4096, MS_SYNC)", SYS_msync, buf + 1, 4096, MS_SYNC);
	T("msync(hole, 4096, MS_SYNC)", SYS_msync, hole, 4096, MS_SYNC);
	T("mincore(buf + 1, 4096, buf)", SYS_mincore, buf + 1, 4096, buf);
	T("mincore(hole, 4096, buf)", SYS_mincore, hole, 4096, buf);

	/* randomness, time, identity */
	T("getrandom(KADDR, 16, 0)", SYS_getrandom, KADDR, 16, 0);
	T("getrandom(NULL, 16, 0)", SYS_getrandom, 0, 16, 0);
	T("getrandom(hole, 16, 0)", SYS_getrandom, hole, 16, 0);
	T("getrandom(buf, 16, 0xff)", SYS_getrandom, buf, 16, 0xff);
	X("getrandom(NULL, 0, 0)", SYS_getrandom, 0, 0, 0);
	X("getrandom(buf, 16, GRND_NONBLOCK)", SYS_getrandom, buf, 16, 1);
	T("getrandom(buf, 16, GRND_RANDOM|GRND_INSECURE)", SYS_getrandom, buf, 16, 2 | 4);
	T("clock_gettime(99, buf)", SYS_clock_gettime, 99, buf);
	T("clock_gettime(-1, buf)", SYS_clock_gettime, -1, buf);
	T("clock_gettime(CLOCK_MONOTONIC, KADDR)", SYS_clock_gettime, CLOCK_MONOTONIC, KADDR);
	T("clock_getres(99, buf)", SYS_clock_getres, 99, buf);
	T("gettimeofday(KADDR, NULL)", SYS_gettimeofday, KADDR, 0);
	T("time(KADDR)", SYS_time, KADDR);
	T("nanosleep(KADDR, NULL)", SYS_nanosleep, KADDR, 0);
	T("nanosleep({0, 2e9}, NULL)", SYS_nanosleep, &bad_ts, 0);
	T("uname(KADDR)", SYS_uname, KADDR);
	T("sysinfo(KADDR)", SYS_sysinfo, KADDR);
	T("getrlimit(99, buf)", SYS_getrlimit, 99, buf);
	T("getrlimit(RLIMIT_STACK, KADDR)", SYS_getrlimit, 3, KADDR);
	T("prlimit64(0, 99, NULL, buf)", SYS_prlimit64, 0, 99, 0, buf);
	T("getrusage(99, buf)", SYS_getrusage, 99, buf);
	T("times(KADDR)", SYS_times, KADDR);
	T("setuid(-1)", SYS_setuid, -1);
	T("getgroups(-1, buf)", SYS_getgroups, -1, buf);

	/* processes and signals */
	T("kill(0x7fffffff, 0)", SYS_kill, 0x7fffffff, 0);
	T("kill(1, 99)", SYS_kill, 1, 99);
	T("tgkill(0, 0, 0)", SYS_tgkill, 0, 0, 0);
	T("rt_sigaction(99, NULL, NULL, 8)", SYS_rt_sigaction, 99, 0, 0, 8);
	T("rt_sigaction(SIGKILL, buf, NULL, 8)", SYS_rt_sigaction, SIGKILL, buf, 0, 8);
	T("rt_sigaction(SIGUSR1, NULL, NULL, 7)", SYS_rt_sigaction, SIGUSR1, 0, 0, 7);
	T("rt_sigaction(SIGUSR1, KADDR, NULL, 8)", SYS_rt_sigaction, SIGUSR1, KADDR, 0, 8);
	T("rt_sigprocmask(99, buf, NULL, 8)", SYS_rt_sigprocmask, 99, buf, 0, 8);
	T("rt_sigprocmask(SIG_BLOCK, KADDR, NULL, 8)", SYS_rt_sigprocmask, SIG_BLOCK, KADDR, 0, 8);
	T("rt_sigprocmask(SIG_BLOCK, NULL, NULL, 4)", SYS_rt_sigprocmask, SIG_BLOCK, 0, 0, 4);
	T("sigaltstack(KADDR, NULL)", SYS_sigaltstack, KADDR, 0);
	T("wait4(-1, NULL, 0, NULL)", SYS_wait4, -1, 0, 0, 0);
	T("wait4(0x7fffffff, NULL, 0, NULL)", SYS_wait4, 0x7fffffff, 0, 0, 0);
	T("wait4(-1, NULL, 0x7fff0000, NULL)", SYS_wait4, -1, 0, 0x7fff0000, 0);
	T("waitid(99, 0, NULL, WEXITED, NULL)", SYS_waitid, 99, 0, 0, 4, 0);
	T("setpgid(-1, 0)", SYS_setpgid, -1, 0);
	T("getpgid(0x7fffffff)", SYS_getpgid, 0x7fffffff);
	T("getsid(0x7fffffff)", SYS_getsid, 0x7fffffff);
	T("sched_getaffinity(0, 1, buf)", SYS_sched_getaffinity, 0, 1, buf);
	T("sched_setaffinity(0, 0, buf)", SYS_sched_setaffinity, 0, 0, buf);
	T("sched_getaffinity(0x7fffffff, 128, buf)", SYS_sched_getaffinity, 0x7fffffff, 128, buf);
	T("setpriority(99, 0, 0)", SYS_setpriority, 99, 0, 0);
	T("prctl(9999, 0, 0, 0, 0)", SYS_prctl, 9999, 0, 0, 0, 0);
	T("arch_prctl(0x9999, 0)", SYS_arch_prctl, 0x9999, 0);
	T("arch_prctl(ARCH_SET_FS, KADDR)", SYS_arch_prctl, 0x1002, KADDR);
	T("arch_prctl(ARCH_GET_FS, KADDR)", SYS_arch_prctl, 0x1003, KADDR);
	T("futex(KADDR, FUTEX_WAIT, 0, NULL)", SYS_futex, KADDR, 0, 0, 0);
	T("futex(buf + 1, FUTEX_WAIT, 0, NULL)", SYS_futex, buf + 1, 0, 0, 0);
	T("futex(buf, 99, 0, NULL)", SYS_futex, buf, 99, 0, 0);
	T("set_robust_list(buf, 1)", SYS_set_robust_list, buf, 1);

	/* polling, pipes */
	T("pipe(KADDR)", SYS_pipe, KADDR);
	T("pipe2(buf, 0xffff)", SYS_pipe2, buf, 0xffff);
	T("poll(KADDR, 1, 0)", SYS_poll, KADDR, 1, 0);
	T("poll(NULL, 2^30, 0)", SYS_poll, 0, 1 << 30, 0);
	X("poll(NULL, 0, 0)", SYS_poll, 0, 0, 0);
	T("select(-1, NULL, NULL, NULL, NULL)", SYS_select, -1, 0, 0, 0, 0);
	T("select(1, KADDR, NULL, NULL, NULL)", SYS_select, 1, KADDR, 0, 0, 0);

	/* system call numbers */
	/* not 335: uretprobe since 6.11, SIGILL outside a uretprobe's trampoline */
	T("syscall 400", 400);
	T("syscall 463", 463);
	T("syscall 512", 512);
	T("syscall 1000", 1000);
	T("syscall -1", -1);
	T("syscall 0x40000000 + getppid (x32)", 0x40000000L + SYS_getppid);
	T("syscall 0x100000000 + getppid", 0x100000000L + SYS_getppid);
	return 0;
}
