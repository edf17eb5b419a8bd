/*
 * lx_test: a plain Linux C program, built unchanged as static musl
 * (musl-gcc -static) and static glibc (gcc -static), that checks the
 * process ABI from ring 3: the initial stack (its layout, as Linux's) and auxv, TLS through
 * arch_prctl, fork/wait and the status encoding, uname, mprotect (a write
 * to a read-only page kills the writer with SIGSEGV), rlimits, sysinfo,
 * sessions, the CPU mask, clock_nanosleep.  tests/sh/linux-abi.sh runs the
 * same binaries on the host Linux, which proves every expectation; the
 * kernel embeds them and runs them in its linux suite.
 *
 * Usage: lx_test [all|exit N|env]; prints one "ok"/"FAIL" line per check
 * and exits 0 when every check passed.  argv[0] must name the program for
 * execve (a path on the host, the built-in name in the kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

static __thread int tls_var = 5;

static void check_auxv(void)
{
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	const char *plat = (const char *)getauxval(AT_PLATFORM);
	const char *fn = (const char *)getauxval(AT_EXECFN);
	int nonzero = 0;

	check(getauxval(AT_PAGESZ) == 4096, "auxv AT_PAGESZ 4096");
	check(rnd != 0, "auxv AT_RANDOM present");
	for (int i = 0; rnd && i < 16; i++)
		nonzero |= rnd[i];
	check(nonzero, "auxv AT_RANDOM 16 bytes, not all zero");
	check(getauxval(AT_UID) == getuid() && getauxval(AT_EUID) == geteuid() &&
		      getauxval(AT_GID) == getgid() && getauxval(AT_EGID) == getegid(),
	      "auxv AT_UID/EUID/GID/EGID match the ids");
	check(getauxval(AT_SECURE) == 0, "auxv AT_SECURE 0");
	check(getauxval(AT_PHDR) != 0 && getauxval(AT_PHENT) == 56 && getauxval(AT_PHNUM) > 0,
	      "auxv AT_PHDR/PHENT/PHNUM");
	check(getauxval(AT_ENTRY) != 0, "auxv AT_ENTRY");
	check(getauxval(AT_CLKTCK) == 100, "auxv AT_CLKTCK 100");
	check(plat && !strcmp(plat, "x86_64"), "auxv AT_PLATFORM x86_64");
	check(fn && *fn, "auxv AT_EXECFN");
}

/*
 * The initial stack as Linux (2.6.29 and 6.x, x86_64) lays it out: the
 * strings first, at the top (bprm_mm_init leaves 8 zero bytes under the
 * page-aligned end, then the filename, envp and argv strings, highest
 * first); only then create_elf_tables' arch_align_stack below them, the
 * platform string right under that 16-byte-aligned point, AT_RANDOM's bytes
 * under the platform string, and argc/argv/envp/auxv STACK_ROUNDed below.
 * So argv[0]'s offset in its page depends on the strings alone.
 */
static void check_stack_layout(int argc, char **argv, char **envp)
{
	const char *plat = (const char *)getauxval(AT_PLATFORM);
	const char *fn = (const char *)getauxval(AT_EXECFN);
	uintptr_t rnd = getauxval(AT_RANDOM), top, aligned, a0 = (uintptr_t)argv[0];
	const char *next = argv[0];
	int contiguous = 1, zero = 1;
	char **e = envp;
	uintptr_t *aux;

	for (int i = 0; i < argc; i++) {
		contiguous &= argv[i] == next;
		next = argv[i] + strlen(argv[i]) + 1;
	}
	for (e = envp; *e; e++) {
		contiguous &= *e == next;
		next = *e + strlen(*e) + 1;
	}
	contiguous &= fn == next;
	check(contiguous, "stack: argv, envp strings and AT_EXECFN adjoin, in that order");
	top = fn ? (uintptr_t)fn + strlen(fn) + 1 + 8 : 1;
	for (int i = 0; fn && i < 8; i++)
		zero &= fn[strlen(fn) + 1 + i] == 0;
	check(top % 4096 == 0 && zero, "stack: 8 zero bytes, then the page end, above AT_EXECFN");
	aligned = plat ? (uintptr_t)plat + 7 : 1;
	check(aligned % 16 == 0 && aligned <= (a0 & ~(uintptr_t)15) &&
		      (a0 & ~(uintptr_t)15) - aligned <= 8192,
	      "stack: AT_PLATFORM ends at arch_align_stack(argv[0]), 0..8192 below");
	check(plat && rnd == (uintptr_t)plat - 16, "stack: AT_RANDOM right below AT_PLATFORM");
	aux = (uintptr_t *)(e + 1);
	while (aux[0] != AT_NULL)
		aux += 2;
	aux += 2;
	check((uintptr_t)aux <= rnd && rnd - (uintptr_t)aux < 16 && (uintptr_t)(argv - 1) % 16 == 0,
	      "stack: argc 16-byte aligned, auxv ends < 16 bytes below AT_RANDOM");
}

static void check_tls(void)
{
	unsigned long fs = 0, self;
	pid_t pid;
	int st;

	check(syscall(SYS_arch_prctl, ARCH_GET_FS, &fs) == 0 && fs != 0, "arch_prctl ARCH_GET_FS");
	__asm__("mov %%fs:0, %0" : "=r"(self));
	check(self == fs, "fs:0 is the thread pointer ARCH_GET_FS gave");
	tls_var = 7;
	pid = fork();
	if (pid == 0)
		_exit(tls_var == 7 ? 0 : 1); /* the FS base is inherited over fork */
	check(pid > 0 && waitpid(pid, &st, 0) == pid && st == 0, "TLS inherited over fork");
	check(tls_var == 7, "TLS kept in the parent");
}

static void check_fork_wait(void)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(42);
	check(pid > 0 && wait4(pid, &st, 0, 0) == pid, "fork and wait4");
	check(WIFEXITED(st) && WEXITSTATUS(st) == 42 && st == 42 << 8, "exit status 42 << 8");
	check(syscall(SYS_gettid) == getpid(), "gettid is the pid");
}

static void check_uname(void)
{
	struct utsname u;

	check(uname(&u) == 0 && !strcmp(u.sysname, "Linux") && !strcmp(u.machine, "x86_64") &&
		      u.release[0],
	      "uname: Linux, x86_64, a release");
}

static void check_mprotect(void)
{
	volatile int *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st = 0;

	check(p != MAP_FAILED, "mmap two pages");
	if (p == MAP_FAILED)
		return;
	p[0] = 1;
	p[1024] = 2;
	check(mprotect((void *)p, 4096, PROT_READ) == 0, "mprotect PROT_READ");
	pid = fork();
	if (pid == 0) {
		p[0] = 3; /* faults: SIGSEGV kills the child */
		_exit(0);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == 11,
	      "write to a read-only page: killed by SIGSEGV");
	p[1024] = 4; /* the second page stays writable */
	check(p[0] == 1 && p[1024] == 4, "read-only page kept, its neighbour writable");
	check(mprotect((void *)p, 4096, PROT_READ | PROT_WRITE) == 0, "mprotect back to RW");
	p[0] = 5;
	check(p[0] == 5, "write after PROT_WRITE");
	check(syscall(SYS_mprotect, (char *)p + 1, 4096, PROT_READ) == -1,
	      "mprotect of an unaligned address fails");
	munmap((void *)p, 8192);
}

/* User pages honour PROT_EXEC: a fetch from a page without it kills with SIGSEGV (NX). */
static void check_nx(void)
{
	unsigned char *p =
		mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int (*fn)(void) = (int (*)(void))p;
	static const unsigned char ret42[] = {0xb8, 42, 0, 0, 0, 0xc3}; /* mov eax, 42; ret */
	pid_t pid;
	int st = 0;

	if (p == MAP_FAILED) {
		check(0, "mmap a code page");
		return;
	}
	memcpy(p, ret42, sizeof(ret42));
	pid = fork();
	if (pid == 0)
		_exit(fn() == 42 ? 0 : 1); /* no PROT_EXEC: faults */
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == 11,
	      "call into a page without PROT_EXEC: killed by SIGSEGV");
	check(mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0 && fn() == 42,
	      "mprotect PROT_READ|PROT_EXEC, then the call returns 42");
	munmap(p, 4096);
}

static void check_limits(void)
{
	struct rlimit r, r2;
	struct sysinfo si;

	check(getrlimit(RLIMIT_STACK, &r) == 0 && r.rlim_cur > 0, "getrlimit RLIMIT_STACK");
	r2 = r;
	r2.rlim_cur = 1 << 20;
	check(setrlimit(RLIMIT_STACK, &r2) == 0 && getrlimit(RLIMIT_STACK, &r2) == 0 &&
		      r2.rlim_cur == 1 << 20,
	      "setrlimit RLIMIT_STACK 1 MiB");
	setrlimit(RLIMIT_STACK, &r);
	check(sysinfo(&si) == 0 && si.totalram > 0 && si.mem_unit >= 1 && si.procs > 0, "sysinfo");
}

/* Field 39 of /proc/self/stat: the CPU the task runs on (or ran on last). */
static int stat_processor(void)
{
	char buf[1024], *p;
	int fd = open("/proc/self/stat", O_RDONLY), field = 2;
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');
	for (; p && *p && field < 39; p++)
		if (*p == ' ')
			field++;
	return p && *p ? atoi(p) : -1;
}

/*
 * Pinned to each CPU of its mask in turn (at most 8), the task runs there:
 * getcpu and /proc/self/stat say so.  An empty mask is EINVAL, a bad pointer
 * EFAULT, a pid nobody has ESRCH; a mask of 4 bytes is too short to read
 * back (EINVAL).  The mask is restored.
 */
static void check_affinity(const cpu_set_t *all)
{
	cpu_set_t one, none;
	int tried = 0, good = 0;
	unsigned long small = 0;

	for (int c = 0; c < CPU_SETSIZE && tried < 8; c++) {
		unsigned cpu = 99;

		if (!CPU_ISSET(c, all))
			continue;
		tried++;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0 &&
		    syscall(SYS_getcpu, &cpu, 0, 0) == 0 && cpu == (unsigned)c &&
		    stat_processor() == c)
			good++;
	}
	check(tried && good == tried, "sched_setaffinity: pinned to each CPU, it runs there");
	CPU_ZERO(&none);
	errno = 0;
	check(sched_setaffinity(0, sizeof(none), &none) == -1 && errno == EINVAL,
	      "sched_setaffinity: an empty mask is EINVAL");
	errno = 0;
	check(syscall(SYS_sched_setaffinity, 0, sizeof(one), (void *)8) == -1 && errno == EFAULT,
	      "sched_setaffinity: a bad pointer is EFAULT");
	errno = 0;
	check(sched_setaffinity(999999, sizeof(one), &one) == -1 && errno == ESRCH,
	      "sched_setaffinity: no such pid is ESRCH");
	errno = 0;
	check(syscall(SYS_sched_getaffinity, 0, 4, &small) == -1 && errno == EINVAL,
	      "sched_getaffinity: 4 bytes is EINVAL");
	check(sched_setaffinity(0, sizeof(*all), all) == 0, "sched_setaffinity: restored");
}

/*
 * The system-wide /proc files load meters read (Linux 6.6's formats):
 * /proc/stat's cpu line and one cpuN line per CPU the task may use at
 * least, /proc/meminfo's MemTotal above MemFree, /proc/loadavg's five
 * fields, and sysinfo's loads as loadavg's in 16-bit fixed point.
 */
static void check_proc_system(const cpu_set_t *all)
{
	static char buf[8192];
	unsigned long v[10], total = 0, avail = 0, run = 0, threads = 0;
	double l1 = -1, l5 = -1, l15 = -1;
	int fd, n, cpus = 0, last = -1;
	char *line;
	struct sysinfo si;

	fd = open("/proc/stat", O_RDONLY);
	n = fd >= 0 ? (int)read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	check(sscanf(buf, "cpu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu", &v[0], &v[1], &v[2], &v[3],
		     &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) == 10,
	      "/proc/stat: the cpu line, ten fields");
	for (line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : 0) {
		int c;

		if (sscanf(line, "cpu%d ", &c) == 1 && c == last + 1) {
			cpus++;
			last = c;
		}
	}
	check(cpus >= CPU_COUNT(all), "/proc/stat: a cpuN line for every CPU we may run on");
	fd = open("/proc/meminfo", O_RDONLY);
	n = fd >= 0 ? (int)read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	line = strstr(buf, "MemAvailable:");
	check(sscanf(buf, "MemTotal: %lu kB", &total) == 1 && line &&
		      sscanf(line, "MemAvailable: %lu kB", &avail) == 1 && total > avail && avail,
	      "/proc/meminfo: MemTotal, MemAvailable");
	fd = open("/proc/loadavg", O_RDONLY);
	n = fd >= 0 ? (int)read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	check(sscanf(buf, "%lf %lf %lf %lu/%lu", &l1, &l5, &l15, &run, &threads) == 5 && l1 >= 0 &&
		      l5 >= 0 && l15 >= 0 && run >= 1 && threads >= run,
	      "/proc/loadavg: three averages, running/threads");
	check(sysinfo(&si) == 0 && si.loads[0] / 65536.0 <= l1 + 1.0 &&
		      si.loads[0] / 65536.0 >= l1 - 1.0,
	      "sysinfo: loads as /proc/loadavg's");
}

static void check_session(void)
{
	cpu_set_t set;
	struct timespec ts = {0, 10000000};
	unsigned cpu = 99;
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		pid_t me = getpid();

		_exit(setsid() == me && getsid(0) == me && getpgid(0) == me ? 0 : 1);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && st == 0, "setsid, getsid, getpgid");
	CPU_ZERO(&set);
	check(sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0,
	      "sched_getaffinity");
	check(syscall(SYS_getcpu, &cpu, 0, 0) == 0 && cpu < 1024, "getcpu");
	check_affinity(&set);
	check_proc_system(&set);
	check(clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, 0) == 0, "clock_nanosleep 10 ms");
}

/* vfork, execve with an environment, E2BIG, posix_spawn (glibc: CLONE_VM|CLONE_VFORK). */
static void check_exec(const char *self)
{
	static char big[100 * 1024];
	char *envp[] = {"LX_ENV=from-execve", 0};
	char *argv[] = {(char *)self, "env", 0};
	char *bigv[40];
	int st = -1;
	pid_t pid = vfork();

	if (pid == 0)
		_exit(3); /* the parent sleeps until this */
	check(pid > 0 && waitpid(pid, &st, 0) == pid && st == 3 << 8, "vfork, child exits 3");
	pid = fork();
	if (pid == 0) {
		execve(self, argv, envp);
		_exit(99);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && st == 0, "execve with argv and envp");
	memset(big, 'x', sizeof(big) - 1);
	bigv[0] = (char *)self;
	for (int i = 1; i < 39; i++)
		bigv[i] = big; /* 3.8 MB: past 8 MiB / 4 and this kernel's buffer */
	bigv[39] = 0;
	{
		struct rlimit r = {8 << 20, RLIM_INFINITY};
		struct rlimit old;

		getrlimit(RLIMIT_STACK, &old);
		r.rlim_max = old.rlim_max;
		setrlimit(RLIMIT_STACK, &r);
		errno = 0;
		check(execve(self, bigv, envp) == -1 && errno == E2BIG,
		      "execve: E2BIG past the stack limit");
		setrlimit(RLIMIT_STACK, &old);
	}
#ifdef __GLIBC__
	{
		char *sp[] = {(char *)self, "exit", "9", 0};

		check(posix_spawn(&pid, self, 0, 0, sp, envp) == 0 && waitpid(pid, &st, 0) == pid &&
			      st == 9 << 8,
		      "posix_spawn (CLONE_VM|CLONE_VFORK), exit 9");
	}
#endif
}

static void check_writev(void)
{
	struct iovec v[3] = {{"writev: ", 8}, {"three ", 6}, {"pieces\n", 7}};

	check(writev(1, v, 3) == 21, "writev of three pieces");
	v[1].iov_base = (void *)0xffff800000000000UL; /* the kernel half: access_ok fails */
	check(writev(1, v, 3) == -1 && errno == EFAULT, "writev: a bad iovec entry is EFAULT");
	check(syscall(SYS_writev, 1, v, 1025) == -1 && errno == EINVAL,
	      "writev: more than UIO_MAXIOV is EINVAL");
}

/* Linux's pipe_read hands out all that is buffered, up to the length asked, in one read. */
static void check_pipe_whole(void)
{
	static char big[3000], back[8192];
	int fd[2];
	ssize_t n;

	memset(big, 'p', sizeof(big));
	check(pipe(fd) == 0 && write(fd[1], big, sizeof(big)) == (ssize_t)sizeof(big),
	      "3000 bytes into a pipe");
	n = read(fd[0], back, sizeof(back));
	check(n == (ssize_t)sizeof(big), "one read returns all 3000 bytes the pipe holds");
	close(fd[0]);
	close(fd[1]);
}

/* statfs of /tmp and fstatfs of a pipe, as LTP's library asks before every test. */
static void check_statfs(void)
{
	struct statfs a, b;
	int fd[2];

	check(statfs("/tmp", &a) == 0 && a.f_type != 0 && a.f_bsize == 4096 && a.f_namelen == 255 &&
		      pipe(fd) == 0 && fstatfs(fd[0], &b) == 0 && b.f_type == 0x50495045 &&
		      close(fd[0]) == 0 && close(fd[1]) == 0,
	      "statfs(/tmp) and fstatfs of a pipe (PIPEFS_MAGIC)");
}

/*
 * The everyday things every kind of program must be able to do: a pipe to a
 * child, a child that execs this program with its stdout on the pipe,
 * /proc read, a file written to /tmp and read back.
 */
static void check_world(const char *self)
{
	char buf[256], path[64];
	int fd[2], st = -1;
	ssize_t n;
	pid_t pid;

	check(pipe(fd) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		_exit(write(fd[1], "through a pipe", 14) == 14 ? 0 : 1);
	}
	close(fd[1]);
	n = read(fd[0], buf, sizeof(buf));
	close(fd[0]);
	check(n == 14 && !memcmp(buf, "through a pipe", 14), "a forked child writes into a pipe");
	check(waitpid(pid, &st, 0) == pid && st == 0, "the writer exits 0");
	check(pipe(fd) == 0, "pipe again");
	pid = fork();
	if (pid == 0) {
		char *av[] = {(char *)self, "say", "exec'd", 0};

		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(self, av);
		_exit(127);
	}
	close(fd[1]);
	n = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	buf[n > 0 ? n : 0] = 0;
	check(!strcmp(buf, "exec'd\n"), "a child execs this program, its stdout on the pipe");
	check(waitpid(pid, &st, 0) == pid && st == 0, "the exec'd child exits 0");
	check_pipe_whole();
	check_statfs();
	fd[0] = open("/proc/self/stat", O_RDONLY);
	n = fd[0] >= 0 ? read(fd[0], buf, sizeof(buf) - 1) : -1;
	if (fd[0] >= 0)
		close(fd[0]);
	buf[n > 0 ? n : 0] = 0;
	check(n > 0 && atoi(buf) == getpid() && strstr(buf, " (lx_"),
	      "/proc/self/stat: our pid and comm");
	snprintf(path, sizeof(path), "/tmp/lx_test.%d", getpid());
	fd[0] = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
	check(fd[0] >= 0 && write(fd[0], "tmp file", 8) == 8 && close(fd[0]) == 0,
	      "a file created and written in /tmp");
	fd[0] = open(path, O_RDONLY);
	n = fd[0] >= 0 ? read(fd[0], buf, sizeof(buf)) : -1;
	if (fd[0] >= 0)
		close(fd[0]);
	check(n == 8 && !memcmp(buf, "tmp file", 8) && unlink(path) == 0,
	      "read back from /tmp and unlinked");
}

int main(int argc, char **argv, char **envp)
{
	if (argc == 3 && !strcmp(argv[1], "exit"))
		return atoi(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "say"))
		return printf("%s\n", argv[2]) < 0;
	if (argc == 2 && !strcmp(argv[1], "env")) {
		const char *e = getenv("LX_ENV");

		return e && !strcmp(e, "from-execve") ? 0 : 1;
	}
	printf("lx_test: %s, pid %d\n", argv[0], getpid());
	check_auxv();
	check_stack_layout(argc, argv, envp);
	check_tls();
	check_fork_wait();
	check_uname();
	check_mprotect();
	check_nx();
	check_limits();
	check_session();
	check_writev();
	check_exec(argv[0]);
	check_world(argv[0]);
	return summary("lx_test");
}
