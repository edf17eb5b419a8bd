/*
 * lx_mmap: a plain Linux C program (static musl, static glibc) that checks
 * file-backed mmap from ring 3 against Linux's behaviour: a file written to
 * /tmp mapped MAP_PRIVATE at offsets, the zero tail of the last page and
 * SIGBUS past it, MAP_FIXED over a mapping, MAP_FIXED_NOREPLACE (Linux
 * 4.17), partial munmap (the hole faults: a child dies of SIGSEGV, seen in
 * its wait status) and mprotect of part of a mapping, copy-on-write after
 * fork, private writes never reaching the file, a mapping surviving
 * close(fd), the errnos (EACCES, ENODEV, EBADF, EINVAL, ENOMEM, EEXIST) and
 * the /proc/self/maps line of a file mapping (offset, dev, inode, path),
 * mremap (in place, MREMAP_MAYMOVE, MREMAP_FIXED, of a file region).
 * tests/sh/linux-abi.sh runs the same binaries on the host Linux.
 *
 * Usage: lx_mmap; one "ok"/"FAIL" line per check, exit 0 when all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PG    4096UL
#define FSIZE (3 * PG + 100) /* three pages and a partial fourth */
#define PATH  "/tmp/lx_mmap.dat"

static unsigned char pat(uint64_t off)
{
	return (unsigned char)(off * 7 + 3);
}

/* Runs fn(arg) in a child; its wait status. */
static int in_child(void (*fn)(volatile unsigned char *), volatile unsigned char *arg)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void touch_read(volatile unsigned char *p)
{
	(void)*p;
}

static void touch_write(volatile unsigned char *p)
{
	*p = 1;
}

static int killed_by(int st, int sig)
{
	return st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

static int errno_is(void *p, int e)
{
	return p == MAP_FAILED && errno == e;
}

static int write_file(void)
{
	static unsigned char buf[FSIZE];
	int fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (uint64_t i = 0; i < FSIZE; i++)
		buf[i] = pat(i);
	if (fd < 0 || write(fd, buf, FSIZE) != (ssize_t)FSIZE) {
		perror("lx_mmap: " PATH);
		exit(2);
	}
	return fd;
}

static void check_contents(int fd)
{
	unsigned char *p = mmap(0, 4 * PG, PROT_READ, MAP_PRIVATE, fd, 0), *q;
	int same = 1, tail_zero = 1;

	check(p != MAP_FAILED, "mmap of a file, MAP_PRIVATE, offset 0");
	if (p == MAP_FAILED)
		return;
	for (uint64_t i = 0; i < FSIZE; i++)
		same &= p[i] == pat(i);
	for (uint64_t i = FSIZE; i < 4 * PG; i++)
		tail_zero &= p[i] == 0;
	check(same, "the mapping holds the file's bytes");
	check(tail_zero, "bytes past EOF in the last page are zero");
	q = mmap(0, PG, PROT_READ, MAP_PRIVATE, fd, 2 * PG);
	check(q != MAP_FAILED && q[0] == pat(2 * PG) && q[PG - 1] == pat(3 * PG - 1),
	      "offset 2 pages: the file's third page");
	check(errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, fd, 100), EINVAL),
	      "an unaligned offset: EINVAL");
	munmap(q, PG);
	munmap(p, 4 * PG);
	p = mmap(0, 6 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	check(p != MAP_FAILED && killed_by(in_child(touch_read, p + 5 * PG), SIGBUS),
	      "a page wholly past EOF: SIGBUS");
	if (p != MAP_FAILED)
		munmap(p, 6 * PG);
}

static void check_private(int fd)
{
	unsigned char *p = mmap(0, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	unsigned char b = 0;
	int st;
	pid_t pid;

	if (p == MAP_FAILED) {
		check(0, "mmap PROT_WRITE MAP_PRIVATE of an O_RDWR file");
		return;
	}
	p[5] = 0xee;
	check(pread(fd, &b, 1, 5) == 1 && b == pat(5), "a private write does not reach the file");
	p[PG + 1] = 0x11;
	pid = fork();
	if (pid == 0) {
		p[PG + 1] = 0x22;
		p[7] = 0x33;
		_exit(p[PG + 1] == 0x22 && p[5] == 0xee ? 0 : 1);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "fork: the child sees the parent's private page and writes its own copy");
	check(p[PG + 1] == 0x11 && p[7] == pat(7) && p[5] == 0xee,
	      "fork: the child's writes leave the parent's pages unchanged");
	munmap(p, 2 * PG);
}

static void check_close(void)
{
	int fd = open(PATH, O_RDONLY);
	unsigned char *p = mmap(0, 2 * PG, PROT_READ, MAP_PRIVATE, fd, PG);

	close(fd);
	check(p != MAP_FAILED && p[0] == pat(PG) && p[PG + 3] == pat(2 * PG + 3),
	      "the mapping works after close(fd), first touched after it");
	if (p != MAP_FAILED)
		munmap(p, 2 * PG);
}

static void check_fixed(int fd)
{
	unsigned char *a = mmap(0, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				0),
		      *f;

	if (a == MAP_FAILED) {
		check(0, "anonymous mmap of 3 pages");
		return;
	}
	memset(a, 0x55, 3 * PG);
	f = mmap(a + PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, PG);
	check(f == a + PG && f[0] == pat(PG) && f[9] == pat(PG + 9),
	      "MAP_FIXED of a file over the middle of a mapping");
	check(a[0] == 0x55 && a[PG - 1] == 0x55 && a[2 * PG] == 0x55 && a[3 * PG - 1] == 0x55,
	      "MAP_FIXED: the pages around it keep their bytes");
	check(killed_by(in_child(touch_write, a + PG), SIGSEGV),
	      "MAP_FIXED: the new page has the new (read-only) protection");
	check(errno_is(mmap(a + 2 * PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0),
		       EEXIST),
	      "MAP_FIXED_NOREPLACE over a mapping: EEXIST");
	check(errno_is(mmap(a + 1, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0), EINVAL),
	      "MAP_FIXED at an unaligned address: EINVAL");
	munmap(a, 3 * PG);
	f = mmap(a + PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	check(f == a + PG && f[1] == pat(1), "MAP_FIXED_NOREPLACE on a free range maps there");
	munmap(f, PG);
	f = mmap(a, PG, PROT_READ, MAP_PRIVATE, fd, 0);
	check(f == a, "a hint address that is free is taken");
	munmap(f, PG);
}

static void check_munmap_mprotect(int fd)
{
	unsigned char *p = mmap(0, 5 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

	if (p == MAP_FAILED) {
		check(0, "mmap of 5 pages of a file");
		return;
	}
	p[0] = 1;
	check(munmap(p + 2 * PG, PG) == 0, "munmap of the middle page");
	check(killed_by(in_child(touch_read, p + 2 * PG), SIGSEGV),
	      "the hole munmap left: a read is SIGSEGV");
	check(p[0] == 1 && p[PG] == pat(PG) && p[3 * PG] == pat(3 * PG),
	      "the pages on both sides of the hole stay (the tail at its file offset)");
	check(mprotect(p, 4 * PG, PROT_READ) == -1 && errno == ENOMEM,
	      "mprotect over the hole: ENOMEM");
	check(mprotect(p + 2 * PG, 2 * PG, PROT_READ) == -1 && errno == ENOMEM,
	      "mprotect starting in the hole: ENOMEM");
	check(killed_by(in_child(touch_write, p), SIGSEGV),
	      "mprotect over the hole: the pages before it changed all the same (Linux 6.6)");
	check(mprotect(p, 2 * PG, PROT_READ | PROT_WRITE) == 0, "mprotect back to read-write");
	check(mprotect(p + PG, PG, PROT_READ) == 0, "mprotect of one page of a mapping");
	check(killed_by(in_child(touch_write, p + PG), SIGSEGV),
	      "mprotect: a write to the read-only page is SIGSEGV");
	check(in_child(touch_write, p) == 0 && in_child(touch_write, p + 3 * PG) == 0,
	      "mprotect: the rest of the mapping stays writable");
	check(munmap(p + PG / 2 * 3, 4 * PG) == -1 && errno == EINVAL,
	      "munmap at an unaligned address: EINVAL");
	check(munmap(p, 5 * PG) == 0, "munmap across several regions and a hole");
	check(killed_by(in_child(touch_read, p + 3 * PG), SIGSEGV), "after it every page faults");
}

static void check_errors(void)
{
	int rd = open(PATH, O_RDONLY), wr = open(PATH, O_WRONLY), pfd[2];
	int null = open("/dev/null", O_RDONLY), maps = open("/proc/self/maps", O_RDONLY);
	int zero = open("/dev/zero", O_RDWR);
	unsigned char *z;

	check(errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, wr, 0), EACCES),
	      "a file opened O_WRONLY: EACCES");
	check(errno_is(mmap(0, PG, PROT_READ | PROT_WRITE, MAP_SHARED, rd, 0), EACCES),
	      "PROT_WRITE MAP_SHARED of an O_RDONLY file: EACCES");
	check(pipe(pfd) == 0 && errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, pfd[0], 0), ENODEV),
	      "a pipe: ENODEV");
	check(errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, maps, 0), ENODEV),
	      "/proc/self/maps: ENODEV");
	check(errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, null, 0), ENODEV), "/dev/null: ENODEV");
	check(errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, -1, 0), EBADF), "fd -1: EBADF");
	check(errno_is(mmap(0, PG, PROT_READ, MAP_PRIVATE, 999, 0), EBADF), "fd 999: EBADF");
	check(errno_is(mmap(0, 0, PROT_READ, MAP_PRIVATE, rd, 0), EINVAL), "length 0: EINVAL");
	check(errno_is(mmap(0, PG, PROT_READ, 0, rd, 0), EINVAL),
	      "neither MAP_PRIVATE nor MAP_SHARED: EINVAL");
	check(errno_is(mmap(0, 1UL << 47, PROT_READ, MAP_PRIVATE, rd, 0), ENOMEM),
	      "longer than the address space: ENOMEM");
	z = mmap(0, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE | MAP_NORESERVE, zero,
		 0);
	check(z != MAP_FAILED && z[100] == 0 && (z[100] = 9) == 9,
	      "/dev/zero MAP_PRIVATE (with MAP_POPULATE|MAP_NORESERVE): zero, writable");
	if (z != MAP_FAILED)
		munmap(z, PG);
	close(rd), close(wr), close(pfd[0]), close(pfd[1]), close(null), close(maps), close(zero);
}

/* mremap: shrink and grow in place, a move (MREMAP_MAYMOVE, MREMAP_FIXED), a file region. */
static void check_mremap(int fd)
{
	unsigned char *a = mmap(0, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				0),
		      *n, *t, *f;

	if (a == MAP_FAILED) {
		check(0, "mremap: set up");
		return;
	}
	memset(a, 0x5a, 2 * PG);
	/* Whatever is (or now gets mapped) right after a keeps it from growing in place. */
	mmap(a + 2 * PG, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	check(mremap(a, 2 * PG, 8 * PG, 0) == MAP_FAILED && errno == ENOMEM,
	      "mremap: no room to grow in place, no MREMAP_MAYMOVE: ENOMEM");
	n = mremap(a, 2 * PG, 8 * PG, MREMAP_MAYMOVE);
	check(n != MAP_FAILED && n != a && n[0] == 0x5a && n[2 * PG - 1] == 0x5a && n[5 * PG] == 0,
	      "mremap MREMAP_MAYMOVE: moved, the bytes kept, the new pages zero");
	if (n == MAP_FAILED)
		return;
	check(killed_by(in_child(touch_read, a), SIGSEGV),
	      "mremap: the old address faults after a move");
	check(mremap(a, PG, 2 * PG, MREMAP_MAYMOVE) == MAP_FAILED && errno == EFAULT,
	      "mremap of an unmapped address: EFAULT");
	check(mremap(n + 1, PG, 2 * PG, MREMAP_MAYMOVE) == MAP_FAILED && errno == EINVAL,
	      "mremap at an unaligned address: EINVAL");
	check(mremap(n, PG, 2 * PG, MREMAP_FIXED, n + 16 * PG) == MAP_FAILED && errno == EINVAL,
	      "MREMAP_FIXED without MREMAP_MAYMOVE: EINVAL");
	check(mremap(n, 8 * PG, PG, 0) == n && killed_by(in_child(touch_read, n + PG), SIGSEGV),
	      "mremap shrinks in place, the tail unmapped");
	check(mremap(n, PG, 3 * PG, 0) == n && n[0] == 0x5a && n[2 * PG] == 0,
	      "mremap grows in place into free pages");
	t = mmap(0, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t != MAP_FAILED)
		memset(t, 0x77, 3 * PG);
	check(t != MAP_FAILED && mremap(n, 3 * PG, 3 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, t) == t &&
		      t[0] == 0x5a && t[2 * PG] == 0,
	      "MREMAP_FIXED: moved over another mapping, replacing it");
	if (t != MAP_FAILED)
		munmap(t, 3 * PG);
	f = mmap(0, PG, PROT_READ, MAP_PRIVATE, fd, PG);
	n = f == MAP_FAILED ? f : mremap(f, PG, 3 * PG, MREMAP_MAYMOVE);
	check(n != MAP_FAILED && n[0] == pat(PG) && n[PG + 5] == pat(2 * PG + 5),
	      "mremap of a file mapping: the new pages come from the file at their offsets");
	if (n != MAP_FAILED)
		munmap(n, 3 * PG);
	munmap(a + 2 * PG, PG);
}

/* The maps line of p: "start-end r--p 00001000 MA:MI INO ... /tmp/lx_mmap.dat". */
static void check_maps(int fd)
{
	unsigned char *p = mmap(0, 2 * PG, PROT_READ, MAP_PRIVATE, fd, PG);
	static char buf[65536];
	char want[160];
	struct stat st;
	int mfd = open("/proc/self/maps", O_RDONLY);
	ssize_t n = 0, r;

	if (p == MAP_FAILED || mfd < 0 || fstat(fd, &st)) {
		check(0, "/proc/self/maps: set up");
		return;
	}
	while ((r = read(mfd, buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	buf[n] = '\0';
	close(mfd);
	snprintf(want, sizeof(want), "%08lx-%08lx r--p %08lx %02x:%02x %lu ", (unsigned long)p,
		 (unsigned long)p + 2 * PG, PG, major(st.st_dev), minor(st.st_dev),
		 (unsigned long)st.st_ino);
	char *line = strstr(buf, want), *eol = line ? strchr(line, '\n') : 0;

	check(line != 0, "/proc/self/maps: the file mapping's range, offset, dev and inode");
	if (!line)
		printf("# want \"%s\" in:\n%s", want, buf);
	check(line && eol && eol - line > 16 && !strncmp(eol - 16, PATH, 16),
	      "/proc/self/maps: the file's path ends the line");
	munmap(p, 2 * PG);
}

int main(void)
{
	int fd = write_file();

	check_contents(fd);
	check_private(fd);
	check_close();
	check_fixed(fd);
	check_munmap_mprotect(fd);
	check_errors();
	check_mremap(fd);
	check_maps(fd);
	close(fd);
	unlink(PATH);
	return summary("lx_mmap");
}
