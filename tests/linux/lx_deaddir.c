/*
 * lx_deaddir: a removed directory is dead, as Linux's IS_DEADDIR.
 *
 * Why: a process may rmdir its own working directory and keep using it.
 * Linux then refuses every create, link and listing there with ENOENT
 * (may_create, lookup_one_qstr_excl and iterate_dir check S_DEAD, Linux 6.6
 * fs/namei.c and fs/readdir.c); a kernel that let them succeed would hang
 * the new names on an inode nobody can reach, and never free them.  The
 * loop repeats the removal more often than the kernel has inodes, so a leak
 * per round would exhaust the pool before the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lx_check.h"

#define ROUNDS 1500

/* -errno of a call that returned rc (0 when it succeeded). */
static int err_of(long rc)
{
	return rc < 0 ? -errno : 0;
}

/* One round: returns 0 when every call in the dead directory failed with ENOENT. */
static int round_in_dead(const char *base, int round, int report)
{
	char dir[96], buf[512];
	int bad = 0, fd, e;

	snprintf(dir, sizeof(dir), "%s/d%d", base, round);
	if (mkdir(dir, 0755) || chdir(dir))
		return -1;
	fd = open(".", O_RDONLY | O_DIRECTORY);
	if (fd < 0 || rmdir(dir))
		return -1;
	e = err_of(open("f", O_CREAT | O_WRONLY, 0644));
	if (report)
		check(e == -ENOENT, "open(O_CREAT) in a removed cwd: ENOENT");
	bad += e != -ENOENT;
	e = err_of(mkdir("sub", 0755));
	if (report)
		check(e == -ENOENT, "mkdir in a removed cwd: ENOENT");
	bad += e != -ENOENT;
	e = err_of(symlink("target", "link"));
	if (report)
		check(e == -ENOENT, "symlink in a removed cwd: ENOENT");
	bad += e != -ENOENT;
	e = err_of(syscall(SYS_getdents64, fd, buf, sizeof(buf)));
	if (report)
		check(e == -ENOENT, "getdents64 of a removed directory: ENOENT");
	bad += e != -ENOENT;
	e = err_of(access("f", F_OK));
	if (report)
		check(e == -ENOENT, "nothing was created there");
	bad += e != -ENOENT;
	close(fd);
	if (chdir(base))
		return -1;
	return bad;
}

int main(void)
{
	char base[64];
	int bad = 0, fd;

	snprintf(base, sizeof(base), "/tmp/lx_deaddir.%d", (int)getpid());
	if (mkdir(base, 0755)) {
		check(0, "mkdir of the test's directory");
		return summary("lx_deaddir");
	}
	check(round_in_dead(base, 0, 1) == 0, "every call in the first removed directory failed");
	for (int i = 1; i < ROUNDS && !bad; i++)
		bad = round_in_dead(base, i, 0);
	check(bad == 0, "1500 removed working directories, each refusing creates");
	fd = open("after", O_CREAT | O_WRONLY, 0644);
	check(fd >= 0, "a file can still be created afterwards (no pool exhausted)");
	if (fd >= 0)
		close(fd);
	unlink("after");
	check(rmdir(base) == 0, "the test's directory is empty at the end");
	return summary("lx_deaddir");
}
