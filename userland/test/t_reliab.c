/*
 * Regression programs for the defects a hostile syscall fuzzer found;
 * kernel/test/test_reliab.c runs them and checks the rest.
 *   t_reliab nt        RFLAGS.NT|AC set across syscalls while a sibling runs
 *   t_reliab unmap     munmap of the whole user half, brk over TiBs: quick
 *   t_reliab protnone  PROT_NONE: syscalls give EFAULT, a read is SIGSEGV
 *   t_reliab errno     the errnos that differed from Linux
 *   t_reliab orphans N a child leaves N orphans that exit while we run
 *   t_reliab unknown   300 distinct unknown syscall numbers, then a fork
 *   t_reliab tidptr    the tid words (CLONE_*_SETTID, set_tid_address) in
 *                      read-only and kernel memory: not written
 */
#include "userland/lib/aslrbench_user.h"

#define EBADF	  9
#define ESRCH	  3
#define TASK_SIZE 0x00007ffffffff000UL
#define TIB	  (1UL << 40)

static int failures;

static void check(const char *what, long got, long want)
{
	if (got != want) {
		printf("t_reliab: FAIL: %s: got %ld, expected %ld\n", what, got, want);
		failures++;
	}
}

/* A syscall made with NT and AC set in RFLAGS; the flags are cleared again after. */
static long yield_with_nt(void)
{
	long r;

	__asm__ volatile("pushfq; orq $0x44000, (%%rsp); popfq; syscall;"
			 "pushfq; andq $~0x44000, (%%rsp); popfq"
			 : "=a"(r)
			 : "a"((long)__NR_sched_yield)
			 : "rcx", "r11", "memory", "cc");
	return r;
}

static int nt(void)
{
	int status;
	long pid = sys(__NR_fork);

	if (pid == 0) { /* the other runnable task: yields and gets preempted */
		for (int i = 0; i < 3000; i++)
			sys(__NR_sched_yield);
		exit(0);
	}
	for (int i = 0; i < 3000; i++)
		check("sched_yield with NT set", yield_with_nt(), 0);
	check("wait4 sibling", sys(__NR_wait4, (int)pid, &status, 0, 0), pid);
	check("sibling status", status, 0);
	return failures;
}

static void timed(const char *what, long got, long want, uint64_t t0)
{
	uint64_t ms = (now_ns() - t0) / 1000000;

	check(what, got, want);
	/* Before the fix: 17.7 s per TiB.  Generous for TCG on a loaded host. */
	if (ms > 5000) {
		printf("t_reliab: FAIL: %s took %lu ms\n", what, ms);
		failures++;
	}
}

static int unmap(void)
{
	char *base = (void *)sys(__NR_brk, 0), *p;
	uint64_t t0;
	long pid, m;
	int status;

	/* brk over 11 TiB (one VMA), touch both ends, shrink back: one walk. */
	t0 = now_ns();
	p = (void *)sys(__NR_brk, base + 11 * TIB);
	timed("brk grow 11 TiB", (long)p, (long)(base + 11 * TIB), t0);
	base[0] = 1;
	base[11 * TIB - 1] = 1;
	t0 = now_ns();
	timed("brk shrink 11 TiB", (long)(void *)sys(__NR_brk, base), (long)base, t0);
	/* An anonymous mapping, touched, then unmapped with a huge length past it. */
	m = sys(__NR_mmap, 0, 1UL << 20, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m < 0)
		check("mmap", m, 0);
	else
		((char *)m)[4096] = 1;
	/* The whole user half, in a child: its own code goes, so it dies on return. */
	pid = sys(__NR_fork);
	if (pid == 0) {
		sys(__NR_munmap, 0x1000, TASK_SIZE - 0x1000);
		exit(0); /* never reached: the code page is gone */
	}
	t0 = now_ns();
	check("wait4 unmapper", sys(__NR_wait4, (int)pid, &status, 0, 0), pid);
	timed("munmap of the user half, then SIGSEGV", WIFSIGNALED(status) ? WTERMSIG(status) : -1,
	      11, t0);
	return failures;
}

static int protnone(void)
{
	long p = sys(__NR_mmap, 0, 2 * 4096, 0, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), pid, m;
	struct timespec *ts = (struct timespec *)p;
	int status;

	if (p < 0) {
		check("mmap PROT_NONE", p, 0);
		return failures;
	}
	check("write from PROT_NONE", sys(__NR_write, 1, (void *)p, 16), -EFAULT);
	check("read into PROT_NONE", sys(__NR_read, 0, (void *)p, 16), -EFAULT);
	check("nanosleep PROT_NONE", sys(__NR_nanosleep, ts, 0), -EFAULT);
	check("open PROT_NONE path", sys(__NR_open, (const char *)p, 0), -EFAULT);
	check("getrandom into PROT_NONE", sys(__NR_getrandom, (void *)p, 16, 0), -EFAULT);
	check("clock_gettime into PROT_NONE", sys(__NR_clock_gettime, 1, p), -EFAULT);
	/* A page that held data and was then made PROT_NONE: the same answers. */
	m = sys(__NR_mmap, 0, 4096, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*(volatile char *)m = 'x';
	check("mprotect PROT_NONE", sys(__NR_mprotect, m, 4096, 0), 0);
	check("write from an mprotected PROT_NONE page", sys(__NR_write, 1, (void *)m, 16),
	      -EFAULT);
	check("read into an mprotected PROT_NONE page", sys(__NR_read, 0, (void *)m, 16), -EFAULT);
	check("open an mprotected PROT_NONE path", sys(__NR_open, (const char *)m, 0), -EFAULT);
	check("mprotect back to read-write", sys(__NR_mprotect, m, 4096, 3), 0);
	check("the data survived", *(volatile char *)m, 'x');
	pid = sys(__NR_fork);
	if (pid == 0) {
		printf("t_reliab: read %d from PROT_NONE\n", *(volatile char *)p);
		exit(0);
	}
	check("wait4 reader", sys(__NR_wait4, (int)pid, &status, 0, 0), pid);
	check("PROT_NONE reader killed by SIGSEGV", WIFSIGNALED(status) ? WTERMSIG(status) : -1,
	      11);
	return failures;
}

static int errnos(void)
{
	long fd, pid, m;
	int status;

	fd = sys(__NR_open, "/proc/self/stat", 0);
	check("write to an O_RDONLY /proc fd", sys(__NR_write, (int)fd, "x", 1), -EBADF);
	sys(__NR_close, fd);
	fd = sys(__NR_open, "/proc/sys/kernel/randomize_va_space", 0);
	check("write to an O_RDONLY sysctl fd", sys(__NR_write, (int)fd, "2\n", 2), -EBADF);
	sys(__NR_close, fd);
	fd = sys(__NR_open, "/proc/sys/kernel/randomize_va_space", 1);
	{
		char c;

		check("read from an O_WRONLY sysctl fd", sys(__NR_read, (int)fd, &c, 1), -EBADF);
	}
	sys(__NR_close, fd);
	/* The status pointer is bad: the child is reaped all the same, then EFAULT. */
	pid = sys(__NR_fork);
	if (pid == 0)
		exit(0);
	check("wait4 kernel-half status",
	      sys(__NR_wait4, (int)pid, (int *)0xffffffff80001000UL, 0, 0), -EFAULT);
	check("the child was reaped", sys(__NR_wait4, (int)pid, &status, WNOHANG, 0), -ECHILD);
	check("wait4 INT_MIN", sys(__NR_wait4, (int)0x80000000, &status, 0, 0), -ESRCH);
	pid = sys(__NR_fork);
	if (pid == 0)
		exit(3);
	check("wait4 __WNOTHREAD", sys(__NR_wait4, (int)pid, &status, __WNOTHREAD, 0), pid);
	check("status", WEXITSTATUS(status), 3);
	pid = sys(__NR_fork);
	if (pid == 0)
		exit(0);
	check("wait4 __WCLONE (no clone children)",
	      sys(__NR_wait4, (int)pid, &status, (int)__WCLONE, 0), -ECHILD);
	check("wait4 __WALL", sys(__NR_wait4, (int)pid, &status, __WALL, 0), pid);
	check("wait4 bad option", sys(__NR_wait4, -1, &status, 0x100, 0), -EINVAL);
	m = sys(__NR_mmap, 0, 4096, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("munmap len 2^64-100", sys(__NR_munmap, (void *)m, (size_t)-100), -EINVAL);
	check("munmap len 2^64-1", sys(__NR_munmap, (void *)m, (size_t)-1), -EINVAL);
	check("munmap len 0", sys(__NR_munmap, (void *)m, 0), -EINVAL);
	check("munmap one page", sys(__NR_munmap, (void *)m, 4096), 0);
	check("setuid(-1) as root", sys(__NR_setuid, -1), -EINVAL);
	check("still root", sys(__NR_getuid), 0);
	check("getpid with the upper half of rax set", sys(0x100000000L | __NR_getpid),
	      sys(__NR_getpid));
	check("getuid with rax = 0xffffffff00000066", sys((long)0xffffffff00000066UL), 0);
	check("a number beyond the table", sys(0x7fffffffL), -ENOSYS);
	return failures;
}

/* A child leaves n orphans (they sleep, then exit) and exits; we live on a while. */
static int orphans(int n)
{
	long pid = sys(__NR_fork);
	int status;

	if (pid == 0) {
		for (int i = 0; i < n; i++)
			if (sys(__NR_fork) == 0) {
				sleep_ms(30);
				exit(0);
			}
		exit(0);
	}
	sys(__NR_wait4, (int)pid, &status, 0, 0);
	sleep_ms(300);
	return 0;
}

/*
 * More distinct unknown numbers than the kernel's warning table holds (64
 * (program, number) pairs): each is ENOSYS; the kernel once stored every
 * one past the 65th beyond the table, over idle_task's parent pointer, and
 * the next exit's walk for a reaper followed it.  A fork and the child's
 * exit make that walk (the kernel test checks idle_task as well).
 */
static int unknown(void)
{
	long pid;
	int status = 0;

	for (long nr = 1000; nr < 1300; nr++)
		check("an unknown number", sys(nr), -ENOSYS);
	pid = sys(__NR_fork);
	if (pid == 0)
		exit(7);
	check("fork", pid > 0, 1);
	check("wait4", sys(__NR_wait4, (int)pid, &status, 0, 0), pid);
	check("the child's status", status, 7 << 8);
	return failures ? 1 : 0;
}

/*
 * The kernel's stores of a tid (CLONE_CHILD_SETTID into the child,
 * CLONE_PARENT_SETTID into the parent, the clear_child_tid word at exit)
 * are put_user: a read-only page or the kernel half is not written.  They
 * once went through the loader's mm_copy_to, which wrote any present page
 * (our code, shared with the fork child) and the kernel half.
 */
static int tidptr(void)
{
	const volatile unsigned char *code = (const volatile unsigned char *)(uintptr_t)tidptr;
	unsigned char before[8];
	long pid;
	int status = 0;

	for (int i = 0; i < 8; i++)
		before[i] = code[i];
	pid = sys(__NR_clone, 17 | 0x01000000 | 0x00100000, 0, (long)code, (long)code, 0, 0);
	if (pid == 0)
		exit(0);
	check("clone(CHILD_SETTID | PARENT_SETTID) into our code", pid > 0, 1);
	sys(__NR_wait4, (int)pid, &status, 0, 0);
	for (int i = 0; i < 8; i++)
		check("our code after the tid stores", code[i], before[i]);
	pid = sys(__NR_fork);
	if (pid == 0) {
		sys(__NR_set_tid_address, (long)code);
		exit(0);
	}
	sys(__NR_wait4, (int)pid, &status, 0, 0);
	for (int i = 0; i < 8; i++)
		check("our code after a child's clear_child_tid", code[i], before[i]);
	pid = sys(__NR_fork);
	if (pid == 0) {
		sys(__NR_set_tid_address, 0xffffffff80000000L + 0x1000);
		exit(0);
	}
	check("wait4 after clear_child_tid in the kernel half",
	      sys(__NR_wait4, (int)pid, &status, 0, 0), pid);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "nt"))
		return nt();
	if (!strcmp(m, "unmap"))
		return unmap();
	if (!strcmp(m, "protnone"))
		return protnone();
	if (!strcmp(m, "errno"))
		return errnos();
	if (!strcmp(m, "orphans"))
		return orphans(argc > 2 ? (int)atol(argv[2]) : 4);
	if (!strcmp(m, "unknown"))
		return unknown();
	if (!strcmp(m, "tidptr"))
		return tidptr();
	printf("t_reliab: unknown mode '%s'\n", m);
	return 2;
}
