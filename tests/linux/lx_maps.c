/*
 * lx_maps: a plain Linux C program (static musl) that checks that
 * /proc/PID/maps is whole however many regions there are: it splits one
 * mapping into REGIONS regions (every other page made read-only), then reads
 * its own maps in one large read, in 100-byte reads and in 7-byte reads,
 * and through busybox cat (/proc/PARENT/maps), and requires the same text
 * each time, past 4 KiB, ending in a newline, with one line per region in
 * the right place.  tests/sh/linux-abi.sh runs it on the host Linux; the
 * kernel's linux suite runs it from the initramfs.
 *
 * Usage: lx_maps [BUSYBOX] (default /bin/busybox); one "ok"/"FAIL" line per
 * check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#define PG	4096UL
#define REGIONS 150
#define MAXTEXT (256 * 1024)
#define STR(x)	#x
#define XSTR(x) STR(x)

/* Static: the program's own address space must not change between the reads. */
static char text[3][MAXTEXT], piped[MAXTEXT];

/* The whole of fd's text in reads of chunk bytes: its length, -1 on an error or overflow. */
static long read_all(int fd, char *buf, size_t chunk)
{
	size_t n = 0;

	for (;;) {
		long got;

		if (n + chunk > MAXTEXT)
			return -1;
		got = read(fd, buf + n, chunk);
		if (got < 0)
			return -1;
		if (got == 0)
			return (long)n;
		n += (size_t)got;
	}
}

static long read_maps(char *buf, size_t chunk)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = read_all(fd, buf, chunk);
	close(fd);
	return n;
}

/* busybox cat /proc/PARENT/maps into piped: its length, or -1. */
static long cat_maps(const char *busybox)
{
	char path[64];
	int p[2], st = -1;
	long n;
	pid_t pid;

	snprintf(path, sizeof(path), "/proc/%d/maps", getpid());
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl(busybox, "busybox", "cat", path, (char *)0);
		_exit(127);
	}
	close(p[1]);
	n = pid < 0 ? -1 : read_all(p[0], piped, 4096);
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return n;
}

/*
 * The regions of base's pages have their own lines, in address order (not
 * the first and last: on Linux they may merge with a neighbour).
 */
static int has_regions(const char *t, long len, unsigned long base)
{
	const char *at = t;
	char want[64];

	for (int i = 1; i < REGIONS - 1; i++) {
		unsigned long s = base + (unsigned long)i * PG;

		snprintf(want, sizeof(want), "\n%08lx-%08lx %s ", s, s + PG,
			 i % 2 ? "r--p" : "rw-p");
		at = memmem(at, (size_t)(t + len - at), want, strlen(want));
		if (!at)
			return 0;
		at++;
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *busybox = argc > 1 ? argv[1] : "/bin/busybox";
	char *base;
	long n[3], np;
	int split = 1, lines = 0;

	printf("lx_maps: %s, pid %d\n", argv[0], getpid());
	base = mmap(0, REGIONS * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		check(0, "mmap of the pages to split");
		return summary("lx_maps");
	}
	for (int i = 1; i < REGIONS; i += 2)
		split &= mprotect(base + (unsigned long)i * PG, PG, PROT_READ) == 0;
	check(split, "every other page made read-only: the mapping is " XSTR(REGIONS) " regions");
	n[0] = read_maps(text[0], sizeof(text[0]) / 2);
	n[1] = read_maps(text[1], 100);
	n[2] = read_maps(text[2], 7); /* odd-sized; each read makes the text anew */
	np = cat_maps(busybox);
	for (long i = 0; i < n[0]; i++)
		lines += text[0][i] == '\n';
	check(n[0] > 4096, "maps is longer than a page");
	check(n[0] > 0 && text[0][n[0] - 1] == '\n', "maps ends with a whole line");
	check(lines > REGIONS, "a line per region and more");
	check(has_regions(text[0], n[0], (unsigned long)base), "each region's line, in order");
	check(n[1] == n[0] && !memcmp(text[1], text[0], (size_t)n[0]),
	      "100-byte reads give the same text");
	check(n[2] == n[0] && !memcmp(text[2], text[0], (size_t)n[0]),
	      "7-byte reads give the same text");
	check(np == n[0] && !memcmp(piped, text[0], (size_t)n[0]),
	      "busybox cat /proc/PID/maps gives the same text");
	printf("lx_maps: %d lines, %ld bytes\n", lines, n[0]);
	munmap(base, REGIONS * PG);
	return summary("lx_maps");
}
