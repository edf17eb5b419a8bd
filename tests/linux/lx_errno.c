/*
 * lx_errno: error numbers at Linux's limits, checked the same on the host's
 * Linux and in the kernel.
 *
 * Why: a program learns the limits of path walks, exec and /proc from these
 * errors; each check names the Linux 6.6 rule it follows.
 *   - MAXSYMLINKS 40 (include/linux/namei.h): a chain of 40 links opens, the
 *     41st link is ELOOP (fs/namei.c pick_link: total_link_count++ >= 40).
 *   - getcwd of a path longer than PATH_MAX: ENAMETOOLONG, whatever the
 *     buffer (fs/d_path.c prepend_path into one page).
 *   - readlink of /proc/self/fd/N for such a path: ENAMETOOLONG (d_path).
 *   - one argv string over MAX_ARG_STRLEN (32 pages): E2BIG (fs/exec.c
 *     copy_strings).
 *   - "#!" and an interpreter path that fills BINPRM_BUF_SIZE with no blank
 *     or end: ENOEXEC (fs/binfmt_script.c, since 5.0).
 *   - lseek(SEEK_END) on /proc/PID/stat: EINVAL (fs/seq_file.c seq_lseek).
 * Usage: lx_errno [e2big-child]   (the second form is its own exec target)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

static char base[64];

static int err_of(long rc)
{
	return rc < 0 ? -errno : 0;
}

/* l0 -> l1 -> ... -> l(n-1) -> target, in base. */
static void chain(const char *prefix, int n)
{
	char from[128], to[128];

	for (int i = 0; i < n; i++) {
		snprintf(from, sizeof(from), "%s/%s%d", base, prefix, i);
		if (i == n - 1)
			snprintf(to, sizeof(to), "target");
		else
			snprintf(to, sizeof(to), "%s%d", prefix, i + 1);
		if (symlink(to, from))
			perror("symlink");
	}
}

static void symlink_limit(void)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/target", base);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	chain("a", 40);
	chain("b", 41);
	snprintf(path, sizeof(path), "%s/a0", base);
	fd = open(path, O_RDONLY);
	check(fd >= 0, "a chain of 40 symlinks opens (MAXSYMLINKS)");
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/b0", base);
	check(err_of(open(path, O_RDONLY)) == -ELOOP, "a chain of 41 symlinks: ELOOP");
}

/* A cwd deeper than PATH_MAX: 24 directories of 200-character names. */
static void long_cwd(void)
{
	static char buf[16384];
	char name[201], link[64];
	int fd, e;

	memset(name, 'n', 200);
	name[200] = '\0';
	if (chdir(base))
		return;
	for (int i = 0; i < 24; i++)
		if (mkdir(name, 0755) || chdir(name))
			break;
	errno = 0;
	e = getcwd(buf, sizeof(buf)) ? 0 : -errno;
	check(e == -ENAMETOOLONG, "getcwd of a 4,800-byte cwd into 16 KiB: ENAMETOOLONG");
	fd = open("f", O_CREAT | O_WRONLY, 0644);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	e = err_of(readlink(link, buf, sizeof(buf)));
	check(e == -ENAMETOOLONG, "readlink of /proc/self/fd/N past PATH_MAX: ENAMETOOLONG");
	close(fd);
	unlink("f");
	for (int i = 0; i < 24; i++)
		if (chdir("..") || rmdir(name))
			break;
}

static void exec_limits(const char *self)
{
	char *big = malloc(200 * 1024 + 1), path[128];
	char *argv[] = {(char *)self, "e2big-child", big, 0};
	char script[300];
	int fd, status;
	pid_t pid;

	memset(big, 'x', 200 * 1024);
	big[200 * 1024] = '\0';
	pid = fork();
	if (pid == 0) {
		execv(self, argv);
		_exit(errno == E2BIG ? 0 : 1);
	}
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "execve of a 200 KiB argv string: E2BIG (MAX_ARG_STRLEN)");
	free(big);

	snprintf(path, sizeof(path), "%s/script", base);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0755);
	memset(script, 'p', sizeof(script));
	memcpy(script, "#!/", 3);
	if (write(fd, script, sizeof(script)) != (long)sizeof(script))
		perror("write");
	close(fd);
	check(err_of(execl(path, path, (char *)0)) == -ENOEXEC,
	      "#! with an interpreter path past the line buffer: ENOEXEC");
	unlink(path);
}

static void proc_seek(void)
{
	int fd = open("/proc/self/stat", O_RDONLY);

	check(err_of(lseek(fd, 0, SEEK_END)) == -EINVAL,
	      "lseek(SEEK_END) on /proc/self/stat: EINVAL");
	close(fd);
}

int main(int argc, char **argv)
{
	char path[128];

	if (argc > 1 && !strcmp(argv[1], "e2big-child"))
		return 2; /* the exec was not refused */
	snprintf(base, sizeof(base), "/tmp/lx_errno.%d", (int)getpid());
	if (mkdir(base, 0755)) {
		check(0, "mkdir of the test's directory");
		return summary("lx_errno");
	}
	symlink_limit();
	long_cwd();
	exec_limits(argv[0]);
	proc_seek();
	for (int i = 0; i < 41; i++) {
		snprintf(path, sizeof(path), "%s/a%d", base, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/b%d", base, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/target", base);
	unlink(path);
	check(rmdir(base) == 0, "the test's directory is empty at the end");
	return summary("lx_errno");
}
