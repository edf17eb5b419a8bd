/*
 * lx_procread RULES: /proc/1's pointer fields follow the reader's
 * credentials at read time, and /proc/1/wchan follows RULES (2.6.29 or 6.x).
 *
 * Why: Linux generates /proc/<pid>/stat and wchan when they are read
 * (seq_read calls ->show then; 2.6.29's proc_info_read likewise), and
 * decides the fields the 2009 patch hides with ptrace_may_access at that
 * moment.  A root process that opens /proc/1/stat and then drops to uid
 * 1000 must read kstkesp and kstkeip as 0, as any uid 1000 reader does.
 * wchan: 6.x prints "0" to a reader that fails ptrace_may_access
 * (proc_pid_wchan since 4.x); 2.6.29 after the patch printed a known
 * function's name to anyone.  Run as root; the work happens in a child so
 * that pid 1 (init, or this program as init) sleeps in wait.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

/* Field n (1-based) of a stat line, after the ")" that ends comm. */
static unsigned long long stat_field(const char *line, int n)
{
	const char *p = strrchr(line, ')');

	if (!p)
		return ~0ULL;
	p += 2; /* field 3 */
	for (int i = 3; i < n; i++) {
		p = strchr(p, ' ');
		if (!p)
			return ~0ULL;
		p++;
	}
	return strtoull(p, 0, 10);
}

/*
 * Pid 1 may not be asleep in wait yet when the child first runs (a tick can
 * preempt it between fork and wait), and a running task has no wchan: wait
 * until its stat shows state S, at most about a second.
 */
static void wait_for_pid1_sleep(void)
{
	char buf[1024];

	for (int i = 0; i < 1000; i++) {
		int fd = open("/proc/1/stat", O_RDONLY);
		long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		const char *p;

		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return;
		usleep(1000);
	}
}

/*
 * A kept /proc/self/stat read again from offset 0 shows the file as it is
 * then, not its first read's text (seq_read starts over at 0 in 6.12;
 * 2.6.29's proc_info_read made it anew at every read): nice 0, then 5.
 */
static void check_reread(void)
{
	char buf[1024];
	int fd = open("/proc/self/stat", O_RDONLY);
	long a = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1, b;
	unsigned long long before, after;

	buf[a > 0 ? a : 0] = '\0';
	before = stat_field(buf, 19);
	setpriority(PRIO_PROCESS, 0, 5);
	b = fd >= 0 && lseek(fd, 0, SEEK_SET) == 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[b > 0 ? b : 0] = '\0';
	after = stat_field(buf, 19);
	if (fd >= 0)
		close(fd);
	check(a > 0 && b > 0 && before == 0 && after == 5,
	      "a kept stat read again from offset 0 is made anew (nice 0, then 5)");
}

static int child(const char *rules)
{
	char buf[1024];
	int st = open("/proc/1/stat", O_RDONLY), wc = open("/proc/1/wchan", O_RDONLY);
	long n;

	wait_for_pid1_sleep();
	check(st >= 0 && wc >= 0, "root opens /proc/1/stat and /proc/1/wchan");
	check(setresgid(1000, 1000, 1000) == 0 && setresuid(1000, 1000, 1000) == 0,
	      "then drops to uid 1000");
	n = read(st, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	check(n > 0 && stat_field(buf, 29) == 0 && stat_field(buf, 30) == 0,
	      "stat read after the drop: kstkesp and kstkeip are 0");
	n = read(wc, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (!strcmp(rules, "6.x"))
		check(!strcmp(buf, "0"), "wchan read after the drop: \"0\" (6.x)");
	else
		check(n > 0 && isalpha((unsigned char)buf[0]),
		      "wchan read after the drop: a function's name (2.6.29)");
	check_reread();
	return summary("lx_procread");
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc != 2 || (strcmp(argv[1], "6.x") && strcmp(argv[1], "2.6.29"))) {
		fprintf(stderr, "usage: lx_procread 2.6.29|6.x\n");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		return child(argv[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}
