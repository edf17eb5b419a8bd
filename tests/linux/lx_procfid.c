/*
 * lx_procfid: what a uid 1000 process reads in another's /proc files, in a
 * form that tests/linux/procfid.py compares between aslrbench and Linux
 * 6.12 booted in the same emulator (the same binary under both).
 *
 * Run as root.  It starts a root process asleep in nanosleep, then a uid
 * 1000 reader; the reader starts a same-user sibling asleep too and prints
 * stat, status, wchan, maps, environ, statm, syscall and task/TID/stat of
 * the root process, of itself and of the sibling.  Every process execs this
 * program again (modes "sleep" and "reader"), so each is dumpable and
 * starts with a known environment, as a process exec'd by a shell is: the
 * readers' rights then follow uids alone, which is what the 2009 patch and
 * its successors gate.
 *
 * Output: "pids root=R self=S sibling=B parent=P" first, then for each file
 * "== TARGET PATH" and its bytes (NULs as '|'), or "open: ERRNO" / "read:
 * ERRNO" by name, so that the C libraries' messages do not differ.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *self_path;

static const char *errno_name(int e)
{
	switch (e) {
	case EACCES:
		return "EACCES";
	case EPERM:
		return "EPERM";
	case ENOENT:
		return "ENOENT";
	case ESRCH:
		return "ESRCH";
	case EINVAL:
		return "EINVAL";
	case EIO:
		return "EIO";
	default:
		return "other";
	}
}

static void dump(const char *tag, const char *path)
{
	char buf[16384];
	long n, tot = 0;
	int fd = open(path, O_RDONLY);

	printf("== %s %s\n", tag, path);
	if (fd < 0) {
		printf("open: %s\n", errno_name(errno));
		return;
	}
	while (tot < (long)sizeof(buf) - 1 && (n = read(fd, buf + tot, sizeof(buf) - 1 - tot)) > 0)
		tot += n;
	if (n < 0)
		printf("read: %s\n", errno_name(errno));
	close(fd);
	for (long i = 0; i < tot; i++)
		if (buf[i] == '\0')
			buf[i] = '|';
	buf[tot] = '\0';
	fputs(buf, stdout);
	if (tot && buf[tot - 1] != '\n')
		putchar('\n');
}

/* Execs this program in MODE (with ARG) with a fixed environment; only returns on failure. */
static void reexec(const char *mode, const char *arg)
{
	char *argv[] = {(char *)self_path, (char *)mode, (char *)arg, 0};
	char *envp[] = {"LX_PROCFID=1", "HOME=/", 0};

	execve(self_path, argv, envp);
	perror("lx_procfid: execve");
	_exit(127);
}

/* Waits until PID has exec'd this program and sleeps (state S), at most about 5 s. */
static int wait_asleep(pid_t pid)
{
	char path[64], buf[512];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 2500; i++) {
		int fd = open(path, O_RDONLY);
		long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		const char *p;

		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = '\0';
		p = strrchr(buf, ')');
		if (strstr(buf, "(lx_procfid)") && p && p[1] == ' ' && p[2] == 'S')
			return 0;
		usleep(2000);
	}
	fprintf(stderr, "lx_procfid: pid %d never slept\n", pid);
	return -1;
}

static pid_t spawn_sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0)
		reexec("sleep", 0);
	return pid;
}

static int reader(pid_t root)
{
	static const char *const files[] = {"stat",    "status", "wchan",  "maps",
					    "environ", "statm",	 "syscall"};
	pid_t sib = spawn_sleeper();
	struct {
		const char *tag;
		pid_t pid;
	} t[3] = {{"root", root}, {"self", getpid()}, {"sibling", sib}};
	char path[64];

	if (sib < 0 || wait_asleep(sib))
		return 1;
	printf("pids root=%d self=%d sibling=%d parent=%d\n", root, getpid(), sib, getppid());
	for (int i = 0; i < 3; i++)
		for (unsigned j = 0; j < sizeof(files) / sizeof(files[0]); j++) {
			snprintf(path, sizeof(path), "/proc/%d/%s", t[i].pid, files[j]);
			dump(t[i].tag, path);
		}
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", t[i].pid, t[i].pid);
		dump(t[i].tag, path);
	}
	fflush(stdout);
	kill(sib, SIGKILL);
	waitpid(sib, 0, 0);
	return 0;
}

int main(int argc, char **argv)
{
	pid_t root, rd;
	int status = 1;
	char arg[16];

	self_path = argv[0];
	if (argc >= 2 && !strcmp(argv[1], "sleep")) {
		struct timespec ts = {100000, 0};

		nanosleep(&ts, 0);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "reader"))
		return reader(atoi(argv[2]));
	if (argc != 1 || argv[0][0] != '/') {
		fprintf(stderr, "usage: /PATH/lx_procfid (as root, by its absolute path)\n");
		return 2;
	}
	if (getuid() != 0) {
		fprintf(stderr, "lx_procfid: run it as root\n");
		return 2;
	}
	setsid(); /* a session of its own, as a login shell's child would lead */
	/* every disposition its default, whatever the shells above this ignored */
	for (int sig = 1; sig < 32; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	fflush(stdout);
	root = spawn_sleeper();
	if (root < 0 || wait_asleep(root))
		return 1;
	snprintf(arg, sizeof(arg), "%d", root);
	rd = fork();
	if (rd == 0) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(126);
		reexec("reader", arg);
	}
	if (rd > 0 && waitpid(rd, &status, 0) == rd && WIFEXITED(status))
		status = WEXITSTATUS(status);
	kill(root, SIGKILL);
	waitpid(root, 0, 0);
	printf("lx_procfid: exit %d\n", status);
	return status;
}
