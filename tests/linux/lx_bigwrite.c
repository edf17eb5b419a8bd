/*
 * lx_bigwrite: files grow by 64 KiB writes until the file system is full,
 * each write in bounded time, and every byte reads back.
 *
 * Why: the kernel once kept each file contiguous and, when it could no
 * longer double a file's block, copied the whole file for every page of
 * growth inside one write(): with 192 MiB of files in a 512 MiB machine a
 * 64 KiB write by any user took seconds, during which no other task ran.
 * Now a file grows a page at a time with nothing copied (Linux's page cache
 * does the same).  The bound below is a regression tripwire three orders of
 * magnitude above a normal write, not a benchmark.  Kernel only: on the
 * host /tmp is whatever the machine has, and 256 MiB of it is not ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#define CHUNK	   (64 * 1024)
#define FILE_LIMIT (64L << 20)
#define NFILES	   5

static char chunk[CHUNK], back[CHUNK];

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fill(unsigned file, long off)
{
	for (int i = 0; i < CHUNK; i++)
		chunk[i] = (char)(file * 31 + (unsigned)(off / CHUNK) * 7 + (unsigned)i);
}

int main(void)
{
	double worst = 0;
	long total = 0, sizes[NFILES] = {0};
	int last_errno = 0, bad = 0;
	char path[64];

	for (unsigned f = 0; f < NFILES && !last_errno; f++) {
		int fd;

		snprintf(path, sizeof(path), "/tmp/lx_bigwrite.%u", f);
		fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
		if (fd < 0) {
			last_errno = errno;
			break;
		}
		for (long off = 0; off < FILE_LIMIT; off += CHUNK) {
			double t0 = now(), dt;
			long n;

			fill(f, off);
			n = write(fd, chunk, CHUNK);
			dt = now() - t0;
			if (dt > worst)
				worst = dt;
			if (n != CHUNK) {
				last_errno = n < 0 ? errno : 0;
				if (n > 0)
					sizes[f] += n;
				break;
			}
			sizes[f] += n;
		}
		total += sizes[f];
		close(fd);
	}
	printf("lx_bigwrite: %ld MiB written, longest 64 KiB write %.3f s, stopped by %s\n",
	       total >> 20, worst, last_errno ? strerror(last_errno) : "the file limit");
	check(last_errno == ENOSPC, "the writes end with ENOSPC (half of memory, as tmpfs)");
	check(total >= (128L << 20), "at least 128 MiB were written first");
	check(worst < 1.0, "no 64 KiB write took a second or more");
	for (unsigned f = 0; f < NFILES; f++) {
		int fd;

		snprintf(path, sizeof(path), "/tmp/lx_bigwrite.%u", f);
		fd = open(path, O_RDONLY);
		for (long off = 0; fd >= 0 && off + CHUNK <= sizes[f]; off += CHUNK) {
			fill(f, off);
			if (read(fd, back, CHUNK) != CHUNK || memcmp(back, chunk, CHUNK))
				bad++;
		}
		if (fd >= 0)
			close(fd);
		unlink(path);
	}
	check(bad == 0, "every chunk reads back as written");
	return summary("lx_bigwrite");
}
