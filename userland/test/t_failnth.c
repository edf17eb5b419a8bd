/*
 * Allocation-failure walks (/proc/self/fail-nth, as Linux 4.13+): for each
 * path, N = 1, 2, 3, ... until the call succeeds.  Every step runs in a
 * fresh child that arms fail-nth = N and makes the call; the parent (never
 * armed) checks how it ended and that the free-page count is back where it
 * was once the child is reaped.  A clean failure is ENOMEM or EAGAIN from
 * the call, or the child killed because a page fault of its own could not
 * get its page (as Linux's VM_FAULT_OOM kills); anything else fails.
 * The file system walks (pipe2, creating a file, mkdir, growing a file,
 * symlink, rename) also check the free inode and name counts, that pipe2
 * failed with ENFILE or ENOMEM and the others with ENOMEM (Linux 6.6's
 * errnos), and that no half-made object is left: after each step the
 * names the call would create are absent, and a renamed file is still
 * under its old name.
 */
#include <stdbool.h>

#include "userland/lib/aslrbench_user.h"

#define MAX_N	     400
#define EXIT_CLEAN   100 /* + errno */
#define EXIT_UNCLEAN 1
#define __NR_test    __NR_aslrbench_test

#define PARTIAL	   (-1000) /* an op saw a half-made object */
#define SHORT	   (-1001) /* a short write, the file holding just what it reported */
#define EXIT_SHORT 99

static int failures;
static int armfd = -1;	   /* the child's /proc/self/fail-nth */
static int extra_errno;	   /* a clean errno besides ENOMEM and EAGAIN (pipe2: ENFILE) */
static void (*prep)(void); /* run by the child before it arms */

static long free_pages(void)
{
	return sys(__NR_test, 4, 0);
}

static long free_inodes(void)
{
	return sys(__NR_test, 6, 0);
}

static long free_names(void)
{
	return sys(__NR_test, 7, 0);
}

/* After the call: the rest of the op (its undoing) must not be the one failing. */
static void disarm(void)
{
	sys(__NR_write, armfd, "0", 1);
}

static bool exists(const char *path)
{
	struct stat st;

	return sys(__NR_lstat, path, &st) != -ENOENT;
}

static long wait_child(long pid)
{
	int status = 0;

	if (pid < 0)
		return pid;
	if (pid == 0)
		exit(0);
	sys(__NR_wait4, (int)pid, &status, 0, 0);
	return 0;
}

static long op_fork(void)
{
	return wait_child(sys(__NR_fork));
}

static long op_spawn(void)
{
	return wait_child(spawn("/bin/t_nop", 0));
}

static long op_execve(void)
{
	char *argv[] = {"t_nop", 0};

	return sys(__NR_execve, "/bin/t_nop", argv, 0); /* on success t_nop exits 0 */
}

static long op_mmap(void)
{
	long m = sys(__NR_mmap, 0, 3 * 4096, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m < 0)
		return m;
	for (int i = 0; i < 3; i++)
		((volatile char *)m)[i * 4096] = 1;
	return sys(__NR_munmap, (void *)m, 3 * 4096);
}

/*
 * mremap moving two touched pages 1 GiB down (MREMAP_FIXED): the page
 * tables there are allocated before any entry moves, so a failure leaves
 * the pages where they were.
 */
static long op_mremap(void)
{
	long m = sys(__NR_mmap, 0, 2 * 4096, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), to, rc;

	if (m < 0)
		return m;
	((volatile char *)m)[0] = 1;
	((volatile char *)m)[4096] = 2;
	to = (m & ~((1L << 30) - 1)) - (1L << 30);
	rc = sys(__NR_mremap, m, 2 * 4096, 2 * 4096, 3, to, 0);
	if (rc == -ENOMEM)
		return ((volatile char *)m)[0] == 1 && ((volatile char *)m)[4096] == 2 ? rc
										       : PARTIAL;
	if (rc != to || ((volatile char *)to)[0] != 1 || ((volatile char *)to)[4096] != 2)
		return rc < 0 ? rc : PARTIAL;
	return sys(__NR_munmap, (void *)to, 2 * 4096);
}

static long op_brk(void)
{
	char *b = (void *)sys(__NR_brk, 0), *e = (void *)sys(__NR_brk, b + 3 * 4096);

	if (e != b + 3 * 4096)
		return -ENOMEM; /* brk reports failure by not moving */
	for (int i = 0; i < 3; i++)
		((volatile char *)b)[i * 4096] = 1;
	sys(__NR_brk, b);
	return 0;
}

static long op_open(const char *path)
{
	long fd = sys(__NR_open, path, 0);

	if (fd < 0)
		return fd;
	return sys(__NR_close, (int)fd);
}

static long op_open_stat(void)
{
	return op_open("/proc/self/stat");
}

static long op_open_maps(void)
{
	return op_open("/proc/self/maps");
}

#define TMP_FILE   "/tmp/failnth-file"
#define TMP_DIR	   "/tmp/failnth-dir"
#define TMP_LINK   "/tmp/failnth-link"
#define TMP_OLD	   "/tmp/failnth-old"
#define TMP_NEW	   "/tmp/failnth-new"
#define GROW_BYTES (2 * 4096)

static long op_pipe2(void)
{
	int fds[2];
	long rc = sys(__NR_pipe2, fds, 0);

	if (rc)
		return rc;
	disarm();
	sys(__NR_close, fds[0]);
	sys(__NR_close, fds[1]);
	return 0;
}

static long op_creat(void)
{
	long fd = sys(__NR_open, TMP_FILE, O_CREAT | O_EXCL | O_WRONLY, 0644);

	if (fd < 0)
		return fd;
	disarm();
	sys(__NR_close, (int)fd);
	sys(__NR_unlink, TMP_FILE);
	return 0;
}

static long op_mkdir(void)
{
	long rc = sys(__NR_mkdir, TMP_DIR, 0755);

	if (rc)
		return rc;
	disarm();
	sys(__NR_rmdir, TMP_DIR);
	return 0;
}

static int grow_fd = -1;
static char grow_buf[GROW_BYTES];

/* The buffer is touched first, so only the file's pages are counted. */
static void prep_grow(void)
{
	memset(grow_buf, 'x', sizeof(grow_buf));
	grow_fd = (int)sys(__NR_open, TMP_FILE, O_CREAT | O_TRUNC | O_RDWR, 0644);
}

/*
 * An empty file grows by two pages in one write.  The kernel copies a
 * write in chunks, so a failure after the first page is a short write, as
 * Linux's generic_perform_write; the file must then hold exactly what the
 * write reported, and after a failure nothing.
 */
static long op_grow(void)
{
	struct stat st = {0};
	long rc;

	if (grow_fd < 0)
		return PARTIAL;
	rc = sys(__NR_write, grow_fd, grow_buf, sizeof(grow_buf));
	disarm();
	sys(__NR_fstat, grow_fd, &st);
	sys(__NR_close, grow_fd);
	sys(__NR_unlink, TMP_FILE);
	if (rc < 0)
		return st.st_size ? PARTIAL : rc;
	if (rc != st.st_size)
		return PARTIAL;
	return rc == GROW_BYTES ? 0 : rc > 0 ? SHORT : PARTIAL;
}

static int map_fd = -1;

/* A file of two pages and a bit, open read-write and already unlinked: only the mapping holds it.
 */
static void prep_mapfile(void)
{
	static char buf[2 * 4096 + 100];

	memset(buf, 'm', sizeof(buf));
	map_fd = (int)sys(__NR_open, TMP_FILE, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (map_fd >= 0 && sys(__NR_write, map_fd, buf, sizeof(buf)) != (long)sizeof(buf)) {
		sys(__NR_close, map_fd);
		map_fd = -1;
	}
	sys(__NR_unlink, TMP_FILE);
}

/*
 * File-backed mmap (MAP_PRIVATE), the fd closed at once: pages filled at
 * the first touch (a write makes a private copy), a region split by
 * mprotect and by munmap in the middle, then all unmapped.  Every failure
 * must give back the pages and, once the child is gone, the file.
 */
static long op_mmap_file(void)
{
	long m, rc;

	if (map_fd < 0)
		return PARTIAL;
	m = sys(__NR_mmap, 0, 3 * 4096, 3, 0x02, map_fd, 0);
	sys(__NR_close, map_fd);
	if (m < 0)
		return m;
	if (((volatile char *)m)[0] != 'm')
		return PARTIAL;
	((volatile char *)m)[4096] = 1;
	if (((volatile char *)m)[2 * 4096 + 100] != 0)
		return PARTIAL;
	rc = sys(__NR_mprotect, m + 4096, 4096, 1);
	if (!rc)
		rc = sys(__NR_munmap, (void *)(m + 4096), 4096);
	if (!rc)
		rc = sys(__NR_munmap, (void *)m, 3 * 4096);
	return rc;
}

static long op_symlink(void)
{
	long rc = sys(__NR_symlink, "/tmp/failnth-target", TMP_LINK);

	if (rc)
		return rc;
	disarm();
	sys(__NR_unlink, TMP_LINK);
	return 0;
}

static void prep_rename(void)
{
	sys(__NR_close, (int)sys(__NR_open, TMP_OLD, O_CREAT | O_WRONLY, 0644));
}

/* A failed rename leaves the file under its old name, and no new name. */
static long op_rename(void)
{
	long rc = sys(__NR_rename, TMP_OLD, TMP_NEW);
	bool whole;

	disarm(); /* first: the stats below take a name buffer each, which an armed count would fail
		   */
	whole = rc ? exists(TMP_OLD) && !exists(TMP_NEW) : !exists(TMP_OLD) && exists(TMP_NEW);
	sys(__NR_unlink, TMP_OLD);
	sys(__NR_unlink, TMP_NEW);
	return whole ? rc : PARTIAL;
}

/* What a step may leave: nothing of what the fs ops create. */
static const char *leftover(void)
{
	static const char *const paths[] = {TMP_FILE, TMP_DIR, TMP_LINK, TMP_OLD, TMP_NEW};

	for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (exists(paths[i]))
			return paths[i];
	return 0;
}

struct counts {
	long pages, inodes, names;
};

static void count(struct counts *c)
{
	c->pages = free_pages();
	c->inodes = free_inodes();
	c->names = free_names();
}

/* One step: a child arms fail-nth = n and makes the call. */
static int step(long (*op)(void), unsigned n, struct counts *lost)
{
	struct counts before, after;
	long pid, rc;
	int status = 0;

	count(&before);
	pid = sys(__NR_fork);
	if (pid == 0) {
		char num[16];
		long fd = sys(__NR_open, "/proc/self/fail-nth", 1);
		int len = snprintf(num, sizeof(num), "%u", n);

		if (prep)
			prep();
		/*
		 * errno lives in a page of our own (musl's TLS): its first write
		 * after the fork is a copy-on-write fault, which must not be the
		 * injected failure (a failed call sets errno, a kill there would
		 * leave the op's files behind).  Written once before arming.
		 */
		errno = 0;
		armfd = (int)fd;
		if (fd < 0 || sys(__NR_write, (int)fd, num, (size_t)len) != len)
			exit(2);
		rc = op();
		if (rc == 0)
			exit(0);
		if (rc == SHORT)
			exit(EXIT_SHORT);
		exit(rc == -ENOMEM || rc == -EAGAIN || (extra_errno && rc == -extra_errno)
			     ? EXIT_CLEAN + (int)-rc
			     : EXIT_UNCLEAN);
	}
	if (pid < 0)
		return -1;
	sys(__NR_wait4, (int)pid, &status, 0, 0);
	/*
	 * A child killed by an injected fault (a copy-on-write fault after its
	 * fork, say) leaves its own child behind: as subreaper we get it, and
	 * reap it before counting.
	 */
	while (sys(__NR_wait4, -1, &(int){0}, 0, 0) > 0)
		;
	count(&after);
	lost->pages = before.pages - after.pages;
	lost->inodes = before.inodes - after.inodes;
	lost->names = before.names - after.names;
	return status;
}

/* fs: a file system walk, whose line also tells of inodes, names and leftovers. */
static void walk_any(const char *name, long (*op)(void), void (*prep_fn)(void), int extra, bool fs)
{
	unsigned n, enomem = 0, eagain = 0, enfile = 0, shortw = 0, killed = 0;
	struct counts lost = {0};
	const char *left;

	prep = prep_fn;
	extra_errno = extra;
	/*
	 * A warm-up step with nothing injected (fail-nth 0): the code, data and
	 * stack pages this walk runs through in our own process are faulted in
	 * (our text is a file mapping, filled as it is first run), so the pages
	 * counted around each real step are the kernel's alone.
	 */
	step(op, 0, &lost);
	for (n = 1; n <= MAX_N; n++) {
		int st = step(op, n, &lost);

		if (lost.pages || lost.inodes || lost.names) {
			printf("t_failnth: FAIL: %s N=%u: %ld pages, %ld inodes, %ld names not "
			       "given back\n",
			       name, n, lost.pages, lost.inodes, lost.names);
			failures++;
			return;
		}
		if ((left = leftover())) {
			printf("t_failnth: FAIL: %s N=%u: %s left behind\n", name, n, left);
			failures++;
			return;
		}
		if (st == 0)
			break;
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_CLEAN + ENOMEM)
			enomem++;
		else if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_CLEAN + EAGAIN)
			eagain++;
		else if (extra == ENFILE && WIFEXITED(st) && WEXITSTATUS(st) == EXIT_CLEAN + ENFILE)
			enfile++;
		else if (fs && WIFEXITED(st) && WEXITSTATUS(st) == EXIT_SHORT)
			shortw++;
		else if (WIFSIGNALED(st))
			killed++;
		else {
			printf("t_failnth: FAIL: %s N=%u: status 0x%x (not a clean failure)\n",
			       name, n, st);
			failures++;
			return;
		}
	}
	if (n > MAX_N) {
		printf("t_failnth: FAIL: %s did not succeed within N=%d\n", name, MAX_N);
		failures++;
		return;
	}
	if (fs)
		printf("t_failnth: %s: N=1..%u failed cleanly (%u ENOMEM, %u ENFILE, %u short "
		       "writes, %u EAGAIN, %u killed), N=%u succeeded, 0 pages, 0 inodes, 0 names "
		       "leaked, nothing left behind\n",
		       name, n - 1, enomem, enfile, shortw, eagain, killed, n);
	else
		printf("t_failnth: %s: N=1..%u failed cleanly (%u ENOMEM, %u EAGAIN, %u killed "
		       "in a page fault), N=%u succeeded, 0 pages leaked\n",
		       name, n - 1, enomem, eagain, killed, n);
}

static void walk(const char *name, long (*op)(void))
{
	walk_any(name, op, 0, 0, false);
}

static void walk_fs(const char *name, long (*op)(void), void (*prep_fn)(void), int extra)
{
	walk_any(name, op, prep_fn, extra, true);
}

/* The file itself, as Linux: a write arms, a read shows what is left, 0 once injected. */
static void semantics(void)
{
	char buf[16];
	long fd = sys(__NR_open, "/proc/self/fail-nth", 2), rc;

	if (fd < 0 || sys(__NR_write, (int)fd, "1", 1) != 1) {
		printf("t_failnth: FAIL: cannot arm /proc/self/fail-nth (%ld)\n", fd);
		failures++;
		return;
	}
	rc = sys(__NR_open, "/proc/self/stat", 0);
	if (rc != -ENOMEM) {
		printf("t_failnth: FAIL: open with fail-nth=1 gave %ld, not -ENOMEM\n", rc);
		failures++;
	}
	if (read_file("/proc/self/fail-nth", buf, sizeof(buf)) < 0 || strcmp(buf, "0\n")) {
		printf("t_failnth: FAIL: fail-nth after the injection reads '%s', not 0\n", buf);
		failures++;
	}
	if (sys(__NR_write, (int)fd, "x", 1) != -EINVAL ||
	    sys(__NR_write, (int)fd, "4294967296", 10) != -34) {
		printf("t_failnth: FAIL: a bad number was accepted\n");
		failures++;
	}
	sys(__NR_close, (int)fd);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	sys(__NR_prctl, 36, 1); /* PR_SET_CHILD_SUBREAPER: orphans of a step come here */
	semantics();
	walk("fork", op_fork);
	walk("spawn", op_spawn);
	walk("execve", op_execve);
	walk("mmap+touch", op_mmap);
	walk("brk+touch", op_brk);
	walk("mremap MREMAP_FIXED 1 GiB away", op_mremap);
	walk("open /proc/self/stat", op_open_stat);
	walk("open /proc/self/maps", op_open_maps);
	walk_fs("pipe2", op_pipe2, 0, ENFILE);
	walk_fs("open O_CREAT /tmp", op_creat, 0, 0);
	walk_fs("mkdir /tmp", op_mkdir, 0, 0);
	walk_fs("write growing a file", op_grow, prep_grow, 0);
	walk_fs("symlink", op_symlink, 0, 0);
	walk_fs("rename", op_rename, prep_rename, 0);
	walk_fs("mmap of a file+touch", op_mmap_file, prep_mapfile, 0);
	return failures ? 1 : 0;
}
