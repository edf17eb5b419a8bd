/*
 * lx_rwyield: a long read or write lets other tasks run while it copies,
 * positioned or not, and keeps the file position as Linux does.
 *
 * Why: the kernel has one CPU and no preemption inside a system call, so a
 * 32 MiB copy that never yields holds every other task off the CPU for
 * seconds.  Linux's generic_perform_write and filemap_read reach
 * cond_resched() as they go and stop on a fatal signal; pread and pwrite
 * use an offset of their own, and read, write and lseek hold the file's
 * f_pos_lock.
 *
 * How it is seen from outside: each call copies to or from a fresh
 * mapping, so it takes one page fault per page, 8,192 in all.  A watcher
 * process reads the caller's fault count in /proc/<pid>/stat as it goes;
 * a count strictly inside the call's range proves the watcher ran while
 * the call was copying.  The watcher also reads the shared file's position
 * with lseek, which may show only the values before and after the call.
 * Kernel only: on Linux with several CPUs the watcher runs beside the
 * call whether or not it yields, so the checks would prove nothing there.
 * In this kernel they hold on several CPUs too: the watcher's system
 * calls need the big kernel lock the copy holds, which a preemption point
 * hands to a CPU waiting for it (kernel/arch/kernel_lock.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#define LEN	 (32L << 20)
#define PAGES	 (LEN / 4096)
#define MARGIN	 64 /* faults: the caller's own, outside the copy */
#define START	 7L /* the file position every positioned call must leave alone */
#define FILENAME "/tmp/rwyield"

/* What the watcher reports when told to stop. */
struct seen {
	long mid_faults; /* a fault count strictly inside the call's, or 0 */
	long bad_pos;	 /* a file position other than the two allowed, or -1 */
};

struct watcher {
	pid_t pid;
	int ctl, result; /* the parent's ends of the two pipes */
};

static long minflt_of(pid_t pid)
{
	char path[64], buf[512], *p;
	long v = -1;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');
	/* After the command: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt. */
	for (int field = 3; p && field <= 10; field++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtol(p + 1, 0, 10);
	return v;
}

/* getrusage's ru_minflt is not implemented here: the count as /proc shows it to others. */
static long own_minflt(void)
{
	return minflt_of(getpid());
}

static void watch_loop(int fd, pid_t parent, int ctl, int result, long pos_a, long pos_b)
{
	struct seen s = {0, -1};
	long base;
	char c;

	if (read(ctl, &base, sizeof(base)) != sizeof(base))
		_exit(1);
	fcntl(ctl, F_SETFL, O_NONBLOCK);
	while (read(ctl, &c, 1) != 1) {
		long f = minflt_of(parent), pos;

		/*
		 * The position is read only inside the call: lseek waits out a
		 * write (f_pos_lock), which leaves this one sighting per write.
		 */
		if (f > base + MARGIN && f < base + PAGES - MARGIN) {
			s.mid_faults = f - base;
			pos = lseek(fd, 0, SEEK_CUR);
			if (pos != pos_a && pos != pos_b)
				s.bad_pos = pos;
		}
		sched_yield();
	}
	_exit(write(result, &s, sizeof(s)) == sizeof(s) ? 0 : 1);
}

/* Starts a watcher of fd and of this process; it begins when watch_begin says so. */
static int watch(struct watcher *w, int fd, long pos_a, long pos_b)
{
	int ctl[2], result[2];
	pid_t parent = getpid();

	if (pipe(ctl) || pipe(result))
		return -1;
	w->pid = fork();
	if (w->pid < 0)
		return -1;
	if (w->pid == 0) {
		close(ctl[1]);
		close(result[0]);
		watch_loop(fd, parent, ctl[0], result[1], pos_a, pos_b);
	}
	close(ctl[0]);
	close(result[1]);
	w->ctl = ctl[1];
	w->result = result[0];
	return 0;
}

/* The fault count from which the call's own are counted; the watcher runs first. */
static void watch_begin(struct watcher *w)
{
	long base = own_minflt();

	if (write(w->ctl, &base, sizeof(base)) != sizeof(base))
		return;
	sched_yield();
}

static struct seen watch_end(struct watcher *w)
{
	struct seen s = {0, -2};

	if (write(w->ctl, "s", 1) != 1 || read(w->result, &s, sizeof(s)) != sizeof(s))
		s.bad_pos = -2;
	waitpid(w->pid, 0, 0);
	close(w->ctl);
	close(w->result);
	return s;
}

static void *fresh(void)
{
	void *p = mmap(0, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	return p == MAP_FAILED ? 0 : p;
}

static int fresh_file(void)
{
	int fd = open(FILENAME, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd >= 0 && lseek(fd, START, SEEK_SET) != START) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One call on fd (a pwrite, pread or write of LEN bytes) under a watcher. */
enum op { PWRITE, PREAD, WRITE };
static const char *const names[] = {"pwrite", "pread", "write"};

static void test_call(enum op op)
{
	int fd = fresh_file();
	char *buf = fresh(), what[160];
	struct watcher w;
	struct seen s;
	long rc = -1;

	if (fd < 0 || !buf) {
		check(0, "set-up: a file and a fresh 32 MiB mapping");
		return;
	}
	/* pread reads what a first pwrite put there (its source faulted in beforehand). */
	if (op == PREAD) {
		char *src = fresh();

		if (src && pwrite(fd, memset(src, 0x5a, LEN), LEN, 0) != LEN)
			check(0, "set-up: the file to read");
		if (src)
			munmap(src, LEN);
	}
	if (watch(&w, fd, START, op == WRITE ? START + LEN : START)) {
		check(0, "set-up: the watcher");
		return;
	}
	watch_begin(&w);
	if (op == PWRITE)
		rc = pwrite(fd, buf, LEN, 0);
	else if (op == PREAD)
		rc = pread(fd, buf, LEN, 0);
	else
		rc = write(fd, buf, LEN);
	s = watch_end(&w);
	snprintf(what, sizeof(what), "%s of 32 MiB with a fresh mapping completes", names[op]);
	check(rc == LEN && (op != PREAD || (buf[0] == 0x5a && buf[LEN - 1] == 0x5a)), what);
	snprintf(what, sizeof(what), "another task ran while %s copied (it saw %ld of %ld faults)",
		 names[op], s.mid_faults, (long)PAGES);
	check(s.mid_faults != 0, what);
	snprintf(what, sizeof(what),
		 "%s: lseek by another task saw the position before or after it only", names[op]);
	check(s.bad_pos == -1, what);
	if (op != WRITE)
		check(lseek(fd, 0, SEEK_CUR) == START,
		      "the positioned call left the position alone");
	munmap(buf, LEN);
	close(fd);
}

/* SIGKILL ends a long pwrite between pages (fatal_signal_pending). */
static void test_kill(void)
{
	int fd = fresh_file();
	struct stat st;
	pid_t pid;
	int status = 0;

	if (fd < 0) {
		check(0, "set-up: the file");
		return;
	}
	pid = fork();
	if (pid == 0) {
		char *src = fresh();

		_exit(src && pwrite(fd, src, LEN, 0) == LEN ? 0 : 1);
	}
	while (fstat(fd, &st) == 0 && st.st_size == 0)
		sched_yield();
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the writer died of SIGKILL");
	check(fstat(fd, &st) == 0 && st.st_size < LEN, "SIGKILL ended the pwrite before its end");
	close(fd);
}

int main(void)
{
	test_call(PWRITE);
	test_call(PREAD);
	test_call(WRITE);
	test_kill();
	unlink(FILENAME);
	return summary("lx_rwyield");
}
