/*
 * lx_pidreuse: what a pid number may and may not come back as, once pids
 * wrap.  Run as root (it lowers /proc/sys/kernel/pid_max to 400 so that
 * pids wrap in a few hundred forks, and puts the old value back).
 *
 * Why: Linux hands a number out again only when nothing holds its struct
 * pid.  A process group or a session whose leader is gone still holds it,
 * so no new process may get that number (it would join a group it never
 * asked for).  And a /proc file or directory opened for a task holds that
 * task's struct pid: once the task is gone the file answers ESRCH (and a
 * name looked up in the directory too), even when another task has the
 * number by then;
 * writing a kept /proc/PID/fail-nth must not arm the new owner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#define PID_MAX_PATH "/proc/sys/kernel/pid_max"
#define LOW_PID_MAX  400
#define FORKS	     (3 * LOW_PID_MAX) /* enough to wrap a range of 100 twice */

static int write_pid_max(const char *v)
{
	int fd = open(PID_MAX_PATH, O_WRONLY);
	int ok = fd >= 0 && write(fd, v, strlen(v)) == (ssize_t)strlen(v);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Forks a child that exits at once and reaps it: its pid. */
static pid_t fork_reap(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, 0, 0);
	return pid;
}

/* A session whose leader is gone: its id is not handed out again. */
static void check_session_id(void)
{
	int pfd[2], hits = 0;
	pid_t leader, member = 0;

	if (pipe(pfd))
		return;
	/* into the range pids wrap within (RESERVED_PIDS up), so the leader's can come back */
	for (int i = 0; i < LOW_PID_MAX && fork_reap() < 300; i++)
		;
	leader = fork();
	if (leader == 0) {
		pid_t m;

		setsid();
		m = fork();
		if (m == 0) {
			pause();
			_exit(0);
		}
		if (write(pfd[1], &m, sizeof(m)) != sizeof(m))
			_exit(1);
		_exit(0); /* the member stays in the session this pid names */
	}
	close(pfd[1]);
	if (read(pfd[0], &member, sizeof(member)) != sizeof(member))
		member = 0;
	close(pfd[0]);
	waitpid(leader, 0, 0);
	check(leader > 0 && member > 0 && getsid(member) == leader,
	      "a session outlives its leader: its member's sid is the leader's pid");
	for (int i = 0; i < FORKS; i++)
		hits += fork_reap() == leader;
	check(hits == 0, "no process gets a pid still in use as a session's and group's id");
	if (member > 0)
		kill(member, SIGKILL);
}

/* A /proc file and directory kept across their task's end and its pid's reuse. */
static void check_kept_proc(void)
{
	char path[64], buf[512];
	pid_t old = fork(), again = -1;
	int st, dir, fd;

	if (old == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", old);
	st = open(path, O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%d", old);
	dir = open(path, O_RDONLY | O_DIRECTORY);
	kill(old, SIGKILL);
	waitpid(old, 0, 0);
	for (int i = 0; i < FORKS && again != old; i++) {
		again = fork();
		if (again == 0) {
			pause();
			_exit(0);
		}
		if (again != old && again > 0) {
			kill(again, SIGKILL);
			waitpid(again, 0, 0);
		}
	}
	check(again == old, "the pid comes back to a new process");
	errno = 0;
	check(st >= 0 && read(st, buf, sizeof(buf)) < 0 && errno == ESRCH,
	      "a kept /proc/PID/stat of the old process: ESRCH, not the new one's");
	errno = 0;
	fd = dir >= 0 ? openat(dir, "stat", O_RDONLY) : -2;
	printf("lx_pidreuse: openat(kept dir, \"stat\") -> %d, %s\n", fd, strerror(errno));
	check(dir >= 0 && fd < 0 && errno == ESRCH,
	      "a kept /proc/PID directory of the old process: ESRCH for its files");
	if (fd >= 0)
		close(fd);
	if (again == old) {
		kill(again, SIGKILL);
		waitpid(again, 0, 0);
	}
	if (st >= 0)
		close(st);
	if (dir >= 0)
		close(dir);
}

int main(void)
{
	char old[32] = "", now[32] = "";
	int fd = open(PID_MAX_PATH, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, old, sizeof(old) - 1) : -1;

	if (fd >= 0)
		close(fd);
	old[n > 0 ? n : 0] = '\0';
	if (getuid() != 0 || n <= 0) {
		printf("lx_pidreuse: needs root and %s\n", PID_MAX_PATH);
		return 2;
	}
	check(write_pid_max("400\n"), "root lowers pid_max to 400");
	fd = open(PID_MAX_PATH, O_RDONLY);
	n = fd >= 0 ? read(fd, now, sizeof(now) - 1) : -1;
	if (fd >= 0)
		close(fd);
	now[n > 0 ? n : 0] = '\0';
	check(!strcmp(now, "400\n"), "pid_max reads back 400");
	check(!write_pid_max("300\n"), "pid_max 300 (not above RESERVED_PIDS) is refused");
	check_session_id();
	check_kept_proc();
	check(write_pid_max(old), "pid_max put back");
	return summary("lx_pidreuse");
}
