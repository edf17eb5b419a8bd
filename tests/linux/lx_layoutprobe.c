/*
 * lx_layoutprobe: one line of where this exec's regions landed, for
 * tests/sh/linux-ref.sh, which execs each build 100 times under Linux 6.12
 * and under aslrbench (aslr_rules=6.x) and compares the two with
 * tests/sh/linux-ref/layout-compare.py.  Built four ways (tests/linux/linux.mk):
 * non-PIE static, static PIE, dynamic glibc PIE, and -m32 static.
 *
 * The line: "layout KIND key=0xVALUE ..." with
 *   stack      the end of the [stack] mapping (/proc/self/maps)
 *   sp         the address of a local of main
 *   random     AT_RANDOM's address, 0 when the auxiliary vector lacks it
 *   mmap       an anonymous 4 KiB mmap(NULL)
 *   brk        the [heap] mapping's start, else sbrk(0)
 *   exe        the ELF header of the program (__ehdr_start)
 *   vdso       AT_SYSINFO_EHDR, vdso_size the [vdso] mapping's size
 *   vvar       the [vvar] mapping's start and vvar_size its size (0: none)
 *   ldso       AT_BASE (0 for a static program)
 *   libc       the lowest mapping of a file named libc.so* (0: none)
 *   envc, auxc the number of environment strings and auxiliary vector
 *              entries (what lies between sp and random besides frames)
 *   auxt       the auxiliary vector's types below 64, one bit each
 * Usage: lx_layoutprobe KIND
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

extern char __ehdr_start[];
extern char **environ;

struct region {
	unsigned long long start, end;
};

/*
 * The auxiliary vector as the kernel left it: right after the NULL that ends
 * the initial environment (environ is that array until setenv moves it).
 * Its entries before AT_NULL, and which types below 64 it holds, as bits.
 */
static int auxc(unsigned long long *types)
{
	char **e = environ;
	unsigned long *a;
	int n = 0;

	while (*e)
		e++;
	for (a = (unsigned long *)(e + 1); a[0]; a += 2, n++)
		if (a[0] < 64)
			*types |= 1ULL << a[0];
	return n;
}

/* The first mapping whose name holds NAME (lowest start: maps is sorted). */
static struct region find(const char *name)
{
	char line[512];
	struct region r = {0, 0};
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		const char *path = strchr(line, '/');
		const char *br = strchr(line, '[');
		const char *n = path ? path : br;

		if (n && strstr(n, name)) {
			sscanf(line, "%llx-%llx", &r.start, &r.end);
			break;
		}
	}
	if (f)
		fclose(f);
	return r;
}

int main(int argc, char **argv)
{
	volatile int local = 0;
	void *m = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct region stack = find("[stack]"), heap = find("[heap]"), vdso = find("[vdso]");
	struct region vvar = find("[vvar]"), libc = find("/libc.so");
	int envc = 0, naux;
	unsigned long long auxt = 0;
	unsigned long long brk = heap.start ? heap.start : (unsigned long long)(uintptr_t)sbrk(0);

	while (environ[envc])
		envc++;
	naux = auxc(&auxt);
	if (argc != 2) {
		fprintf(stderr, "usage: lx_layoutprobe KIND\n");
		return 2;
	}
	printf("layout %s stack=%#llx sp=%#llx random=%#llx mmap=%#llx brk=%#llx exe=%#llx "
	       "vdso=%#llx vdso_size=%#llx vvar=%#llx vvar_size=%#llx ldso=%#llx libc=%#llx "
	       "envc=%d "
	       "auxc=%d auxt=%#llx\n",
	       argv[1], stack.end, (unsigned long long)(uintptr_t)&local,
	       (unsigned long long)getauxval(AT_RANDOM),
	       (unsigned long long)(m == MAP_FAILED ? 0 : (uintptr_t)m), brk,
	       (unsigned long long)(uintptr_t)__ehdr_start,
	       (unsigned long long)getauxval(AT_SYSINFO_EHDR), vdso.end - vdso.start, vvar.start,
	       vvar.end - vvar.start, (unsigned long long)getauxval(AT_BASE), libc.start, envc,
	       naux, auxt);
	return local;
}
