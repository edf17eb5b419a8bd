/*
 * lx_bad: bad input for the kernel from a plain Linux C program (static
 * musl), run by the kernel's badinput test in a boot of its own.  Neither
 * mode is meant for the host: one eats all memory, the other fills the
 * process table.
 *
 *   lx_bad oom       maps anonymous memory in 16 MiB chunks and touches
 *                    every page, until mmap fails (exit 2) or the kernel
 *                    kills it (the test expects SIGKILL, the OOM kill)
 *   lx_bad forkbomb  forks until fork fails; every child execve's lx_bad
 *                    again and forks on in turn, then all block reading a
 *                    pipe whose writer the top one closes once its fork
 *                    failed with EAGAIN (then the others stop forking, seen
 *                    through poll's POLLHUP): everything exits, status 0
 *                    only if the top one's fork ended in EAGAIN, no other
 *                    fork failed otherwise and every child exited 0
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK (16UL << 20)

static int count_rd = -1; /* the top one's read end of the count pipe */

static int oom(void)
{
	unsigned long total = 0;

	for (;;) {
		char *p =
			mmap(0, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			printf("lx_bad oom: mmap failed after %lu MiB: %s\n", total >> 20,
			       strerror(errno));
			return 2;
		}
		for (unsigned long off = 0; off < CHUNK; off += 4096)
			p[off] = 1;
		total += CHUNK;
		printf("lx_bad oom: %lu MiB touched\n", total >> 20);
		fflush(stdout);
	}
}

/*
 * Forks until fork fails, each child execve'ing `self bombchild RFD CFD`;
 * returns 0 when the failure was EAGAIN and, once the pipe RFD gives EOF,
 * every child exited 0.  Each process writes one byte per child into the
 * pipe CFD, which the top one counts.
 */
static int bomb(const char *self, int rfd, int cfd, int wfd)
{
	char fdarg[16], cfdarg[16], buf[256];
	int n = 0, bad = 0, err, st, stopped = 0;
	long total = 0, got;
	char c;
	pid_t pid;

	snprintf(fdarg, sizeof(fdarg), "%d", rfd);
	snprintf(cfdarg, sizeof(cfdarg), "%d", cfd);
	for (;;) {
		struct pollfd end = {rfd, POLLIN, 0};

		/*
		 * Once the top one has closed the pipe, stop: slots freed by
		 * exiting processes must not start the bomb again.
		 */
		if (wfd < 0 && poll(&end, 1, 0) == 1 && (end.revents & POLLHUP)) {
			stopped = 1;
			break;
		}
		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			char *argv[] = {(char *)self, "bombchild", fdarg, cfdarg, 0};

			execve(self, argv, 0);
			_exit(99);
		}
		n++;
	}
	err = errno;
	for (int i = 0; i < n; i++)
		if (write(cfd, "c", 1) != 1)
			bad++;
	if (wfd >= 0) {
		printf("lx_bad forkbomb: %d children, then fork: %s\n", n, strerror(err));
		fflush(stdout);
		close(wfd); /* every reader sees EOF */
	}
	if (read(rfd, &c, 1) != 0)
		bad++;
	while ((pid = wait(&st)) > 0)
		if (st != 0)
			bad++;
	if (wfd >= 0) {
		fcntl(count_rd, F_SETFL, O_NONBLOCK);
		while ((got = read(count_rd, buf, sizeof(buf))) > 0)
			total += got;
		printf("lx_bad forkbomb: all %ld forked processes exited, %d failed\n", total, bad);
	}
	return (stopped || err == EAGAIN) && !bad ? 0 : 1;
}

int main(int argc, char **argv)
{
	int fd[2], cnt[2];

	if (argc == 2 && !strcmp(argv[1], "oom"))
		return oom();
	if (argc == 4 && !strcmp(argv[1], "bombchild"))
		return bomb(argv[0], atoi(argv[2]), atoi(argv[3]), -1);
	if (argc == 2 && !strcmp(argv[1], "forkbomb")) {
		/* The write end is close-on-exec: only the top one holds it. */
		if (pipe(fd) || fcntl(fd[1], F_SETFD, FD_CLOEXEC) || pipe(cnt))
			return 3;
		count_rd = cnt[0];
		return bomb(argv[0], fd[0], cnt[1], fd[1]);
	}
	fprintf(stderr, "usage: lx_bad oom|forkbomb\n");
	return 64;
}
