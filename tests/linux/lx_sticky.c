/*
 * lx_sticky: a rename the sticky bit refuses leaves no trace.
 *
 * Why: uid 1000 may not rename root's file out of a sticky directory
 * (EPERM, Linux's may_delete and check_sticky).  The kernel once dropped
 * its reference on the file when refusing and then again on the way out,
 * one reference too many per refusal: the file, once root removed it, was
 * never freed, and 1,100 rounds exhausted the 1,024 inodes for everyone.
 * Run as root; the refusals happen in a uid 1000 child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#define ROUNDS 1100

int main(void)
{
	char dir[64], file[96], to[96];
	int refused = 0, fd;

	snprintf(dir, sizeof(dir), "/tmp/lx_sticky.%d", (int)getpid());
	if (mkdir(dir, 0777) || chmod(dir, 01777)) {
		check(0, "a sticky directory in /tmp");
		return summary("lx_sticky");
	}
	snprintf(file, sizeof(file), "%s/roots", dir);
	snprintf(to, sizeof(to), "%s/mine", dir);
	for (int i = 0; i < ROUNDS; i++) {
		int status;
		pid_t pid;

		fd = open(file, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			break;
		close(fd);
		pid = fork();
		if (pid == 0) {
			if (setresuid(1000, 1000, 1000))
				_exit(2);
			_exit(rename(file, to) == -1 && errno == EPERM ? 0 : 1);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			break;
		refused++;
		if (unlink(file))
			break;
	}
	check(refused == ROUNDS, "uid 1000's rename of root's file in a sticky dir: EPERM, 1100 times");
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	check(fd >= 0, "root still creates a file afterwards (no inode leaked per refusal)");
	if (fd >= 0)
		close(fd);
	unlink(file);
	check(rmdir(dir) == 0, "the directory is empty at the end");
	return summary("lx_sticky");
}
