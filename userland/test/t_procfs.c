/*
 * /proc tests from ring 3, run by kernel/test/test_procfs.c:
 *   t_procfs format          /proc/self/stat: 44 fields (52 under 6.x), consistent
 *                          with this task
 *   t_procfs leak fixed      every other task: the patch's four fields are 0 (and
 *                          6.12's code range 1 1), no numeric wchan, maps denied
 *   t_procfs leak demo PID   (proc_leak_fix=0) PID's kstkeip/kstkesp/startstack show
 *                          (6.12 never shows the first two but of an exiting task)
 *
 * The rule set is read from uname's release, as the kernel reports the one
 * aslr_rules= follows: "2.6.29-..." or "6.12...".
 *   t_procfs bad             bad paths, buffers and writes get the right errno
 *   t_procfs access PID      exit 0 if PID's maps can be read, 1 if EACCES
 *   t_procfs open PATH       exit status = the errno of open(PATH), 0 if it opens
 *   t_procfs listed PID      exit 0 if PID is in the /proc listing
 */
#include "userland/lib/aslrbench_user.h"

#include <sys/utsname.h>

#define NFIELDS_MAX 52

static int nfields = 44; /* 2.6.29's do_task_stat; 6.12's has 52 */
static int v612;	 /* the kernel follows Linux 6.12's /proc */

static int failures;

static void check(int ok, const char *what, long got)
{
	if (!ok) {
		printf("t_procfs: FAIL: %s (got %ld)\n", what, got);
		failures++;
	}
}

/* Splits a stat line into its fields (comm without parentheses); returns the count. */
static int stat_fields(char *line, char **f)
{
	char *l = line, *r = line + strlen(line);
	int n = 0;

	while (*l && *l != '(')
		l++;
	while (r > l && *r != ')')
		r--;
	if (*l != '(' || r <= l)
		return 0;
	f[n++] = line;
	*r = '\0';
	f[n++] = l + 1;
	for (char *p = r + 1; *p && n < NFIELDS_MAX + 2;) {
		while (*p == ' ' || *p == '\n')
			*p++ = '\0';
		if (!*p)
			break;
		f[n++] = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
	}
	return n;
}

static uint64_t num(const char *s)
{
	uint64_t v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return v;
}

static int test_format(void)
{
	char buf[1024], one[1024], maps[4096], *f[NFIELDS_MAX + 2];
	long n, fd, k = 0, got;
	uint64_t esp, eip, sstack;
	int stack_ok = 0, eip_ok = 0;

	n = read_file("/proc/self/stat", buf, sizeof(buf));
	check(n > 0, "read /proc/self/stat", n);
	/* 1-byte reads give the same bytes as one big read (snapshots differ only in time fields).
	 */
	fd = sys(__NR_open, "/proc/self/stat", 0);
	while ((got = sys(__NR_read, (int)fd, one + k, 1)) == 1 && k < (long)sizeof(one) - 1)
		k++;
	check(got == 0, "1-byte reads end with 0 at EOF", got);
	check(sys(__NR_read, (int)fd, one, 16) == 0, "read past EOF returns 0", 0);
	check(sys(__NR_read, (int)fd, one, 0) == 0, "zero-length read returns 0", 0);
	sys(__NR_close, (int)fd);
	check(k > 0 && one[k - 1] == '\n', "1-byte reads return a whole line", k);
	n = stat_fields(one, f); /* the byte-wise copy must parse the same way */
	check(n == nfields, "every field in the 1-byte copy", n);
	n = stat_fields(buf, f);
	check(n == nfields, "44 fields (52 under 6.x)", n);
	check((long)num(f[0]) == sys(__NR_getpid), "field 1 is our pid", (long)num(f[0]));
	check(!strcmp(f[1], "t_procfs"), "field 2 is (t_procfs)", 0);
	check(f[2][0] == 'R', "state R while reading", f[2][0]);
	check((long)num(f[3]) == sys(__NR_getppid), "field 4 is our parent", (long)num(f[3]));
	sstack = num(f[27]);
	esp = num(f[28]);
	eip = num(f[29]);
	if (v612) {
		check(sstack != 0 && esp == 0 && eip == 0,
		      "startstack shown to self, kstkesp and kstkeip 0 (6.12)", (long)eip);
		check(num(f[19]) == 1, "num_threads 1", (long)num(f[19]));
		return failures ? 1 : 0;
	}
	check(sstack != 0 && esp != 0 && eip != 0, "startstack, kstkesp, kstkeip shown to self",
	      (long)eip);
	check(esp <= sstack + 8192, "kstkesp at or below the start of the stack", (long)esp);
	read_file("/proc/self/maps", maps, sizeof(maps));
	for (char *p = maps; *p;) {
		uint64_t lo = 0, hi = 0;

		while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
			lo = lo * 16 + (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10), p++;
		p++;
		while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
			hi = hi * 16 + (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10), p++;
		if (esp >= lo && esp < hi)
			stack_ok = 1;
		if (eip >= lo && eip < hi && p[3] == 'x')
			eip_ok = 1;
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
	check(stack_ok, "kstkesp lies in a mapping", (long)esp);
	check(eip_ok, "kstkeip lies in an executable mapping", (long)eip);
	check(num(f[19]) == 1, "num_threads 1", (long)num(f[19]));
	return failures ? 1 : 0;
}

static int is_numeric(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int leak_fixed(void)
{
	int pids[64], others = 0;
	long n = sys(__NR_getdents_pids, pids, 64);

	for (long i = 0; i < n; i++) {
		char path[40], buf[1024], *f[NFIELDS_MAX + 2];
		long rc;

		if (pids[i] == sys(__NR_getpid))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		if (read_file(path, buf, sizeof(buf)) <= 0 || stat_fields(buf, f) != nfields)
			continue;
		others++;
		check(num(f[27]) == 0, "startstack of another task is 0", (long)num(f[27]));
		check(num(f[28]) == 0, "kstkesp of another task is 0", (long)num(f[28]));
		check(num(f[29]) == 0, "kstkeip of another task is 0", (long)num(f[29]));
		check(num(f[34]) == 0, "wchan field of another task is 0", (long)num(f[34]));
		if (v612)
			check(num(f[25]) == 1 && num(f[26]) == 1,
			      "start_code and end_code of another task are 1 (6.12)",
			      (long)num(f[25]));
		snprintf(path, sizeof(path), "/proc/%d/wchan", pids[i]);
		rc = read_file(path, buf, sizeof(buf));
		/* 6.12's proc_pid_wchan: "0" to a reader it refuses; 2.6.29: a name or nothing */
		if (v612)
			check(rc == 1 && buf[0] == '0', "wchan file shows 0 (6.12)", rc);
		else
			check(rc >= 0 && !is_numeric(buf), "wchan file shows no number", rc);
		snprintf(path, sizeof(path), "/proc/%d/maps", pids[i]);
		rc = sys(__NR_open, path, 0);
		check(rc == -EACCES, "maps of another task is EACCES", rc);
		if (rc >= 0)
			sys(__NR_close, (int)rc);
	}
	check(others > 0, "found other tasks to read", others);
	return failures ? 1 : 0;
}

static int leak_demo(int pid)
{
	char path[40], buf[1024], *f[NFIELDS_MAX + 2];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	check(read_file(path, buf, sizeof(buf)) > 0 && stat_fields(buf, f) == nfields, "read stat",
	      0);
	check(num(f[27]) != 0, "startstack leaks", 0);
	if (v612) {
		check(num(f[25]) > 1, "start_code leaks", 0);
		check(num(f[28]) == 0 && num(f[29]) == 0, "kstkesp and kstkeip stay 0 (6.12)", 0);
		if (!failures)
			printf("t_procfs: leak: pid %d startstack=%lx start_code=%lx\n", pid,
			       num(f[27]), num(f[25]));
		return failures ? 1 : 0;
	}
	check(num(f[28]) != 0, "kstkesp leaks", 0);
	check(num(f[29]) != 0, "kstkeip leaks", 0);
	if (!failures)
		printf("t_procfs: leak: pid %d startstack=%lx kstkesp=%lx kstkeip=%lx\n", pid,
		       num(f[27]), num(f[28]), num(f[29]));
	return failures ? 1 : 0;
}

static int bad_input(void)
{
	char longpath[400], buf[64];
	static const char ro[8] = "x";
	long fd, rc;

	check(sys(__NR_open, "/proc/99999/stat", 0) == -ENOENT, "nonexistent pid", 0);
	check(sys(__NR_open, "/proc/12abc/stat", 0) == -ENOENT, "/proc/12abc/stat", 0);
	check(sys(__NR_open, "/proc/012/stat", 0) == -ENOENT, "leading zero", 0);
	/* "//" is one slash, as in Linux's path walk: /proc//stat is /proc/stat */
	fd = sys(__NR_open, "/proc//stat", 0);
	check(fd >= 0, "/proc//stat is /proc/stat", fd);
	sys(__NR_close, (int)fd);
	check(sys(__NR_open, "/proc//status", 0) == -ENOENT, "/proc//status", 0);
	/* The path walk is Linux's: "." and ".." resolve, a file with a trailing slash is ENOTDIR.
	 */
	fd = sys(__NR_open, "/proc/1/../1/stat", 0);
	check(fd >= 0, ".. component", fd);
	sys(__NR_close, (int)fd);
	fd = sys(__NR_open, "/proc/./1/stat", 0);
	check(fd >= 0, ". component", fd);
	sys(__NR_close, (int)fd);
	rc = sys(__NR_open, "/proc/1/stat/", 0);
	check(rc == -ENOTDIR, "trailing slash", rc);
	check(sys(__NR_open, "/proc/1/nosuch", 0) == -ENOENT, "unknown file", 0);
	check(sys(__NR_open, "/nosuch", 0) == -ENOENT, "outside /proc", 0);
	/* A directory opens read-only (for getdents64); for writing it is EISDIR. */
	rc = sys(__NR_open, "/proc/1", 1);
	check(rc == -EISDIR, "a directory for writing is EISDIR", rc);
	rc = sys(__NR_open, "/proc/1\0/stat", 1);
	check(rc == -EISDIR, "embedded NUL ends the path", rc);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	check(sys(__NR_open, longpath, 0) == -ENAMETOOLONG, "path longer than the limit", 0);
	check(sys(__NR_open, (const char *)0xffffffff80000000ULL, 0) == -EFAULT,
	      "kernel pointer path", 0);
	/* 0444: refused to any but root, whose open succeeds and whose write is EINVAL (no write
	 * op) */
	fd = sys(__NR_open, "/proc/self/stat", 1);
	if (sys(__NR_geteuid) == 0)
		check(fd >= 0 && sys(__NR_write, (int)fd, "x", 1) == -EINVAL,
		      "root writing stat: EINVAL", fd);
	else
		check(fd == -EACCES, "writing stat: EACCES", fd);
	if (fd >= 0)
		sys(__NR_close, (int)fd);
	fd = sys(__NR_open, "/proc/self/stat", 0);
	check(sys(__NR_read, (int)fd, (void *)0xffffffff80000000ULL, 16) == -EFAULT,
	      "read to kernel", 0);
	check(sys(__NR_read, (int)fd, (void *)0x1000, 16) == -EFAULT, "read to unmapped", 0);
	check(sys(__NR_read, (int)fd, (void *)ro, 4) == -EFAULT, "read into rodata", 0);
	check(sys(__NR_read, (int)fd, buf, 1) == 1, "1-byte buffer", 0);
	sys(__NR_close, (int)fd);
	check(sys(__NR_read, (int)fd, buf, 1) == -9, "read after close is EBADF", 0);
	fd = sys(__NR_open, "/proc/sys/kernel/randomize_va_space", 1);
	if (sys(__NR_geteuid) == 0) {
		check(sys(__NR_write, (int)fd, "7", 1) == -EINVAL, "randomize_va_space=7", 0);
		sys(__NR_close, (int)fd);
		fd = sys(__NR_open, "/proc/sys/kernel/rng_variant", 1);
		check(sys(__NR_write, (int)fd, "md6", 3) == -EINVAL, "unknown variant", 0);
	} else {
		/* 0644 and root's: the open itself is refused, as Linux's proc_sys_permission does.
		 */
		check(fd == -EACCES, "unprivileged sysctl open for writing", fd);
		fd = sys(__NR_open, "/proc/sys/kernel/rng_variant", 1);
		check(fd == -EACCES, "unprivileged rng_variant open for writing", fd);
	}
	sys(__NR_close, (int)fd);
	rc = read_file("/proc/uptime", buf, sizeof(buf));
	check(rc > 0 && buf[rc - 1] == '\n', "/proc/uptime", rc);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct utsname u;

	if (uname(&u) == 0 && u.release[0] == '6') {
		v612 = 1;
		nfields = 52;
	}
	if (argc >= 2 && !strcmp(argv[1], "format"))
		return test_format();
	if (argc >= 3 && !strcmp(argv[1], "leak") && !strcmp(argv[2], "fixed"))
		return leak_fixed();
	if (argc >= 4 && !strcmp(argv[1], "leak") && !strcmp(argv[2], "demo"))
		return leak_demo((int)atol(argv[3]));
	if (argc >= 2 && !strcmp(argv[1], "bad"))
		return bad_input();
	if (argc >= 3 && !strcmp(argv[1], "access")) {
		char path[40];
		long rc;

		snprintf(path, sizeof(path), "/proc/%s/maps", argv[2]);
		rc = sys(__NR_open, path, 0);
		if (rc >= 0)
			return 0;
		return rc == -EACCES ? 1 : 2;
	}
	if (argc >= 3 && !strcmp(argv[1], "open")) { /* exit status: errno, 0 when it opens */
		long rc = sys(__NR_open, argv[2], 0);

		return rc >= 0 ? 0 : (int)-rc;
	}
	if (argc >= 3 && !strcmp(argv[1], "listed")) { /* exit 0 when PID is in the listing */
		int pids[64], want = (int)atol(argv[2]);
		long n = sys(__NR_getdents_pids, pids, 64);

		for (long i = 0; i < n; i++)
			if (pids[i] == want)
				return 0;
		return 1;
	}
	printf("usage: t_procfs format | leak fixed | leak demo PID | bad | access PID | open PATH"
	       " | listed PID\n");
	return 2;
}
