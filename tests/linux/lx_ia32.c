/*
 * lx_ia32: an IA-32 program (gcc -m32 -static, glibc), the same checks on
 * the host Linux and in the kernel: the i386 system calls through int $0x80
 * with their i386 numbers and structures, and the ia32 layout.
 *
 *   write, brk, mmap2 (offset in pages) and old_mmap, stat64/fstat64/
 *   fstatat64 (struct stat64), _llseek, writev (32-bit iovecs),
 *   clock_gettime (32-bit) and clock_gettime64, TLS through %gs
 *   (set_thread_area, glibc's __thread) and a second entry through %fs,
 *   futex (240) with a 32-bit timeout, a thread (clone with CLONE_SETTLS),
 *   fork and waitpid/wait4, execve of a 64-bit program (busybox sh) that
 *   execs this program back, a bad pointer (EFAULT), an unknown number
 *   (ENOSYS), a bad set_thread_area (EINVAL), and where the stack, mmap
 *   and brk are: below IA32_PAGE_OFFSET, in the ranges the ia32 rules give
 *   (Linux: mmap_base = TASK_SIZE - gap (>= 128 MiB) - up to 2^8 pages;
 *   the stack top up to 2^11 pages below TASK_SIZE; brk within 32 MiB of
 *   the end of the program).
 *
 * Usage: lx_ia32            every check, the summary line, exit 0 if all pass
 *        lx_ia32 back       what the 64-bit shell execs: prints a line, exit 42
 *        lx_ia32 sig        a handled signal (not a check: the kernel kills an
 *                           IA-32 task that has to run a handler)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#define NR_exit		   1
#define NR_write	   4
#define NR_brk		   45
#define NR_mmap		   90
#define NR_munmap	   91
#define NR_wait4	   114
#define NR_mremap	   163
#define NR__llseek	   140
#define NR_writev	   146
#define NR_mmap2	   192
#define NR_stat64	   195
#define NR_fstat64	   197
#define NR_futex	   240
#define NR_set_thread_area 243
#define NR_get_thread_area 244
#define NR_clock_gettime   265
#define NR_fstatat64	   300
#define NR_clock_gettime64 403

#define IA32_PAGE_OFFSET 0xffffe000UL
#define PAGE		 4096UL

/* Six arguments through int $0x80: ebp holds the sixth, so it is loaded from memory. */
static long sc6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	long args[2] = {a1, a6}, *p = args, ret;

	__asm__ volatile("push %%ebp\n\t"
			 "mov 4(%%ebx), %%ebp\n\t"
			 "mov (%%ebx), %%ebx\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp"
			 : "=a"(ret), "+b"(p)
			 : "0"(nr), "c"(a2), "d"(a3), "S"(a4), "D"(a5)
			 : "memory");
	return ret;
}

static long sc(long nr, long a1, long a2, long a3)
{
	return sc6(nr, a1, a2, a3, 0, 0, 0);
}

/* i386's struct stat64 (arch/x86/include/uapi/asm/stat.h), 96 bytes. */
struct stat64_i386 {
	unsigned long long st_dev;
	unsigned char pad0[4];
	unsigned int __st_ino;
	unsigned int st_mode, st_nlink, st_uid, st_gid;
	unsigned long long st_rdev;
	unsigned char pad3[4];
	long long st_size;
	unsigned int st_blksize;
	unsigned long long st_blocks;
	unsigned int st_atime_, st_atime_nsec, st_mtime_, st_mtime_nsec, st_ctime_, st_ctime_nsec;
	unsigned long long st_ino;
} __attribute__((packed));

/* include/uapi/asm/ldt.h's struct user_desc */
struct user_desc_i386 {
	unsigned int entry_number, base_addr, limit;
	unsigned int seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		seg_not_present : 1, useable : 1;
};

static char self[4096];
static __thread int tls_word = 1234;

static void check_write_and_errors(void)
{
	static const char msg[] = "lx_ia32: write through int $0x80\n";

	check(sc(NR_write, 1, (long)msg, sizeof(msg) - 1) == (long)sizeof(msg) - 1,
	      "write(1) returns the count");
	check(sc(NR_write, 1, 0x10, 4) == -EFAULT, "write from an unmapped page: EFAULT");
	check(sc(NR_fstat64, 0, 0x10, 0) == -EFAULT, "fstat64 into an unmapped page: EFAULT");
	check(sc(500, 0, 0, 0) == -ENOSYS, "i386 system call 500: ENOSYS");
	check(sc(0x7fffffff, 0, 0, 0) == -ENOSYS, "i386 system call 0x7fffffff: ENOSYS");
}

static void check_brk(void)
{
	unsigned long b0 = (unsigned long)sc(NR_brk, 0, 0, 0), b1;
	extern char end[];

	check(b0 >= (unsigned long)end && b0 - (unsigned long)end < (32UL << 20) + PAGE,
	      "brk starts within 32 MiB above the program's end");
	b1 = (unsigned long)sc(NR_brk, (long)(b0 + 3 * PAGE), 0, 0);
	check(b1 == b0 + 3 * PAGE, "brk grows by three pages");
	memset((void *)b0, 0x5a, 3 * PAGE);
	check(((volatile unsigned char *)b0)[3 * PAGE - 1] == 0x5a,
	      "the new brk pages are writable");
	check((unsigned long)sc(NR_brk, (long)b0, 0, 0) == b0, "brk shrinks back");
}

static void check_mmap(void)
{
	unsigned long a = (unsigned long)sc6(NR_mmap2, 0, 2 * PAGE, PROT_READ | PROT_WRITE,
					     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char page[16], *m;
	unsigned long args[6];
	int fd;

	check(a < IA32_PAGE_OFFSET && !(a & (PAGE - 1)),
	      "mmap2 anonymous: a page below 0xffffe000");
	check(a >= 0xf6000000UL && a < 0xf7ffe000UL,
	      "the first mapping is where the ia32 mmap_base puts it (0xf6000000-0xf7ffe000)");
	((volatile char *)a)[PAGE + 5] = 7;
	check(((volatile char *)a)[PAGE + 5] == 7, "the mapping is writable");
	check(sc(NR_munmap, (long)a, 2 * PAGE, 0) == 0, "munmap");
	/* IA32_PAGE_OFFSET is this task's TASK_SIZE: nothing is mapped at or past it */
	check(sc6(NR_mmap2, (long)IA32_PAGE_OFFSET, PAGE, PROT_READ,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == -ENOMEM,
	      "mmap2 MAP_FIXED at 0xffffe000: ENOMEM");
	a = (unsigned long)sc6(NR_mmap2, (long)(IA32_PAGE_OFFSET - PAGE), PAGE,
			       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			       0);
	check(a == IA32_PAGE_OFFSET - PAGE &&
		      sc6(NR_mremap, (long)a, PAGE, 2 * PAGE, 0, 0, 0) == -ENOMEM,
	      "the page below 0xffffe000 maps; mremap cannot grow it past: ENOMEM");
	sc(NR_munmap, (long)a, PAGE, 0);
	fd = open(self, O_RDONLY);
	check(fd >= 0 && pread(fd, page, sizeof(page), PAGE) == sizeof(page),
	      "pread the file's page 1");
	m = (unsigned char *)sc6(NR_mmap2, 0, PAGE, PROT_READ, MAP_PRIVATE, fd, 1);
	check((unsigned long)m < IA32_PAGE_OFFSET && !memcmp(m, page, sizeof(page)),
	      "mmap2 of a file at pgoff 1 maps its bytes at offset 4096");
	sc(NR_munmap, (long)m, PAGE, 0);
	/* old_mmap: the six arguments in memory, a byte offset */
	args[0] = 0;
	args[1] = PAGE;
	args[2] = PROT_READ;
	args[3] = MAP_PRIVATE;
	args[4] = (unsigned long)fd;
	args[5] = PAGE;
	m = (unsigned char *)sc(NR_mmap, (long)args, 0, 0);
	check((unsigned long)m < IA32_PAGE_OFFSET && !memcmp(m, page, sizeof(page)),
	      "old_mmap (90) with offset 4096 maps the same bytes");
	sc(NR_munmap, (long)m, PAGE, 0);
	args[5] = 100;
	check(sc(NR_mmap, (long)args, 0, 0) == -EINVAL,
	      "old_mmap with an unaligned offset: EINVAL");
	close(fd);
}

static void check_stat(void)
{
	struct stat64_i386 st, st2;
	long long pos = -1;
	int fd = open(self, O_RDONLY);
	long r;

	check(sizeof(st) == 96, "struct stat64 is 96 bytes");
	memset(&st, 0xff, sizeof(st));
	r = sc(NR_fstat64, fd, (long)&st, 0);
	check(r == 0 && S_ISREG(st.st_mode) && st.st_size > 4096 && st.st_ino &&
		      st.__st_ino == (unsigned int)st.st_ino && st.st_nlink >= 1,
	      "fstat64: a regular file, its size, st_ino in both fields");
	check(sc6(NR__llseek, fd, 0, 0, (long)&pos, SEEK_END, 0) == 0 && pos == st.st_size,
	      "_llseek to the end gives st_size through the loff_t pointer");
	check(sc6(NR__llseek, fd, 0, 0, 0x10, SEEK_SET, 0) == -EFAULT,
	      "_llseek with a bad result pointer: EFAULT");
	memset(&st2, 0, sizeof(st2));
	check(sc(NR_stat64, (long)self, (long)&st2, 0) == 0 && st2.st_ino == st.st_ino &&
		      st2.st_size == st.st_size,
	      "stat64 of the same path: the same inode and size");
	memset(&st2, 0, sizeof(st2));
	check(sc6(NR_fstatat64, AT_FDCWD, (long)"/", (long)&st2, 0, 0, 0) == 0 &&
		      S_ISDIR(st2.st_mode),
	      "fstatat64(AT_FDCWD, \"/\"): a directory");
	close(fd);
}

static void check_writev_time(void)
{
	static char a[] = "lx_ia32: writev ", b[] = "with 32-bit iovecs\n";
	unsigned int iov[4] = {(unsigned int)a, sizeof(a) - 1, (unsigned int)b, sizeof(b) - 1};
	int ts32[2] = {-1, -1};
	long long ts64[2] = {-1, -1};

	check(sc(NR_writev, 1, (long)iov, 2) == (long)(sizeof(a) + sizeof(b) - 2),
	      "writev of two 32-bit iovecs writes both");
	check(sc(NR_clock_gettime, CLOCK_MONOTONIC, (long)ts32, 0) == 0 && ts32[0] >= 0 &&
		      ts32[1] >= 0 && ts32[1] < 1000000000,
	      "clock_gettime (265): a 32-bit timespec");
	check(sc(NR_clock_gettime64, CLOCK_MONOTONIC, (long)ts64, 0) == 0 && ts64[0] >= ts32[0] &&
		      ts64[1] >= 0 && ts64[1] < 1000000000,
	      "clock_gettime64 (403): a 64-bit timespec, not before the first");
}

static void check_tls(void)
{
	unsigned short gs, fs;
	unsigned int self_ptr, v;
	static unsigned int fs_block[4] = {0xfeedf00d, 0, 0, 0};
	struct user_desc_i386 d;

	__asm__ volatile("mov %%gs, %0" : "=r"(gs));
	check((gs & 3) == 3 && (gs >> 3) >= 12 && (gs >> 3) <= 14,
	      "glibc's %gs is a GDT TLS selector (entry 12..14, RPL 3)");
	__asm__ volatile("mov %%gs:0, %0" : "=r"(self_ptr));
	memset(&d, 0, sizeof(d));
	d.entry_number = gs >> 3;
	check(sc(NR_get_thread_area, (long)&d, 0, 0) == 0 && d.base_addr == self_ptr &&
		      d.seg_32bit && d.limit_in_pages,
	      "get_thread_area: the entry's base is the thread pointer at %gs:0");
	check(tls_word == 1234 && (tls_word = 99, tls_word == 99),
	      "a __thread variable through %gs");
	memset(&d, 0, sizeof(d));
	d.entry_number = -1;
	d.base_addr = (unsigned int)fs_block;
	d.limit = 0xfffff;
	d.seg_32bit = 1;
	d.limit_in_pages = 1;
	d.useable = 1;
	check(sc(NR_set_thread_area, (long)&d, 0, 0) == 0 && d.entry_number >= 12 &&
		      d.entry_number <= 14 && d.entry_number != (unsigned)(gs >> 3),
	      "set_thread_area(-1) picks another free entry and says which");
	fs = (unsigned short)(d.entry_number << 3 | 3);
	__asm__ volatile("mov %1, %%fs\n\tmov %%fs:0, %0" : "=r"(v) : "r"(fs));
	check(v == 0xfeedf00d, "%fs loaded with that entry reads through its base");
	sched_yield();
	/* another task runs meanwhile: the selector and the entry come back */
	check(usleep(20000) == 0, "usleep (clock_nanosleep, 32-bit timespec) sleeps");
	__asm__ volatile("mov %%fs:0, %0" : "=r"(v));
	check(v == 0xfeedf00d, "after a sleep %fs still reads through its base");
	__asm__ volatile("mov %0, %%fs" : : "r"(0));
	d.entry_number = 3;
	check(sc(NR_set_thread_area, (long)&d, 0, 0) == -EINVAL,
	      "set_thread_area of GDT entry 3: EINVAL");
	d.entry_number = -1;
	d.seg_32bit = 0;
	check(sc(NR_set_thread_area, (long)&d, 0, 0) == -EINVAL,
	      "set_thread_area of a 16-bit segment: EINVAL");
	check(sc(NR_set_thread_area, 0x10, 0, 0) == -EFAULT,
	      "set_thread_area(bad pointer): EFAULT");
}

static void *thread_main(void *arg)
{
	unsigned short gs;

	__asm__ volatile("mov %%gs, %0" : "=r"(gs));
	*(int *)arg = tls_word == 1234 && (gs >> 3) >= 12 && (gs >> 3) <= 14;
	tls_word = 5; /* its own copy */
	return 0;
}

/* futex (240) with a 32-bit timeout, and a thread: clone with CLONE_SETTLS's user_desc. */
static void check_futex_thread(void)
{
	static int word = 1;
	int ts[2] = {0, 20000000}, ok = 0;
	pthread_t th;

	check(sc6(NR_futex, (long)&word, 0 /* FUTEX_WAIT */, 2, 0, 0, 0) == -EAGAIN,
	      "futex (240) WAIT on another value: EAGAIN");
	check(sc6(NR_futex, (long)&word, 0, 1, (long)ts, 0, 0) == -ETIMEDOUT,
	      "futex (240) WAIT with a 20 ms old_timespec32: ETIMEDOUT");
	check(sc6(NR_futex, (long)&word, 1 /* FUTEX_WAKE */, 1, 0, 0, 0) == 0,
	      "futex (240) WAKE with no waiter: 0");
	check(pthread_create(&th, 0, thread_main, &ok) == 0 && pthread_join(th, 0) == 0 && ok,
	      "a thread (clone with a user_desc TLS) sees its own __thread copy through %gs");
	check(tls_word == 99, "the main thread's __thread variable is untouched");
}

static void check_fork(void)
{
	int st = 0, pid = fork();
	long r;

	if (pid == 0) {
		/* the child's TLS is the parent's copy */
		_exit(tls_word == 99 ? 7 : 8);
	}
	r = sc6(NR_wait4, pid, (long)&st, 0, 0, 0, 0);
	check(pid > 0 && r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "fork, the child's TLS copied, wait4: exit status 7");
	pid = fork();
	if (pid == 0)
		_exit(3);
	check(waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 3, "fork and waitpid: status 3");
}

static void check_exec64(void)
{
	int st = 0, pid = fork();

	if (pid == 0) {
		char *argv[] = {"sh", "-c", "exec \"$0\" back", self, 0};
		char *envp[] = {0};

		execve("/bin/busybox", argv, envp);
		_exit(99);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "execve of a 64-bit busybox sh that execs this IA-32 program back: status 42");
}

static void check_layout(void)
{
	int local;
	unsigned long sp = (unsigned long)&local;

	check(sp < IA32_PAGE_OFFSET && sp >= IA32_PAGE_OFFSET - (8UL << 20) - (1UL << 20),
	      "the stack lies within 9 MiB below 0xffffe000 (2^11 pages of randomisation)");
	check((unsigned long)self < IA32_PAGE_OFFSET && (unsigned long)&tls_word < IA32_PAGE_OFFSET,
	      "data and TLS below 0xffffe000");
}

static void on_usr1(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		snprintf(self, sizeof(self), "%s", argv[0]);
	if (argc > 1 && !strcmp(argv[1], "back")) {
		printf("lx_ia32: back from the 64-bit shell, pid %d\n", getpid());
		return 42;
	}
	if (argc > 1 && !strcmp(argv[1], "sig")) {
		signal(SIGUSR1, on_usr1);
		raise(SIGUSR1);
		printf("lx_ia32 sig: the handler ran\n");
		return 0;
	}
	printf("lx_ia32: %s, pid %d, %zu-bit pointers\n", self, getpid(), sizeof(void *) * 8);
	fflush(stdout);
	check_write_and_errors();
	check_brk();
	check_mmap();
	check_stat();
	check_writev_time();
	check_tls();
	check_futex_thread();
	check_fork();
	check_exec64();
	check_layout();
	return summary("lx_ia32");
}
