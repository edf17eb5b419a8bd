/*
 * t_stress SECONDS: the SMP stress test's ring-3 half (kernel/test/
 * test_smp_stress.c starts one per CPU).  For SECONDS it forks, execs,
 * maps, unmaps, write-protects and pipes as fast as it can, from two
 * threads of one process, so that every CPU is in fork, exec, the page
 * tables and the pipes at once and the threads' unmaps send TLB
 * shootdowns to each other.  Every result is checked: a child's copy of a
 * page, copy-on-write raced from two CPUs, the bytes through a pipe, an
 * exec'd program's /proc/self/cmdline (t_stress cmdline TOKEN, the exec's
 * own half), every exit status.  Exit status 0 means
 * every check passed; the last line gives the counts.
 */
#include <pthread.h>
#include <stdlib.h>

#include "userland/lib/aslrbench_user.h"

#define PAGE	  4096
#define MAP_PAGES 16
#define COW_PAGES 8

static volatile int stop;
static volatile long failures;
static uint64_t deadline;

static void fail(const char *what, long got)
{
	printf("t_stress: FAIL: %s (got %ld)\n", what, got);
	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
	stop = 1;
}

/* Maps MAP_PAGES, fills them with seed, checks, write-protects, unmaps: 0 or -1. */
static int map_cycle(unsigned seed)
{
	unsigned char *p = (void *)sys(__NR_mmap, 0, MAP_PAGES * PAGE, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if ((long)p < 0) {
		fail("mmap", (long)p);
		return -1;
	}
	for (int i = 0; i < MAP_PAGES; i++)
		p[i * PAGE] = (unsigned char)(seed + i);
	if (sys(__NR_mprotect, p, MAP_PAGES * PAGE, PROT_READ)) {
		fail("mprotect", 0);
		return -1;
	}
	for (int i = 0; i < MAP_PAGES; i++)
		if (p[i * PAGE] != (unsigned char)(seed + i)) {
			fail("a page lost what was written to it", i);
			return -1;
		}
	if (sys(__NR_munmap, p, MAP_PAGES * PAGE)) {
		fail("munmap", 0);
		return -1;
	}
	return 0;
}

/*
 * The second thread: maps and unmaps, so the first one's CPU gets
 * shootdowns and vice versa.  Between cycles it walks the task table
 * (setsid looks at every task's process group; EPERM once this process
 * leads its session), so it meets whatever another CPU's fork or exit
 * leaves in the table while it runs without the big kernel lock: a fork
 * that gave the lock up with its child's slot half made crashed the
 * kernel here.
 */
static void *mapper(void *arg)
{
	unsigned long *cycles = arg;

	while (!stop && now_ns() < deadline && !map_cycle((unsigned)*cycles)) {
		sys(__NR_setsid);
		(*cycles)++;
	}
	return 0;
}

/* Writes writer's pattern over cow (one byte every 64) and checks it back: 0 or -1. */
static int cow_fill_check(unsigned char *cow, unsigned seed, unsigned writer)
{
	for (int i = 0; i < COW_PAGES * PAGE; i += 64)
		cow[i] = (unsigned char)(seed ^ writer ^ (unsigned)(i >> 6));
	for (int i = 0; i < COW_PAGES * PAGE; i += 64)
		if (cow[i] != (unsigned char)(seed ^ writer ^ (unsigned)(i >> 6)))
			return -1;
	return 0;
}

/*
 * Copy-on-write from both sides at once: a single-threaded process (a
 * forked child: its faults are resolved without the big kernel lock) forks
 * and both write the same shared pages, each on its CPU, then check that
 * each saw only its own bytes.  A page written in place while still
 * shared, or one freed by a lost reference count, shows here or in the
 * free-page count test_smp_stress.c compares.
 */
static int cow_race(unsigned seed)
{
	static unsigned char cow[COW_PAGES * PAGE];
	int status = 0;
	long pid;

	if (cow_fill_check(cow, seed, 0x11))
		return -1;
	pid = sys(__NR_fork);
	if (pid == 0)
		_exit(cow_fill_check(cow, seed, 0x22) ? 7 : 0);
	if (pid < 0)
		return -1;
	if (cow_fill_check(cow, seed, 0x33))
		return -1;
	if (sys(__NR_wait4, (int)pid, &status, 0, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	for (int i = 0; i < COW_PAGES * PAGE; i += 64)
		if (cow[i] != (unsigned char)(seed ^ 0x33 ^ (unsigned)(i >> 6)))
			return -1;
	return 0;
}

/* A child that checks its copy of buf, races copy-on-write, sends buf back and exits. */
static void fork_child(int wfd, const unsigned char *buf, unsigned seed)
{
	for (int i = 0; i < PAGE; i += 512)
		if (buf[i] != (unsigned char)(seed ^ (unsigned)i))
			_exit(3);
	if (map_cycle(seed))
		_exit(4);
	if (cow_race(seed))
		_exit(7);
	_exit(sys(__NR_write, wfd, buf, PAGE) == PAGE ? 0 : 5);
}

static int reap(long pid, const char *what)
{
	int status = 0;
	long r = sys(__NR_wait4, (int)pid, &status, 0, 0);

	if (r != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fail(what, r == pid ? status : r);
		return -1;
	}
	return 0;
}

/* fork, the child checks its copy and pipes it back; the parent compares. */
static int fork_cycle(unsigned seed, unsigned char *buf, unsigned char *back)
{
	int fds[2];
	long pid, got = 0, n;

	for (int i = 0; i < PAGE; i += 512)
		buf[i] = (unsigned char)(seed ^ (unsigned)i);
	if (sys(__NR_pipe2, fds, 0)) {
		fail("pipe2", 0);
		return -1;
	}
	pid = sys(__NR_fork);
	if (pid == 0)
		fork_child(fds[1], buf, seed);
	sys(__NR_close, fds[1]);
	if (pid < 0) {
		sys(__NR_close, fds[0]);
		fail("fork", pid);
		return -1;
	}
	while (got < PAGE && (n = sys(__NR_read, fds[0], back + got, PAGE - got)) > 0)
		got += n;
	sys(__NR_close, fds[0]);
	if (reap(pid, "a forked child's exit status"))
		return -1;
	for (int i = 0; i < PAGE; i++)
		if (got != PAGE || back[i] != buf[i]) {
			fail("the bytes back through the pipe", got);
			return -1;
		}
	return 0;
}

/*
 * fork, and the child execs this program again with a token of its own
 * (main's "cmdline" mode), which checks that /proc/self/cmdline is its own
 * argv: exec gives the big kernel lock up while it frees the old address
 * space, and must not take its name and arguments from the kernel's exec
 * buffers after that, when another CPU's exec may have refilled them.
 */
static int exec_cycle(unsigned long n)
{
	char token[32], *argv[] = {"t_stress", "cmdline", token, 0}, *envp[] = {0};
	long pid;

	snprintf(token, sizeof(token), "%ld.%lu", (long)sys(__NR_getpid), n);
	pid = sys(__NR_fork);
	if (pid == 0) {
		sys(__NR_execve, "/bin/t_stress", argv, envp);
		_exit(6);
	}
	if (pid < 0) {
		fail("fork for exec", pid);
		return -1;
	}
	return reap(pid, "the exec'd t_stress cmdline's exit status");
}

/* t_stress cmdline TOKEN: 0 when /proc/self/cmdline is exactly this argv. */
static int check_cmdline(int argc, char **argv)
{
	char want[64], got[64];
	size_t len = 0;
	long fd, n;

	for (int i = 0; i < argc; i++) {
		size_t arg = strlen(argv[i]) + 1;

		if (len + arg > sizeof(want))
			return 10; /* not a token exec_cycle makes */
		memcpy(want + len, argv[i], arg);
		len += arg;
	}
	fd = sys(__NR_open, "/proc/self/cmdline", O_RDONLY, 0);
	if (fd < 0)
		return 9;
	n = sys(__NR_read, (int)fd, got, sizeof(got));
	sys(__NR_close, (int)fd);
	if (n != (long)len || memcmp(got, want, len)) {
		printf("t_stress: FAIL: /proc/self/cmdline is not the argv of %s %s %s\n", argv[0],
		       argv[1], argv[2]);
		return 8;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char buf[PAGE], back[PAGE];
	unsigned long forks = 0, execs = 0, maps = 0, thread_maps = 0;
	long seconds = argc > 1 ? atol(argv[1]) : 0;
	pthread_t th;

	if (argc == 3 && !strcmp(argv[1], "cmdline"))
		return check_cmdline(argc, argv);

	if (seconds <= 0 || seconds > 3600) {
		printf("t_stress: usage: t_stress SECONDS (1 to 3600)\n");
		return 2;
	}
	deadline = now_ns() + (uint64_t)seconds * 1000000000ULL;
	if (pthread_create(&th, 0, mapper, &thread_maps)) {
		printf("t_stress: FAIL: pthread_create\n");
		return 1;
	}
	while (!stop && now_ns() < deadline) {
		if (fork_cycle((unsigned)forks, buf, back))
			break;
		forks++;
		if (forks % 4 == 0) {
			if (exec_cycle(execs))
				break;
			execs++;
		}
		if (map_cycle((unsigned)maps))
			break;
		maps++;
	}
	stop = 1;
	pthread_join(th, 0);
	printf("t_stress: pid %ld: %lu forks, %lu execs, %lu map cycles (%lu in the second "
	       "thread), %ld failures\n",
	       (long)sys(__NR_getpid), forks, execs, maps + thread_maps, thread_maps, failures);
	return failures ? 1 : 0;
}
