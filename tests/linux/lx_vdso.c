/*
 * lx_vdso: a plain Linux C program, built unchanged as static musl and
 * static glibc, that checks the vDSO from ring 3: AT_SYSINFO_EHDR points to
 * an ELF shared object whose dynamic symbols (looked up here through both
 * DT_HASH and DT_GNU_HASH, with their version from DT_VERSYM/DT_VERDEF)
 * include __vdso_clock_gettime, __vdso_gettimeofday, __vdso_time and
 * __vdso_getcpu and their plain-named aliases at version LINUX_2.6; calling
 * them agrees with the system calls (a vDSO time read between two system
 * calls lies between them, time() within a second, getcpu equal);
 * /proc/self/maps names the mapping [vdso] (and a read-only [vvar] that
 * mprotect cannot make writable); a child after fork finds it at the same
 * address and can call it.  tests/sh/linux-abi.sh runs it on the
 * host Linux, which proves every expectation; the kernel's linux suite runs
 * it too.
 *
 * Usage: lx_vdso; prints one "ok"/"FAIL" line per check and exits 0 when
 * every check passed.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

/* What the vDSO's dynamic section gives. */
struct vdso_info {
	uintptr_t base; /* load bias: the address of vaddr 0 */
	const Elf64_Sym *symtab;
	const char *strtab;
	const Elf64_Word *hash;	    /* DT_HASH */
	const uint32_t *gnu_hash;   /* DT_GNU_HASH */
	const Elf64_Versym *versym; /* DT_VERSYM */
	const Elf64_Verdef *verdef; /* DT_VERDEF */
};

static int parse_vdso(uintptr_t ehdr_addr, struct vdso_info *vi)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)ehdr_addr;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = 0;
	int loads = 0;

	memset(vi, 0, sizeof(*vi));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_type != ET_DYN || eh->e_machine != EM_X86_64 ||
	    eh->e_phentsize != sizeof(Elf64_Phdr))
		return -1;
	ph = (const Elf64_Phdr *)(ehdr_addr + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !loads++)
			vi->base = ehdr_addr + ph[i].p_offset - ph[i].p_vaddr;
		else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const Elf64_Dyn *)(ehdr_addr + ph[i].p_offset);
	}
	if (!loads || !dyn)
		return -2;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t p = vi->base + dyn->d_un.d_ptr;

		switch (dyn->d_tag) {
		case DT_SYMTAB:
			vi->symtab = (const Elf64_Sym *)p;
			break;
		case DT_STRTAB:
			vi->strtab = (const char *)p;
			break;
		case DT_HASH:
			vi->hash = (const Elf64_Word *)p;
			break;
		case DT_GNU_HASH:
			vi->gnu_hash = (const uint32_t *)p;
			break;
		case DT_VERSYM:
			vi->versym = (const Elf64_Versym *)p;
			break;
		case DT_VERDEF:
			vi->verdef = (const Elf64_Verdef *)p;
			break;
		}
	}
	return vi->symtab && vi->strtab && (vi->hash || vi->gnu_hash) ? 0 : -3;
}

static unsigned long elf_hash(const char *name)
{
	unsigned long h = 0, g;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		h = (h << 4) + *s;
		g = h & 0xf0000000;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

static uint32_t gnu_hash(const char *name)
{
	uint32_t h = 5381;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = h * 33 + *s;
	return h;
}

/* The version name symbol i is defined at (DT_VERSYM index into DT_VERDEF). */
static const char *sym_version(const struct vdso_info *vi, uint32_t i)
{
	const Elf64_Verdef *d = vi->verdef;
	unsigned ndx;

	if (!vi->versym || !d)
		return 0;
	ndx = vi->versym[i] & 0x7fff;
	for (;;) {
		if (!(d->vd_flags & VER_FLG_BASE) && (d->vd_ndx & 0x7fff) == ndx) {
			const Elf64_Verdaux *a =
				(const Elf64_Verdaux *)((const char *)d + d->vd_aux);

			return vi->strtab + a->vda_name;
		}
		if (!d->vd_next)
			return 0;
		d = (const Elf64_Verdef *)((const char *)d + d->vd_next);
	}
}

static int sym_matches(const struct vdso_info *vi, uint32_t i, const char *name, const char *ver)
{
	const Elf64_Sym *s = &vi->symtab[i];
	const char *v;

	if (strcmp(vi->strtab + s->st_name, name) || s->st_shndx == SHN_UNDEF ||
	    ELF64_ST_TYPE(s->st_info) != STT_FUNC ||
	    (ELF64_ST_BIND(s->st_info) != STB_GLOBAL && ELF64_ST_BIND(s->st_info) != STB_WEAK))
		return 0;
	v = sym_version(vi, i);
	return v && !strcmp(v, ver);
}

/* SysV hash: nbucket, nchain, buckets, chains. */
static void *lookup_hash(const struct vdso_info *vi, const char *name, const char *ver)
{
	const Elf64_Word *h = vi->hash;
	uint32_t nbucket = h[0], i;

	if (!nbucket)
		return 0;
	for (i = h[2 + elf_hash(name) % nbucket]; i; i = h[2 + nbucket + i])
		if (sym_matches(vi, i, name, ver))
			return (void *)(vi->base + vi->symtab[i].st_value);
	return 0;
}

/* GNU hash: nbuckets, symoffset, bloom_size, bloom_shift, bloom[], buckets[], chain[]. */
static void *lookup_gnu_hash(const struct vdso_info *vi, const char *name, const char *ver)
{
	const uint32_t *g = vi->gnu_hash;
	uint32_t nbuckets = g[0], symoffset = g[1], bloom_size = g[2], h = gnu_hash(name), i;
	const uint32_t *buckets = g + 4 + bloom_size * 2; /* 64-bit bloom words */
	const uint32_t *chain = buckets + nbuckets;

	if (!nbuckets)
		return 0;
	i = buckets[h % nbuckets];
	if (i < symoffset)
		return 0;
	for (;; i++) {
		uint32_t ch = chain[i - symoffset];

		if ((ch | 1) == (h | 1) && sym_matches(vi, i, name, ver))
			return (void *)(vi->base + vi->symtab[i].st_value);
		if (ch & 1)
			return 0;
	}
}

/* What a libc does: DT_HASH when there is one, else DT_GNU_HASH. */
static void *lookup(const struct vdso_info *vi, const char *name, const char *ver)
{
	return vi->hash ? lookup_hash(vi, name, ver) : lookup_gnu_hash(vi, name, ver);
}

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

static int ts_le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

static int tv_le(const struct timeval *a, const struct timeval *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_usec <= b->tv_usec);
}

/* syscall <= vDSO <= syscall, many times over. */
static int clock_ordered(clock_gettime_fn fn, clockid_t clk)
{
	for (int i = 0; i < 2000; i++) {
		struct timespec a, v, b;

		if (syscall(SYS_clock_gettime, clk, &a) || fn(clk, &v) ||
		    syscall(SYS_clock_gettime, clk, &b))
			return 0;
		if (!ts_le(&a, &v) || !ts_le(&v, &b) || v.tv_nsec < 0 || v.tv_nsec >= 1000000000)
			return 0;
	}
	return 1;
}

static int gettimeofday_ordered(gettimeofday_fn fn)
{
	for (int i = 0; i < 2000; i++) {
		struct timeval a, v, b;

		if (syscall(SYS_gettimeofday, &a, 0) || fn(&v, 0) ||
		    syscall(SYS_gettimeofday, &b, 0))
			return 0;
		if (!tv_le(&a, &v) || !tv_le(&v, &b) || v.tv_usec < 0 || v.tv_usec >= 1000000)
			return 0;
	}
	return 1;
}

/* The line of /proc/self/maps named `name` ("[vdso]"): its start, or 0. */
static unsigned long maps_find(const char *name, char *perms, size_t plen)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long start = 0, lo, hi;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		char p[8];
		size_t k = strlen(name);

		while (n && line[n - 1] == '\n')
			line[--n] = 0;

		if (n < k + 1 || line[n - k - 1] != ' ' || strcmp(line + n - k, name))
			continue;
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, p) == 3) {
			start = lo;
			snprintf(perms, plen, "%s", p);
		}
	}
	fclose(f);
	return start;
}

static const char *const names[] = {"__vdso_clock_gettime", "clock_gettime", "__vdso_gettimeofday",
				    "gettimeofday",	    "__vdso_time",   "time",
				    "__vdso_getcpu",	    "getcpu"};

int main(void)
{
	uintptr_t eh = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	struct vdso_info vi;
	clock_gettime_fn cg;
	gettimeofday_fn gtod;
	time_fn tm;
	getcpu_fn gc;
	char perms[8] = "", what[96];
	int st = -1;
	pid_t pid;

	check(eh != 0 && (eh & 4095) == 0, "AT_SYSINFO_EHDR: a page-aligned address");
	if (!eh)
		goto out;
	check(parse_vdso(eh, &vi) == 0, "the vDSO is an ELF64 x86_64 ET_DYN with PT_DYNAMIC");
	if (parse_vdso(eh, &vi))
		goto out;
	check(vi.hash != 0 || vi.gnu_hash != 0, "DT_HASH or DT_GNU_HASH");
	check(vi.versym && vi.verdef, "DT_VERSYM and DT_VERDEF");
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *h = vi.hash ? lookup_hash(&vi, names[i], "LINUX_2.6") : 0;
		void *g = vi.gnu_hash ? lookup_gnu_hash(&vi, names[i], "LINUX_2.6") : 0;

		snprintf(what, sizeof(what), "%s@LINUX_2.6 found (DT_HASH, DT_GNU_HASH agree)",
			 names[i]);
		check((h || g) && (!vi.hash || h) && (!vi.gnu_hash || g) && (!h || !g || h == g),
		      what);
	}
	check(!lookup(&vi, "__vdso_clock_gettime", "LINUX_9.9") &&
		      !lookup(&vi, "vdso_nope", "LINUX_2.6"),
	      "a wrong version or name does not match");
	cg = (clock_gettime_fn)lookup(&vi, "__vdso_clock_gettime", "LINUX_2.6");
	gtod = (gettimeofday_fn)lookup(&vi, "__vdso_gettimeofday", "LINUX_2.6");
	tm = (time_fn)lookup(&vi, "__vdso_time", "LINUX_2.6");
	gc = (getcpu_fn)lookup(&vi, "__vdso_getcpu", "LINUX_2.6");
	if (!cg || !gtod || !tm || !gc)
		goto out;
	check(clock_ordered(cg, CLOCK_MONOTONIC),
	      "clock_gettime(MONOTONIC): syscall <= vDSO <= syscall, 2000 times");
	check(clock_ordered(cg, CLOCK_REALTIME),
	      "clock_gettime(REALTIME): syscall <= vDSO <= syscall, 2000 times");
	{
		struct timespec a, b;

		check(cg(CLOCK_PROCESS_CPUTIME_ID, &a) ==
			      (syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &b) ? -22 : 0),
		      "clock_gettime(other clock): the system call's answer (-errno)");
	}
	check(gettimeofday_ordered(gtod), "gettimeofday: syscall <= vDSO <= syscall, 2000 times");
	{
		time_t a = syscall(SYS_time, 0), t2 = 0, v = tm(&t2), b = syscall(SYS_time, 0);

		check(a <= v && v <= b && b - a <= 1 && t2 == v,
		      "time: between two time syscalls, stored too");
	}
	{
		unsigned c1 = 99, n1 = 99, c2 = 98, n2 = 98, c0 = 97;
		cpu_set_t all, one;

		/*
		 * Pinned to its highest CPU, so that no move falls between the
		 * two and, with several CPUs, the answer is not CPU 0's.
		 */
		CPU_ZERO(&one);
		if (sched_getaffinity(0, sizeof(all), &all) == 0) {
			for (unsigned c = 0; c < CPU_SETSIZE; c++)
				if (CPU_ISSET(c, &all))
					c0 = c;
			if (c0 < CPU_SETSIZE) {
				CPU_SET(c0, &one);
				sched_setaffinity(0, sizeof(one), &one);
			}
		}
		check(gc(&c1, &n1, 0) == 0 && syscall(SYS_getcpu, &c2, &n2, 0) == 0 && c1 == c2 &&
			      n1 == n2 && (c0 >= CPU_SETSIZE || c1 == c0),
		      "getcpu: the system call's cpu and node, on the CPU it is pinned to");
		sched_setaffinity(0, sizeof(all), &all);
	}
	check(maps_find("[vdso]", perms, sizeof(perms)) == eh && !strcmp(perms, "r-xp"),
	      "/proc/self/maps: r-xp [vdso] at AT_SYSINFO_EHDR");
	{
		unsigned long vvar = maps_find("[vvar]", perms, sizeof(perms));

		check(vvar && !strcmp(perms, "r--p") &&
			      mprotect((void *)vvar, 4096, PROT_READ | PROT_WRITE) == -1 &&
			      errno == EACCES,
		      "[vvar]: r--p, mprotect(PROT_WRITE) gives EACCES");
	}
	pid = fork();
	if (pid == 0) {
		struct timespec t;
		char p[8];

		_exit(maps_find("[vdso]", p, sizeof(p)) == eh && cg(CLOCK_MONOTONIC, &t) == 0 ? 0
											      : 1);
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && st == 0,
	      "fork: the child has [vdso] at the same address and calls it");
out:
	return summary("lx_vdso");
}
