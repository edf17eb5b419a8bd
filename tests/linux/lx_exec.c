/*
 * lx_exec: a plain Linux C program (built as static musl) that checks
 * execve from the file system against Linux's behaviour: a file found by
 * path (its own, through /proc/self/exe), argv and envp passed intact, the
 * comm from the file name's last component (15 characters), #! scripts
 * (interpreter, one argument, argv[0] replaced, AT_EXECFN, nesting: five
 * scripts run, the sixth is ELOOP), and the errors: ENOEXEC, EACCES (no x
 * bit even for root, a directory), ENOENT (also a script's missing
 * interpreter), E2BIG, ENAMETOOLONG, ELOOP (symlinks), EFAULT.
 * tests/sh/linux-abi.sh runs it on the host Linux; the kernel's linux suite
 * runs it from the initramfs (/bin/lx_exec).  It must run from a file: its
 * checks exec /proc/self/exe's target.
 *
 * Usage: lx_exec [all]; prints one "ok"/"FAIL" line per check and exits 0
 * when every check passed.  lx_exec init [ARG...]: first what Linux gives
 * an init= program (argv[0] its path, the arguments, envp exactly HOME=/
 * TERM=linux, fds 0, 1, 2 open; pid 1 when it is one: boot it with
 * init=/bin/lx_exec -- init ARG...), then all.  The other argv[1] values
 * are its own children.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

static char self[PATH_MAX], tmp[64];

/* fork, execve(path, argv, envp) in the child; the child's wait status (or -errno of execve). */
static int run(const char *path, char *const argv[], char *const envp[])
{
	int st, pfd[2], err = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1000;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
		execve(path, argv, envp);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	if (read(pfd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1000;
	return err ? -err : st;
}

/* execve in this process: it must fail; returns errno. */
static int exec_errno(const char *path, char *const argv[])
{
	char *envp[] = {0};

	if (execve(path, argv, envp) == 0)
		return 0;
	return errno;
}

static void write_file(const char *name, const char *text, mode_t mode)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s%s", tmp, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd) ||
	    chmod(path, mode))
		check(0, "create a file in /tmp");
}

static const char *tpath(const char *name)
{
	static char bufs[8][128];
	static int k;
	char *p = bufs[k++ % 8];

	snprintf(p, 128, "%s%s", tmp, name);
	return p;
}

/* The child's side: "child" and the scripts' interpreter run ("shebang two"). */
static int child(int argc, char **argv, char **envp)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);
	char comm[64] = "", buf[512], link[PATH_MAX];
	FILE *f = fopen("/proc/self/stat", "r");
	ssize_t n;

	if (f && fgets(buf, sizeof(buf), f) && strchr(buf, '(') && strrchr(buf, ')'))
		snprintf(comm, sizeof(comm), "%.*s",
			 (int)(strrchr(buf, ')') - strchr(buf, '(') - 1), strchr(buf, '(') + 1);
	if (f)
		fclose(f);
	n = readlink("/proc/self/exe", link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (!strcmp(argv[1], "child")) {
		/* argv, envp intact; the comm: the name's last component, 15 characters */
		if (argc != 5 || strcmp(argv[2], "") || strcmp(argv[3], "two words") ||
		    strcmp(argv[4], "x\ty") || !envp[0] || strcmp(envp[0], "LX_A=1") || !envp[1] ||
		    strcmp(envp[1], "LX_EMPTY=") || envp[2])
			return 10;
		if (strcmp(comm, argv[0][0] == 'L' ? "LX_exec_long_na" : "lx_exec"))
			return 11;
		if (!fn || strcmp(fn, argv[0][0] == 'L' ? tpath("LX_exec_long_name") : self))
			return 12;
		return strcmp(link, self) ? 13 : 42;
	}
	/* a script: argv {interpreter, "shebang two", script..., "x"} */
	if (strcmp(argv[0], self) || strcmp(argv[argc - 1], "x"))
		return 20;
	if (strcmp(comm, "lx_exec_s1") && strcmp(comm, "lx_exec_s5"))
		return 21;
	if (!fn || strcmp(fn, argv[argc - 2]))
		return 22;
	if (strcmp(link, self)) /* /proc/self/exe: the interpreter's file */
		return 23;
	return argc;
}

/* A line "start-end r-xp offset dev inode   PATH" with this program's path. */
static int maps_names_self(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128], perms[8];
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		char *nl = strchr(line, '\n'), *name = strchr(line, '/');

		if (nl)
			*nl = '\0';
		if (name && sscanf(line, "%*s %7s", perms) == 1 && perms[2] == 'x' &&
		    !strcmp(name, self))
			found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static char *empty_argv[] = {0}, *empty_env[] = {"LX_EXEC_EMPTY_ARGV=1", 0};

static void check_exec(void)
{
	char *argv[] = {self, "child", "", "two words", "x\ty", 0};
	char *envp[] = {"LX_A=1", "LX_EMPTY=", 0};
	char *long_argv[] = {"LX_exec_long_name", "child", "", "two words", "x\ty", 0};
	struct stat a, b;
	int st;

	check(stat(self, &a) == 0 && stat("/proc/self/exe", &b) == 0 && a.st_ino == b.st_ino &&
		      a.st_dev == b.st_dev,
	      "/proc/self/exe: readlink names this program's file");
	check(maps_names_self(), "/proc/self/maps: an executable region names this program's file");
	st = run(self, argv, envp);
	check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "execve of a file: argv, envp, comm, AT_EXECFN, /proc/self/exe");
	if (st != (42 << 8))
		printf("  status %d\n", st);
	unlink(tpath("LX_exec_long_name"));
	check(symlink(self, tpath("LX_exec_long_name")) == 0, "symlink to the program");
	st = run(tpath("LX_exec_long_name"), long_argv, envp);
	check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "execve through a symlink: comm is its name cut to 15 characters");
	if (st != (42 << 8))
		printf("  status %d\n", st);
	unlink(tpath("LX_exec_long_name"));
	st = run(self, empty_argv, empty_env);
	check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "execve with an empty argv: the program runs with argv {\"\"} (Linux 5.18+)");
}

static void check_scripts(void)
{
	char line[PATH_MAX + 64];
	char *argv[] = {"ignored", "x", 0};
	char *envp[] = {0};
	int st;

	/* blanks around the interpreter are skipped, trailing ones cut, the rest is one argument */
	snprintf(line, sizeof(line), "#! \t%s  shebang two \t\necho not this line\n", self);
	write_file("lx_exec_s1", line, 0755);
	st = run(tpath("lx_exec_s1"), argv, envp);
	check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 4,
	      "#! script: argv {interpreter, argument, script, argv[1]}, AT_EXECFN, comm, exe");
	if (st != (4 << 8))
		printf("  status %d\n", st);
	/* nesting: s2 .. s5 name the previous script: five scripts run */
	for (int i = 2; i <= 6; i++) {
		char name[32];

		snprintf(name, sizeof(name), "lx_exec_s%d", i);
		snprintf(line, sizeof(line), "#!%slx_exec_s%d\n", tmp, i - 1);
		write_file(name, line, 0755);
	}
	st = run(tpath("lx_exec_s5"), argv, envp);
	check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 8,
	      "five nested #! scripts run, each script's path spliced in");
	if (st != (8 << 8))
		printf("  status %d\n", st);
	st = run(tpath("lx_exec_s6"), argv, envp);
	check(st == -ELOOP, "six nested #! scripts: ELOOP");
	if (st != -ELOOP)
		printf("  status %d\n", st);
	write_file("lx_exec_noint",
		   "#!"
		   "/nonexistent/lx_interp\n",
		   0755);
	check(exec_errno(tpath("lx_exec_noint"), argv) == ENOENT,
	      "#! naming a missing interpreter: ENOENT");
	write_file("lx_exec_empty", "#!  \n", 0755);
	check(exec_errno(tpath("lx_exec_empty"), argv) == ENOEXEC, "#! naming nothing: ENOEXEC");
	for (int i = 1; i <= 6; i++) {
		char name[32];

		snprintf(name, sizeof(name), "lx_exec_s%d", i);
		unlink(tpath(name));
	}
	unlink(tpath("lx_exec_noint"));
	unlink(tpath("lx_exec_empty"));
}

static void check_errors(void)
{
	char *argv[] = {"x", 0};
	char *bad_argv[] = {"x", (char *)1, 0};
	static char longpath[PATH_MAX + 16], longname[NAME_MAX + 16];
	char **big;
	int st = 0;

	write_file("lx_exec_junk", "hello, not a program\n", 0755);
	check(exec_errno(tpath("lx_exec_junk"), argv) == ENOEXEC, "a text file: ENOEXEC");
	write_file("lx_exec_elfish", "\177ELF junk", 0755);
	check(exec_errno(tpath("lx_exec_elfish"), argv) == ENOEXEC, "a truncated ELF: ENOEXEC");
	write_file("lx_exec_nox", "#!/bin/sh\n", 0644);
	check(exec_errno(tpath("lx_exec_nox"), argv) == EACCES, "no x bit (root too): EACCES");
	check(exec_errno("/tmp", argv) == EACCES, "a directory: EACCES");
	check(exec_errno("/dev/null", argv) == EACCES, "a device: EACCES");
	check(exec_errno(tpath("lx_exec_missing"), argv) == ENOENT, "a missing file: ENOENT");
	check(exec_errno("", argv) == ENOENT, "an empty path: ENOENT");
	memset(longpath, 'a', PATH_MAX + 8);
	longpath[0] = '/';
	check(exec_errno(longpath, argv) == ENAMETOOLONG, "a path past PATH_MAX: ENAMETOOLONG");
	memset(longname, 'b', NAME_MAX + 8);
	snprintf(longpath, sizeof(longpath), "/tmp/%s", longname);
	check(exec_errno(longpath, argv) == ENAMETOOLONG, "a name past NAME_MAX: ENAMETOOLONG");
	unlink(tpath("lx_exec_l1"));
	unlink(tpath("lx_exec_l2"));
	check(symlink(tpath("lx_exec_l2"), tpath("lx_exec_l1")) == 0 &&
		      symlink(tpath("lx_exec_l1"), tpath("lx_exec_l2")) == 0 &&
		      exec_errno(tpath("lx_exec_l1"), argv) == ELOOP,
	      "a symlink loop: ELOOP");
	{
		char **volatile bad = (char **)1; /* hidden from the compiler's bounds checks */

		check(exec_errno(self, bad) == EFAULT, "a bad argv pointer: EFAULT");
	}
	check(exec_errno(self, bad_argv) == EFAULT, "a bad argv[1]: EFAULT");
	/* 64 strings of 128 KiB: past RLIMIT_STACK / 4 (and 6.x's 6 MiB cap) */
	big = calloc(66, sizeof(*big));
	if (big && (big[0] = malloc(64 * 128 * 1024)))
		memset(big[0], 'z', 64 * 128 * 1024);
	for (int i = 0; big && big[0] && i < 64; i++) {
		big[i] = big[0] + i * 128 * 1024;
		big[i][128 * 1024 - 1] = '\0';
	}
	check(big && big[0] && (st = exec_errno(self, big)) == E2BIG, "8 MiB of argv: E2BIG");
	if (!big || !big[0])
		printf("  no memory for the strings\n");
	else if (st != E2BIG)
		printf("  errno %d\n", st);
	/* 100 KiB fits: the child runs (and exits through the default: "exit 3") */
	if (big) {
		char *some[] = {self, "exit3", big[0], 0};

		big[0][100 * 1024] = '\0';
		st = run(self, some, argv + 1);
		check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 3, "100 KiB of argv fits");
	}
	unlink(tpath("lx_exec_junk"));
	unlink(tpath("lx_exec_elfish"));
	unlink(tpath("lx_exec_nox"));
	unlink(tpath("lx_exec_l1"));
	unlink(tpath("lx_exec_l2"));
}

/* What an init= program gets (Linux's kernel_init: argv_init, envp_init). */
static void check_init(int argc, char **argv, char **envp)
{
	int fds = 1;

	check(!strcmp(argv[0], self), "init: argv[0] is its path");
	printf("  init: %d arguments after argv[1]:", argc - 2);
	for (int i = 2; i < argc; i++)
		printf(" '%s'", argv[i]);
	printf("\n");
	check(envp[0] && !strcmp(envp[0], "HOME=/") && envp[1] && !strcmp(envp[1], "TERM=linux") &&
		      !envp[2],
	      "init: envp is exactly HOME=/ TERM=linux");
	for (int fd = 0; fd < 3; fd++)
		fds &= fcntl(fd, F_GETFD) >= 0;
	check(fds, "init: fds 0, 1, 2 open");
	if (getpid() == 1)
		check(getppid() == 0, "init: pid 1, parent 0");
	else
		printf("  init: pid %d, not 1 (not booted as init=): pid check left out\n",
		       (int)getpid());
}

int main(int argc, char **argv, char **envp)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || self[0] != '/') {
		printf("FAIL lx_exec must run from a file (/proc/self/exe: %s)\n",
		       n <= 0 ? strerror(errno) : "not absolute");
		return 1;
	}
	self[n] = '\0';
	if (getenv("LX_EXEC_EMPTY_ARGV")) /* run by check_exec with argv {} */
		return argc == 1 && argv[0][0] == '\0' && !argv[1] ? 0 : 1;
	snprintf(tmp, sizeof(tmp), "/tmp/lx_exec.%d/", (int)getppid());
	if (argc >= 2 && !strcmp(argv[1], "exit3"))
		return 3;
	if (argc >= 2 && (!strcmp(argv[1], "child") || !strcmp(argv[1], "shebang two")))
		return child(argc, argv, envp);
	if (argc >= 2 && !strcmp(argv[1], "init"))
		check_init(argc, argv, envp);
	snprintf(tmp, sizeof(tmp), "/tmp/lx_exec.%d/", (int)getpid());
	check(mkdir(tmp, 0755) == 0, "a scratch directory in /tmp");
	check_exec();
	check_scripts();
	check_errors();
	check(rmdir(tmp) == 0, "every scratch file removed");
	return summary("lx_exec");
}
