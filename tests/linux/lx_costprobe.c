/*
 * lx_costprobe: what common system operations cost, the same static program
 * under aslrbench and under Linux 6.12 (scripts/linux-cost.sh boots both
 * with -icount shift=0, where rdtsc counts guest instructions, so the
 * figures are instructions and compare the two kernels' work).
 *
 * Each row is timed with rdtsc around one operation, repeated; the line
 * gives the median (the empty probe's median taken off), the minimum and
 * maximum, and the number of samples:
 *
 *   cost ROW median=M min=A max=B n=N
 *
 * (vgetrandom_amortised, a mean over one timed loop, prints mean=M n=N.)
 * Rows (arguments pick them; none: every row this build can run):
 *   fork        fork, the child _exit(0), waitpid
 *   vfork       vfork, the child _exit(0), waitpid
 *   exec        fork, the child execve()s lx_nop (tests/linux/lx_nop.c, a
 *               static program whose entry point exits, found beside this
 *               one), waitpid
 *   spawn       posix_spawn of lx_nop, waitpid
 *   thread      pthread_create of a function that returns, pthread_join
 *   getrandom4, getrandom64, getrandom4096   syscall(SYS_getrandom, n, 0)
 *   vgetrandom  getrandom() of 4 bytes through the C library: one call
 *               (the median) and, as vgetrandom_amortised, the mean of
 *               960 calls, refills included.  With glibc 2.41 in a dynamic
 *               program these are Linux 6.11's vDSO getrandom; elsewhere
 *               the C library makes the system call (the row then says so
 *               by its figure)
 *   fault       the first write to an untouched anonymous page
 *   mmap        mmap of one anonymous page and its munmap
 *   clock_gettime  syscall(SYS_clock_gettime, CLOCK_MONOTONIC)
 *   procstat    open, read and close of /proc/self/stat
 *
 * Each row is also a check of lx_check.h's ("ok ROW measured", or "FAIL
 * ROW: why" when its operation fails), with the summary "lx_costprobe: P
 * passed, F failed" the tests look for; the exit status is 0 when every
 * row asked for was measured.  The figures are measurements, not checks:
 * nothing here compares them to a bound.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define SLOW_SAMPLES 41	 /* a process or a thread made and reaped */
#define FAST_SAMPLES 201 /* everything else */
#define VGR_CALLS    960 /* 40 batches of 24 4-byte calls (two ChaCha20 blocks each) */

extern char **environ;

static char nop[256];  /* lx_nop's path: this program's directory, /lx_nop */
static uint64_t empty; /* the median of an empty probe: two rdtsc and what lies between */

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void measured(const char *row);

static void report(const char *row, uint64_t *s, int n)
{
	qsort(s, (size_t)n, sizeof(*s), cmp_u64);
	for (int i = 0; i < n; i++)
		s[i] = s[i] > empty ? s[i] - empty : 0;
	printf("cost %s median=%llu min=%llu max=%llu n=%d\n", row, (unsigned long long)s[n / 2],
	       (unsigned long long)s[0], (unsigned long long)s[n - 1], n);
	measured(row);
}

static void measured(const char *row)
{
	char what[64];

	snprintf(what, sizeof(what), "%s measured", row);
	check(1, what);
}

static void fail(const char *row, const char *why)
{
	char what[160];

	snprintf(what, sizeof(what), "%s: %s (%s)", row, why, strerror(errno));
	check(0, what);
}

static void measure_empty(void)
{
	uint64_t s[FAST_SAMPLES];

	for (int i = 0; i < FAST_SAMPLES; i++) {
		uint64_t t = ticks();

		s[i] = ticks() - t;
	}
	qsort(s, FAST_SAMPLES, sizeof(*s), cmp_u64);
	empty = s[FAST_SAMPLES / 2];
}

/* fork or vfork, the child exits at once; one more than asked, the first unkept (warm) */
static void row_fork(const char *row, int use_vfork)
{
	uint64_t s[SLOW_SAMPLES];

	for (int i = -1; i < SLOW_SAMPLES; i++) {
		uint64_t t = ticks();
		pid_t pid = use_vfork ? vfork() : fork();
		int st;

		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			return fail(row, "fork or waitpid");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report(row, s, SLOW_SAMPLES);
}

static void row_exec(void)
{
	char *argv[] = {nop, NULL};
	uint64_t s[SLOW_SAMPLES];

	for (int i = -1; i < SLOW_SAMPLES; i++) {
		uint64_t t = ticks();
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execve(nop, argv, environ);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			return fail("exec", "fork, execve of lx_nop or waitpid");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report("exec", s, SLOW_SAMPLES);
}

static void row_spawn(void)
{
	char *argv[] = {nop, NULL};
	uint64_t s[SLOW_SAMPLES];

	for (int i = -1; i < SLOW_SAMPLES; i++) {
		uint64_t t = ticks();
		pid_t pid;
		int st, err = posix_spawn(&pid, nop, NULL, NULL, argv, environ);

		if (err) {
			errno = err;
			return fail("spawn", "posix_spawn");
		}
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			return fail("spawn", "waitpid");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report("spawn", s, SLOW_SAMPLES);
}

static void *thread_fn(void *arg)
{
	return arg;
}

static void row_thread(void)
{
	uint64_t s[SLOW_SAMPLES];

	for (int i = -1; i < SLOW_SAMPLES; i++) {
		uint64_t t = ticks();
		pthread_t th;
		int err = pthread_create(&th, NULL, thread_fn, NULL);

		if (err || (err = pthread_join(th, NULL))) {
			errno = err;
			return fail("thread", "pthread_create or pthread_join");
		}
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report("thread", s, SLOW_SAMPLES);
}

static void row_getrandom(const char *row, size_t len)
{
	static uint8_t buf[4096];
	uint64_t s[FAST_SAMPLES];

	for (int i = -1; i < FAST_SAMPLES; i++) {
		uint64_t t = ticks();
		long n = syscall(SYS_getrandom, buf, len, 0);

		if (n != (long)len)
			return fail(row, "getrandom");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report(row, s, FAST_SAMPLES);
}

/* the C library's getrandom(): the vDSO's where the library and kernel have it */
static void row_vgetrandom(void)
{
	static uint64_t s[VGR_CALLS];
	uint64_t total = 0, t0;
	uint32_t v;

	/* the first calls map the library's state and fetch its key */
	for (int i = 0; i < 64; i++)
		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			return fail("vgetrandom", "getrandom()");
	for (int i = 0; i < VGR_CALLS; i++) {
		uint64_t t = ticks();

		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			return fail("vgetrandom", "getrandom()");
		s[i] = ticks() - t;
	}
	report("vgetrandom", s, VGR_CALLS);
	t0 = ticks();
	for (int i = 0; i < VGR_CALLS; i++)
		if (getrandom(&v, sizeof(v), 0) != sizeof(v))
			return fail("vgetrandom_amortised", "getrandom()");
	total = ticks() - t0;
	/* one figure: the mean per call, the loop's own few instructions included */
	printf("cost vgetrandom_amortised mean=%llu.%llu n=%d\n",
	       (unsigned long long)(total / VGR_CALLS),
	       (unsigned long long)(total % VGR_CALLS * 10 / VGR_CALLS), VGR_CALLS);
	measured("vgetrandom_amortised");
	fflush(stdout);
}

static void row_fault(void)
{
	uint64_t s[FAST_SAMPLES];
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)page * (FAST_SAMPLES + 1), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return fail("fault", "mmap");
	p[0] = 1; /* the region's first fault may make its page table: not counted */
	for (int i = 0; i < FAST_SAMPLES; i++) {
		uint64_t t = ticks();

		p[(i + 1) * page] = 1;
		s[i] = ticks() - t;
	}
	munmap((void *)p, (size_t)page * (FAST_SAMPLES + 1));
	report("fault", s, FAST_SAMPLES);
}

static void row_mmap(void)
{
	uint64_t s[FAST_SAMPLES];

	for (int i = -1; i < FAST_SAMPLES; i++) {
		uint64_t t = ticks();
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);

		if (p == MAP_FAILED || munmap(p, 4096))
			return fail("mmap", "mmap or munmap");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report("mmap", s, FAST_SAMPLES);
}

static void row_clock_gettime(void)
{
	uint64_t s[FAST_SAMPLES];
	struct timespec ts;

	for (int i = -1; i < FAST_SAMPLES; i++) {
		uint64_t t = ticks();

		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
			return fail("clock_gettime", "clock_gettime");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report("clock_gettime", s, FAST_SAMPLES);
}

static void row_procstat(void)
{
	uint64_t s[FAST_SAMPLES];
	char buf[1024];

	for (int i = -1; i < FAST_SAMPLES; i++) {
		uint64_t t = ticks();
		int fd = open("/proc/self/stat", O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

		if (fd < 0 || n <= 0 || close(fd))
			return fail("procstat", "open, read or close of /proc/self/stat");
		if (i >= 0)
			s[i] = ticks() - t;
	}
	report("procstat", s, FAST_SAMPLES);
}

static const char *const all_rows[] = {
	"fork",	      "vfork",	       "exec",		"spawn",      "thread",
	"getrandom4", "getrandom64",   "getrandom4096", "vgetrandom", "fault",
	"mmap",	      "clock_gettime", "procstat",
};

static int run_row(const char *row)
{
	if (!strcmp(row, "fork"))
		row_fork("fork", 0);
	else if (!strcmp(row, "vfork"))
		row_fork("vfork", 1);
	else if (!strcmp(row, "exec"))
		row_exec();
	else if (!strcmp(row, "spawn"))
		row_spawn();
	else if (!strcmp(row, "thread"))
		row_thread();
	else if (!strcmp(row, "getrandom4"))
		row_getrandom(row, 4);
	else if (!strcmp(row, "getrandom64"))
		row_getrandom(row, 64);
	else if (!strcmp(row, "getrandom4096"))
		row_getrandom(row, 4096);
	else if (!strcmp(row, "vgetrandom"))
		row_vgetrandom();
	else if (!strcmp(row, "fault"))
		row_fault();
	else if (!strcmp(row, "mmap"))
		row_mmap();
	else if (!strcmp(row, "clock_gettime"))
		row_clock_gettime();
	else if (!strcmp(row, "procstat"))
		row_procstat();
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');

	if (!slash || (size_t)(slash - argv[0]) + sizeof("/lx_nop") > sizeof(nop)) {
		fprintf(stderr,
			"lx_costprobe: run it by its path (lx_nop is looked for beside it)\n");
		return 2;
	}
	memcpy(nop, argv[0], (size_t)(slash - argv[0]));
	strcpy(nop + (slash - argv[0]), "/lx_nop");
	measure_empty();
	printf("cost empty median=%llu\n", (unsigned long long)empty);
	if (argc == 1)
		for (size_t i = 0; i < sizeof(all_rows) / sizeof(all_rows[0]); i++)
			run_row(all_rows[i]);
	for (int i = 1; i < argc; i++)
		if (run_row(argv[i])) {
			fprintf(stderr, "lx_costprobe: no row %s\n", argv[i]);
			return 2;
		}
	return summary("lx_costprobe");
}
