/*
 * lx_vgetrandom: Linux 6.12's __vdso_getrandom from ring 3 (static musl),
 * the same checks under aslrbench aslr_rules=6.x and under Linux 6.12
 * (scripts/linux-ref.sh).  It finds the function through AT_SYSINFO_EHDR
 * (version LINUX_2.6), makes the params call, maps states with the prot
 * and flags it returns (MAP_DROPPABLE), and checks the outputs (lengths,
 * distinct values, flags and their errors, the fallbacks), that fork hands
 * the child a zeroed state, that MAP_DROPPABLE refuses what 6.12 refuses,
 * and that a crng reseed advances the state's generation (early after boot
 * both kernels reseed every few seconds; the getrandom system call in the
 * loop runs aslrbench's reseed when it is due).
 *
 * "lx_vgetrandom bench" instead prints the cost in rdtsc ticks (guest
 * instructions under --deterministic) of one 4-byte call served from the
 * batch, of 24 such calls starting with a refill (per call), and of a
 * 4-byte getrandom(2), each the minimum over rounds, the empty probe's
 * ticks taken off.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lx_check.h"

#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
#define GRND_NONBLOCK 0x1
#define GRND_RANDOM   0x2
#define GRND_INSECURE 0x4

struct vgetrandom_opaque_params {
	uint32_t size_of_opaque_state, mmap_prot, mmap_flags, reserved[13];
};

/* 6.12's state layout, read here only to see the generation, position and in_use */
#define ST_GENERATION 128
#define ST_POS	      136
#define ST_IN_USE     137

typedef long (*vgetrandom_fn)(void *, size_t, unsigned, void *, size_t);

static vgetrandom_fn vgr;
static size_t state_size;

static const char *verdef_name(const Elf64_Verdef *vd, const char *strtab, unsigned ndx)
{
	for (;;) {
		if (vd->vd_ndx == ndx && !(vd->vd_flags & VER_FLG_BASE)) {
			const Elf64_Verdaux *a = (const void *)((const char *)vd + vd->vd_aux);

			return strtab + a->vda_name;
		}
		if (!vd->vd_next)
			return "";
		vd = (const void *)((const char *)vd + vd->vd_next);
	}
}

/* name@ver in the vDSO at ehdr, through DT_HASH's chain count; NULL if absent */
static void *vdso_sym(uintptr_t ehdr, const char *name, const char *ver)
{
	const Elf64_Ehdr *eh = (const void *)ehdr;
	const Elf64_Phdr *ph = (const void *)(ehdr + eh->e_phoff);
	const Elf64_Dyn *dyn = 0;
	const Elf64_Sym *sym = 0;
	const Elf64_Word *hash = 0;
	const Elf64_Versym *versym = 0;
	const Elf64_Verdef *verdef = 0;
	const char *str = 0;
	uintptr_t base = 0;
	int loads = 0;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !loads++)
			base = ehdr + ph[i].p_offset - ph[i].p_vaddr;
		else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)(ehdr + ph[i].p_offset);
	}
	if (!loads || !dyn)
		return 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t p = base + dyn->d_un.d_ptr;

		if (dyn->d_tag == DT_SYMTAB)
			sym = (const void *)p;
		else if (dyn->d_tag == DT_STRTAB)
			str = (const void *)p;
		else if (dyn->d_tag == DT_HASH)
			hash = (const void *)p;
		else if (dyn->d_tag == DT_VERSYM)
			versym = (const void *)p;
		else if (dyn->d_tag == DT_VERDEF)
			verdef = (const void *)p;
	}
	if (!sym || !str || !hash || !versym || !verdef)
		return 0;
	for (Elf64_Word i = 1; i < hash[1]; i++)
		if (sym[i].st_shndx != SHN_UNDEF && ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC &&
		    !strcmp(str + sym[i].st_name, name) &&
		    !strcmp(verdef_name(verdef, str, versym[i] & 0x7fff), ver))
			return (void *)(base + sym[i].st_value);
	return 0;
}

static uint64_t st_generation(const uint8_t *st)
{
	uint64_t g;

	memcpy(&g, st + ST_GENERATION, sizeof(g));
	return g;
}

static void *map_state(const struct vgetrandom_opaque_params *p)
{
	void *m = mmap(0, 4096, p->mmap_prot, p->mmap_flags, -1, 0);

	return m == MAP_FAILED ? 0 : m;
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static long sys_getrandom(void *b, size_t n, unsigned f)
{
	long r = syscall(SYS_getrandom, b, n, f);

	return r < 0 ? -errno : r;
}

static void check_lengths(uint8_t *st)
{
	static uint8_t buf[6000];
	static const size_t lens[] = {1, 3, 4, 7, 8, 63, 64, 65, 95, 96, 97, 128, 200, 1000, 5000};
	int ok = 1;
	char what[80];

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t n = lens[i];

		memset(buf, 0xa5, sizeof(buf));
		if (vgr(buf, n, 0, st, state_size) != (long)n || buf[n] != 0xa5 ||
		    (n >= 16 && all_zero(buf, n))) {
			snprintf(what, sizeof(what), "a %zu-byte request fills exactly %zu bytes",
				 n, n);
			check(0, what);
			ok = 0;
		}
	}
	check(ok, "requests of 1 to 5000 bytes fill exactly their length");
	check(vgr(buf, 0, 0, st, state_size) == 0, "a 0-byte request returns 0");
}

static void check_distinct(uint8_t *st)
{
	enum { N = 2000 };
	static uint64_t v[N];
	int dup = 0, ok = 1;

	for (int i = 0; i < N; i++)
		if (vgr(&v[i], sizeof(v[i]), 0, st, state_size) != 8)
			ok = 0;
	for (int i = 0; i < N && !dup; i++)
		for (int j = i + 1; j < N; j++)
			if (v[i] == v[j]) {
				dup = 1;
				break;
			}
	check(ok && !dup, "2000 8-byte values from one state are distinct");
}

static void check_flags(uint8_t *st, uint8_t *page)
{
	uint8_t b[32];
	uint8_t *straddle = page + 4096 - 100;

	check(vgr(b, 16, GRND_NONBLOCK, st, state_size) == 16, "GRND_NONBLOCK is served");
	check(vgr(b, 16, GRND_INSECURE, st, state_size) == 16, "GRND_INSECURE is served");
	check(vgr(b, 16, GRND_RANDOM, st, state_size) == 16, "GRND_RANDOM is served");
	check(vgr(b, 16, 0x8, st, state_size) == -EINVAL,
	      "an unknown flag goes to the system call: -EINVAL");
	check(vgr(b, 16, 0, st, state_size - 8) == 16,
	      "a wrong state size goes to the system call, which fills the buffer");
	check(vgr(b, 16, 0, straddle, state_size) == -EFAULT,
	      "a state straddling a page is -EFAULT");
	check(vgr((void *)8, 16, 0, st, 100) == -EFAULT,
	      "a bad buffer through the system-call fallback is -EFAULT");
}

static void check_in_use(uint8_t *st)
{
	uint8_t b[16], pos;

	vgr(b, 4, 0, st, state_size);
	pos = st[ST_POS];
	st[ST_IN_USE] = 1;
	check(vgr(b, 16, 0, st, state_size) == 16 && st[ST_POS] == pos,
	      "a state in use (re-entry) is left alone: the system call answers");
	st[ST_IN_USE] = 0;
	check(vgr(b, 16, 0, st, state_size) == 16 && st[ST_POS] != pos,
	      "the state serves again once no longer in use");
}

static void check_fork(uint8_t *st)
{
	uint8_t mine[16], theirs[16];
	int fds[2], status = 0;
	pid_t pid;

	vgr(mine, 4, 0, st, state_size);
	check(st_generation(st) != 0, "a used state holds a generation");
	if (pipe(fds)) {
		check(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int zero = all_zero(st, state_size);

		close(fds[0]);
		if (vgr(theirs, 16, 0, st, state_size) != 16 || write(fds[1], theirs, 16) != 16)
			_exit(2);
		_exit(zero ? 0 : 1);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], theirs, 16) != 16) {
		check(0, "fork and the child's output");
		close(fds[0]);
		return;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child of a fork sees the MAP_DROPPABLE state zeroed");
	check(vgr(mine, 16, 0, st, state_size) == 16 && memcmp(mine, theirs, 16) != 0,
	      "parent and child draw different bytes after the fork");
	check(st_generation(st) != 0, "the parent keeps its state");
}

static void check_droppable(void)
{
	int fd = open("/proc/self/stat", O_RDONLY);
	void *m;

	m = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_DROPPABLE | MAP_ANONYMOUS, -1, 0);
	check(m != MAP_FAILED, "MAP_DROPPABLE|MAP_ANONYMOUS maps");
	if (m != MAP_FAILED) {
		check(all_zero(m, 4096), "a MAP_DROPPABLE page reads zero");
		munmap(m, 4096);
	}
	m = mmap(0, 4096, PROT_READ, MAP_DROPPABLE, fd, 0);
	check(m == MAP_FAILED && errno == EINVAL, "MAP_DROPPABLE of a file is EINVAL");
	m = mmap(0, 4096, PROT_READ, MAP_DROPPABLE | MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check(m == MAP_FAILED && errno == EINVAL, "MAP_DROPPABLE|MAP_SHARED is EINVAL");
	m = mmap(0, 4096, PROT_READ, MAP_DROPPABLE | MAP_LOCKED | MAP_ANONYMOUS, -1, 0);
	check(m == MAP_FAILED && errno == EINVAL, "MAP_DROPPABLE|MAP_LOCKED is EINVAL");
	if (fd >= 0)
		close(fd);
}

static void check_reseed(uint8_t *st)
{
	uint8_t b[16], junk[4];
	uint64_t g0;
	int moved = 0;

	vgr(b, 4, 0, st, state_size);
	g0 = st_generation(st);
	for (int s = 0; s < 150 && !moved; s++) {
		struct timespec ts = {0, 500000000};

		nanosleep(&ts, 0);
		sys_getrandom(junk, sizeof(junk), 0); /* aslrbench reseeds when due, at an entry */
		if (vgr(b, 4, 0, st, state_size) == 4 && st_generation(st) != g0)
			moved = 1;
	}
	check(moved, "a crng reseed advances the generation: the state takes a new key");
	check(st[ST_POS] < 96 && st[ST_POS] > 0, "and refills its batch");
}

static inline uint64_t ticks(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static int bench(uint8_t *st)
{
	uint64_t empty = ~0ULL, single = ~0ULL, amort = ~0ULL, sys = ~0ULL;
	uint8_t b[4];

	for (int r = 0; r < 8; r++) {
		uint64_t t0 = ticks(), t1 = ticks(), total = 0;

		if (t1 - t0 < empty)
			empty = t1 - t0;
		/* bring the batch to its end: the next call refills */
		while (st[ST_POS] != 96 || st_generation(st) == 0)
			vgr(b, 4, 0, st, state_size);
		for (int i = 0; i < 24; i++) {
			uint64_t a = ticks(), d;

			vgr(b, 4, 0, st, state_size);
			d = ticks() - a;
			total += d;
			if (i && d < single)
				single = d;
		}
		if (total < amort)
			amort = total;
		t0 = ticks();
		sys_getrandom(b, 4, 0);
		t1 = ticks();
		if (t1 - t0 < sys)
			sys = t1 - t0;
	}
	printf("vgetrandom-cost empty=%llu single=%llu amortised24=%llu.%llu syscall=%llu\n",
	       (unsigned long long)empty, (unsigned long long)(single - empty),
	       (unsigned long long)((amort - 24 * empty) / 24),
	       (unsigned long long)((amort - 24 * empty) % 24 * 10 / 24),
	       (unsigned long long)(sys - empty));
	return 0;
}

int main(int argc, char **argv)
{
	struct vgetrandom_opaque_params p;
	uintptr_t ehdr = getauxval(AT_SYSINFO_EHDR);
	uint8_t *st, *page;

	check(ehdr != 0, "AT_SYSINFO_EHDR is given");
	if (!ehdr)
		return summary("lx_vgetrandom");
	vgr = (vgetrandom_fn)vdso_sym(ehdr, "__vdso_getrandom", "LINUX_2.6");
	check(vgr != 0, "the vDSO exports __vdso_getrandom@LINUX_2.6");
	if (!vgr)
		return summary("lx_vgetrandom");
	memset(&p, 0xff, sizeof(p));
	check(vgr(0, 0, 0, &p, ~0UL) == 0, "the params call returns 0");
	check(p.size_of_opaque_state == 144 && p.mmap_prot == (PROT_READ | PROT_WRITE) &&
		      p.mmap_flags == (MAP_DROPPABLE | MAP_ANONYMOUS),
	      "params: 144-byte state, PROT_READ|PROT_WRITE, MAP_DROPPABLE|MAP_ANONYMOUS");
	check(all_zero((const uint8_t *)p.reserved, sizeof(p.reserved)),
	      "params: the reserved words are zeroed");
	state_size = p.size_of_opaque_state;
	page = map_state(&p);
	check(page != 0, "a state page maps with the returned prot and flags");
	if (!page || state_size != 144)
		return summary("lx_vgetrandom");
	st = page;
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return bench(st);
	check_droppable();
	check_lengths(st);
	check_distinct(st);
	check_flags(st, page);
	check_in_use(st);
	check_fork(st);
	check_reseed(st);
	return summary("lx_vgetrandom");
}
