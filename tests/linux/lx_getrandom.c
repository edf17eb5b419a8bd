/*
 * lx_getrandom: getrandom(2) on every path a caller can reach, one line per
 * probe ("NAME -> RESULT"), so that the same binary's output under
 * aslrbench and under Linux 6.12 can be compared line by line.
 *
 * Why: Linux 6.12 caps one read at MAX_RW_COUNT (INT_MAX & PAGE_MASK, not
 * 5.17's 32 MiB - 1), copies up to the first byte it cannot write and
 * returns that count (-EFAULT only when nothing was copied), and checks
 * flags and the buffer before drawing.  Each probe prints only what both
 * kernels must agree on: return values, errnos, counts and whether bytes
 * were written, never the random bytes themselves.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#endif
#define GRND_INSECURE 4
#define PAGE	      4096L

static long gr(void *buf, unsigned long len, unsigned flags)
{
	return syscall(SYS_getrandom, buf, len, flags);
}

static void show(const char *name, long r)
{
	if (r < 0)
		printf("%s -> -1 %s\n", name,
		       errno == EFAULT	 ? "EFAULT"
		       : errno == EINVAL ? "EINVAL"
		       : errno == EAGAIN ? "EAGAIN"
					 : "other");
	else
		printf("%s -> %ld\n", name, r);
}

/* A buffer whose page at index hole (of n) is PROT_NONE; NULL on failure. */
static char *with_hole(long n, long hole)
{
	char *p = mmap(0, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	if (hole >= 0 && mprotect(p + hole * PAGE, PAGE, PROT_NONE))
		return 0;
	return p;
}

static void probe_partial(const char *name, long before_hole, unsigned long len)
{
	char *p = with_hole(3, 1);
	long r;

	if (!p) {
		printf("%s -> mmap failed\n", name);
		return;
	}
	r = gr(p + PAGE - before_hole, len, 0);
	show(name, r);
	munmap(p, 3 * PAGE);
}

int main(void)
{
	static char small[64], other[64];
	unsigned long big = 32UL << 20; /* 5.17's cap was this less one */
	char *p;
	int differ = 0;

	show("len 0", gr(small, 0, 0));
	show("len 0 NULL", gr(0, 0, 0));
	show("len 16", gr(small, 16, 0));
	show("len 16 NONBLOCK", gr(small, 16, GRND_NONBLOCK));
	show("len 16 RANDOM", gr(small, 16, GRND_RANDOM));
	show("len 16 INSECURE", gr(small, 16, GRND_INSECURE));
	show("len 16 RANDOM|INSECURE", gr(small, 16, GRND_RANDOM | GRND_INSECURE));
	show("len 16 flag 8", gr(small, 16, 8));
	show("len 16 flag 0x80000000", gr(small, 16, 0x80000000u));
	show("len 16 NULL", gr(0, 16, 0));
	show("len 16 kernel address", gr((void *)0xffff800000000000UL, 16, 0));
	show("len 16 non-canonical", gr((void *)0x0000800000000000UL, 16, 0));
	show("len 64 read-only text", gr((void *)main, 64, 0));
	show("len -1 NULL", gr(0, (unsigned long)-1, 0));
	probe_partial("len 16, 8 before a hole", 8, 16);
	probe_partial("len 32, 1 before a hole", 1, 32);
	probe_partial("len 33, 20 before a hole", 20, 33);
	probe_partial("len 300, 100 before a hole", 100, 300);
	probe_partial("len 5000, 4095 before a hole", 4095, 5000);
	probe_partial("len 16, at the hole", 0, 16);
	gr(small, sizeof(small), 0);
	gr(other, sizeof(other), 0);
	differ = memcmp(small, other, sizeof(small)) != 0;
	printf("two reads of 64 differ -> %d\n", differ);
	/* one page more, unmapped again, so that the read ends at a hole */
	p = mmap(0, big + 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + big + 2 * PAGE, PAGE)) {
		printf("32 MiB + 8 KiB -> mmap failed\n");
	} else {
		show("len 32 MiB + 8 KiB", gr(p, big + 2 * PAGE, 0));
		show("len 4 GiB into 32 MiB + 8 KiB", gr(p, 4UL << 30, 0));
		munmap(p, big + 2 * PAGE);
	}
	printf("lx_getrandom: done\n");
	return 0;
}
