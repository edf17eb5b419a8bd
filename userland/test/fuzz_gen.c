/*
 * The fuzzer's generator: one call at a time from the seeded stream, with
 * typed arguments that favour the values where kernels break (NULL, the
 * kernel half, non-canonical and unmapped addresses, a buffer straddling
 * into a PROT_NONE page, huge and negative lengths, bad fds, random flag
 * bits) and the resources the program made earlier (fds, pids, mappings).
 * Filters keep calls that legitimately end or stall the run out: console
 * reads, root's reboot and long lab suites, exit and real execs in the
 * program's own process, munmap over its own code and stack.
 *
 * Over 500 lines: one switch over every system call the kernel serves,
 * each case a few lines of typed arguments; splitting it by area would
 * scatter the one table a reader checks against the syscall list.
 */
#include "userland/test/fuzz.h"

uint64_t state, straddle, resv_fd[MAX_RES], resv_pid[MAX_RES], map_addr[MAX_RES], map_len[MAX_RES];
int depth, unpriv, nfd, npid, nmap, map_fd = -1;
char *scratch;
uint64_t futex_page;
static char pathbuf[320], pathbuf2[64];
static int64_t tsbuf[4];
static char *argvbuf[4];

uint64_t rnd(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/*
 * Every choice draws the same count of numbers whatever the resources
 * hold: a subset of calls (the minimiser's) must draw the same stream.
 */
static uint64_t pick_res(const uint64_t *v, int n, uint64_t dflt)
{
	uint64_t r = rnd();

	return n ? v[r % (uint64_t)n] : dflt;
}

void add_res(uint64_t *v, int *n, uint64_t x)
{
	static unsigned rr; /* replaces round-robin: results must not draw numbers */

	v[*n < MAX_RES ? (*n)++ : (int)(rr++ % MAX_RES)] = x;
}

/* Pointers: NULL, kernel half, non-canonical, unmapped, straddling, valid, mapped. */
static uint64_t gen_ptr(void)
{
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return below(2) ? 0xffffffff80000000ULL + below(0x10000)
				: 0xffff800000000000ULL + (below(1 << 30) & ~7ULL);
	case 2:
		return below(2) ? 0x0000800000000000ULL - below(16) : 1ULL << 63;
	case 3:
		return 0x1000 + (below(0x1000) << 12) + below(8);
	case 4:
		return straddle - 1 - below(64);
	case 5:
	case 6:
		return (uint64_t)scratch + below(SCRATCH_LEN - 600);
	case 7:
		return pick_res(map_addr, nmap, (uint64_t)scratch) + below(8192);
	case 8:
		return (uint64_t)(void *)sys(__NR_brk, 0) - below(64);
	default:
		return rnd();
	}
}

static uint64_t gen_len(void)
{
	static const uint64_t lens[] = {0,	    1,		8,	    4095,  4096,
					4097,	    65536,	1ULL << 40, ~0ULL, ~0ULL - 4095,
					1ULL << 63, 0x7fffffff, 0x80000000};

	return below(3) ? below(600) : below(4) ? lens[below(sizeof(lens) / 8)] : rnd();
}

static uint64_t gen_int(void)
{
	static const uint64_t v[] = {0, 1, 2, 3, ~0ULL, 0x80000000, 0x7fffffff, 1000, 1ULL << 32};

	return below(2) ? v[below(sizeof(v) / 8)] : below(3) ? below(64) : rnd();
}

static int is_console(uint64_t fd)
{
	return fd < CONSOLE_FDS;
}

static uint64_t gen_fd(void)
{
	switch (below(6)) {
	case 0:
		return below(CONSOLE_FDS);
	case 1:
		return below(2) ? ~0ULL : 16 + below(1000);
	default:
		return pick_res(resv_fd, nfd, 3 + below(4));
	}
}

static uint64_t gen_pid(void)
{
	static const uint64_t v[] = {0, ~0ULL, 1, 0x80000000, 99999};

	return below(2) ? pick_res(resv_pid, npid, ~0ULL) : below(2) ? v[below(5)] : rnd();
}

static uint64_t gen_uid(void)
{
	static const uint64_t v[] = {0, 1000, 1001, 0xffffffff, 65534, 0xffffffff00000000ULL};

	return below(5) ? v[below(6)] : rnd();
}

/* A path in pathbuf (or a bad pointer); sysctl tells whether it names one. */
static uint64_t gen_path(int *sysctl)
{
	static const char *const paths[] = {"/proc/self/stat",
					    "/proc/self/status",
					    "/proc/self/maps",
					    "/proc/1/stat",
					    "/proc/1/maps",
					    "/proc/uptime",
					    "/proc/timer_list",
					    "/proc/sys/kernel/rng_variant",
					    "/proc/sys/kernel/randomize_va_space",
					    "/proc",
					    "/proc/self",
					    "/nonexistent",
					    "/proc/self/wchan",
					    "/proc/self/cmdline",
					    "proc/self/stat",
					    "/proc//1/./stat",
					    "/proc/0/stat",
					    "/proc/self/fail-nth",
					    "/proc/1/fail-nth",
					    "/proc/99999999999/stat"};
	static const char *const files[] = {"stat", "status", "maps", "wchan", "cmdline"};
	uint64_t k = below(12);

	*sysctl = 0;
	if (k < 7) {
		const char *p = paths[below(sizeof(paths) / sizeof(paths[0]))];

		/* Root-only settings: the root process opens them read-only (see gen_call). */
		*sysctl = !strncmp(p, "/proc/sys/", 10) || !strcmp(p, "/proc/1/fail-nth");
		strlcpy(pathbuf, p, sizeof(pathbuf));
	} else if (k < 9) {
		snprintf(pathbuf, sizeof(pathbuf), "/proc/%ld/%s",
			 (long)pick_res(resv_pid, npid, 1), files[below(5)]);
	} else if (k == 9) {
		memset(pathbuf, 'a', sizeof(pathbuf) - 1);
		pathbuf[sizeof(pathbuf) - 1] = '\0';
	} else {
		return gen_ptr();
	}
	return (uint64_t)pathbuf;
}

/*
 * A name in the tree every fuzz process of a program shares (/tmp/fz, made
 * 01777 by the kernel before each program and removed after it), or one
 * relative to the cwd, which chdir moves into that tree, out of it, and
 * into directories that rmdir then removes (the dead-directory case); the
 * relative names start "fz" so that what they create in /tmp or / is found
 * and removed too.  One draw whatever it picks.
 */
static uint64_t gen_fspath(char *buf, size_t len)
{
	static const char *const names[] = {"/tmp/fz",
					    "/tmp/fz/d0",
					    "/tmp/fz/d1",
					    "/tmp/fz/d0/d2",
					    "/tmp/fz/f0",
					    "/tmp/fz/d1/f1",
					    "fzd0",
					    "fzf0",
					    "fzd0/fzf1",
					    ".",
					    "..",
					    "/tmp/fz/l0",
					    "/tmp/fz/d0/../f0",
					    "fzd0/..",
					    "/tmp/fz/d1/d3"};

	strlcpy(buf, names[below(sizeof(names) / sizeof(names[0]))], len);
	return (uint64_t)buf;
}

/* Sizes for ftruncate: small, page-sized, large files up to the 64 MiB limit and past it. */
static uint64_t gen_fsize(void)
{
	static const uint64_t v[] = {0,	      1,	 4096,	   65536,	1 << 20,
				     8 << 20, 16 << 20,	 48 << 20, 64ULL << 20, (64ULL << 20) + 1,
				     ~0ULL,   1ULL << 63};

	return below(4) ? v[below(sizeof(v) / 8)] : below(2) ? below(1 << 22) : rnd();
}

/* Data for a write: a sysctl value sometimes, else whatever scratch holds. */
static uint64_t gen_wbuf(void)
{
	static const char *const tok[] = {
		"0\n", "1\n", "2\n", "3\n", "md4-2.6.30\n", "prandom", "chacha20-batched\n",
		"\n",  "-1\n"};
	uint64_t p = gen_ptr();

	if (p >= (uint64_t)scratch && p < (uint64_t)scratch + SCRATCH_LEN - 600 && below(2))
		strlcpy((char *)p, tok[below(sizeof(tok) / sizeof(tok[0]))], 32);
	return p;
}

/* Only pointers no read can succeed through (a readable one could hold days of sleep). */
static uint64_t gen_badptr(void)
{
	switch (below(5)) {
	case 0:
		return 0;
	case 1:
		return 0xffffffff80000000ULL + below(0x10000);
	case 2:
		return 0x0000800000000000ULL - below(8);
	case 3:
		return 0x1000 + (below(0x1000) << 12);
	default:
		return straddle - 1 - below(15); /* 16 bytes always cross into the hole */
	}
}

static uint64_t gen_timespec(void)
{
	if (below(4) == 0)
		return gen_badptr();
	tsbuf[0] = below(8) ? 0 : -1;
	tsbuf[1] = below(8) ? (int64_t)below(2000000) : below(2) ? 1000000000 : -1;
	return (uint64_t)tsbuf;
}

/*
 * A futex word: mostly one of the shared page's eight (the forks meet there)
 * or the scratch's (private to each process), at times misaligned or bad.
 */
static uint64_t gen_futex_word(void)
{
	uint64_t base = below(3) ? futex_page : (uint64_t)scratch, w = 4 * below(8);

	switch (below(8)) {
	case 0:
		return base + w + 1 + below(3);
	case 1:
		return gen_badptr();
	default:
		return base ? base + w : (uint64_t)scratch + w;
	}
}

/* What the word holds now (a wait with it sleeps), or a value it likely does not. */
static uint64_t gen_futex_val(uint64_t word)
{
	uint64_t r = below(4);

	if (r && !(word & 3) && word >= (uint64_t)scratch && word + 4 <= straddle)
		return *(volatile uint32_t *)word;
	if (r && !(word & 3) && futex_page && word >= futex_page && word + 4 <= futex_page + 4096)
		return *(volatile uint32_t *)word;
	return gen_int();
}

/*
 * A forged rt_sigframe (fuzz.c makes the call in a child, on this frame):
 * random bytes, with rip the landing stub (which exits 0), random, in the
 * kernel or non-canonical; rsp, flags, cs, the fpstate pointer (at times a
 * random fxsave image: reserved MXCSR bits) and the mask as they fall.
 * Returns the rsp to use: 8 bytes into the frame, or a bad pointer.
 */
static uint64_t sigframe[64], fpimage[64] __attribute__((aligned(64)));
static uint64_t gen_sigframe(void)
{
	static const uint64_t rips[] = {0, 0xffffffff81000000ULL, 0x8000000000000000ULL, 4096};
	uint64_t r = below(4), f = below(4);

	for (int i = 0; i < 64; i++) {
		sigframe[i] = rnd();
		fpimage[i] = rnd();
	}
	sigframe[22] = below(2) ? (uint64_t)fuzz_landing : rips[below(4)]; /* uc_mcontext.ip */
	if (f == 0)
		sigframe[29] = 0; /* fpstate: none */
	else if (f == 1)
		sigframe[29] = (uint64_t)fpimage;
	else if (f == 2)
		sigframe[29] = gen_badptr();
	if (r == 0)
		return gen_badptr();
	return (uint64_t)&sigframe[1];
}

static int own_child(int pid)
{
	for (int i = 0; i < npid; i++)
		if ((int)resv_pid[i] == pid)
			return pid > 1;
	return 0;
}

/*
 * A signal that cannot end the run (init, ourselves, our group, a sibling
 * fuzzer): to a child of ours any number, else 0 (a check only) or 65
 * (EINVAL).  Both draws happen whatever the children are.
 */
static void gen_kill_target(struct call *c, int pid_arg, int sig_arg)
{
	uint64_t sig = below(4) ? below(65) : gen_int(), harmless = below(2) ? 0 : 65;

	c->a[sig_arg] = own_child((int)c->a[pid_arg]) ? sig : harmless;
}

static uint64_t gen_prog(int safe)
{
	static const char *const names[] = {"t_nop",	   "t_sleep", "t_fault",
					    "nonexistent", "",	      "/bin/t_nop"};

	if (below(4) == 0)
		return gen_ptr();
	return (uint64_t)names[below(safe ? 6 : 1) + (safe ? 0 : 3)];
}

static uint64_t gen_argv(void)
{
	static char *const sets[][3] = {{"t_sleep", "20", 0},
					{"t_fault", "segv", 0},
					{"t_nop", 0, 0},
					{"t_fault", "ud", 0}};

	switch (below(4)) {
	case 0:
		return 0;
	case 1:
		return gen_ptr();
	case 2:
		argvbuf[0] = "t_nop";
		argvbuf[1] = (char *)gen_ptr();
		argvbuf[2] = 0;
		return (uint64_t)argvbuf;
	default:
		return (uint64_t)sets[below(4)];
	}
}

static int overlaps(uint64_t a, uint64_t len, uint64_t lo, uint64_t hi)
{
	uint64_t end = a + len < a ? ~0ULL : a + len;

	return len && a < hi && end > lo;
}

/* Not over our own stack, code and data, or scratch: that ends the program, not the kernel. */
static int own_memory(uint64_t a, uint64_t len, uint64_t sp)
{
	uint64_t code = (uint64_t)main;

	return overlaps(a, len, sp - (1 << 20), sp + (16 << 20)) ||
	       overlaps(a, len, code - (16 << 20), (uint64_t)pathbuf + (16 << 20)) ||
	       overlaps(a, len, (uint64_t)scratch, straddle + 4096) ||
	       (futex_page && overlaps(a, len, futex_page, futex_page + 4096));
}

/*
 * clone's flags: the fork family as glibc, musl and posix_spawn use it, a
 * thread as pthread_create makes it (fuzz.c starts it on a stack of its
 * own: FUZZ_THREAD_FLAGS), the combinations Linux refuses, or random bits.
 */
static uint64_t gen_clone_flags(void)
{
	static const uint64_t f[] = {
		17,			      /* SIGCHLD: fork */
		17 | 0x01000000 | 0x00200000, /* glibc's fork: CHILD_SETTID | CLEARTID */
		17 | 0x00100000,	      /* PARENT_SETTID */
		17 | 0x00004000 | 0x00000100, /* posix_spawn: VM | VFORK */
		17 | 0x00004000,	      /* VFORK without VM */
		0x00000100,		      /* VM alone: a child sharing memory */
		17 | 0x00080000,	      /* SETTLS */
		0x00010000 | 0x00000100,      /* THREAD without SIGHAND: EINVAL */
		0x00000800,		      /* SIGHAND without VM: EINVAL */
		FUZZ_THREAD_FLAGS,
		FUZZ_THREAD_FLAGS,
		17 | 0x01000000 | 0x00200000 | 0x00100000 | 0x00004000 | 0x00000100};

	return below(4) ? f[below(sizeof(f) / 8)] : rnd();
}

/* Draws one call; every filter here keeps the run going (docs/reliability.md). */
void gen_call(struct call *c, uint64_t idx)
{
	/* The table's calls, each as many times as its fuzz column says. */
	static const int nrs[] = {
#define __FUZZ_0(nr)
#define __FUZZ_1(nr)			 nr,
#define __FUZZ_2(nr)			 nr, nr,
#define __SYSCALL(nr, name, entry, fuzz, lock) __FUZZ_##fuzz(nr)
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
	};
	int sysctl = 0;
	uint64_t hi = 0, hi2;

	(void)idx;
	for (int i = 0; i < 6; i++)
		c->a[i] = gen_int();
	c->path = 0;
	c->nr = nrs[below(sizeof(nrs) / sizeof(nrs[0]))];
	if (below(12) == 0) { /* beyond the table, or a known number with the upper half set */
		switch (below(3)) {
		case 0:
			c->nr = (long)(NR_syscalls + below(100000));
			return;
		case 1:
			c->nr = (long)rnd();
			if ((uint32_t)c->nr < 600)
				c->nr = 0x7fffffff;
			return;
		default:
			hi = (1 + below(0xffffffff)) << 32;
		}
	}
	switch (c->nr) {
	case __NR_read:
		c->a[0] = gen_fd();
		if (is_console(c->a[0]))
			c->a[0] = 99; /* a console read waits for input that never comes */
		c->a[1] = gen_ptr();
		c->a[2] = gen_len();
		break;
	case __NR_write:
		c->a[0] = gen_fd();
		c->a[1] = gen_wbuf();
		c->a[2] = gen_len();
		hi2 = below(3); /* drawn whatever the fd: the stream must not depend on results */
		if (is_console(c->a[0])) { /* keep the log readable */
			c->a[1] = hi2 ? (uint64_t) "[fuzz]\n" : 0xffffffff80000000ULL;
			c->a[2] = 7;
		}
		break;
	case __NR_open:
		c->a[0] = gen_path(&sysctl);
		c->a[1] = below(2) ? below(4) : rnd();
		if (c->a[0] == (uint64_t)pathbuf)
			c->path = pathbuf;
		/* Root may write the sysctls; the check is that uid 1000 cannot. */
		if (sysctl && !unpriv)
			c->a[1] &= ~(uint64_t)O_ACCMODE;
		break;
	case __NR_close:
		c->a[0] = gen_fd();
		if (is_console(c->a[0]))
			c->a[0] = 99; /* the listing needs fd 1 */
		break;
	case __NR_lseek:
		c->a[0] = gen_fd();
		c->a[1] = below(2) ? below(8192) : rnd();
		c->a[2] = below(2) ? below(3) : gen_int();
		break;
	case __NR_mmap:
		hi2 = below(3); /* 0: MAP_PRIVATE of the file main made (map_fd) */
		c->a[0] = gen_ptr();
		c->a[1] = below(4) ? 4096 * (1 + below(64)) : gen_len();
		c->a[2] = below(4) ? below(8) : rnd();
		c->a[3] = below(4) ? (hi2 ? 0x22 : 0x02) | (below(6) ? 0 : 0x10) : gen_int();
		c->a[4] = below(4) ? (hi2 ? ~0ULL : (uint64_t)map_fd) : gen_fd();
		c->a[5] = below(4) ? (hi2 ? 0 : 4096 * below(4)) : gen_int();
		/* MAP_FIXED replaces what is there: never our own stack, code or scratch. */
		if (c->a[3] & 0x10) {
			c->a[0] &= ~4095ULL;
			if (own_memory(c->a[0], c->a[1], (uint64_t)&sysctl))
				c->a[3] &= ~0x10ULL;
		}
		break;
	case __NR_munmap:
	case __NR_mprotect:
		/* A mapping of ours from its start or from a page inside: splits at either end. */
		hi2 = below(2) ? 0 : 4096 * below(8);
		c->a[0] = below(4) ? pick_res(map_addr, nmap, 0x10000) + hi2 : gen_ptr();
		c->a[1] = below(2) ? 4096 * (1 + below(64)) : gen_len();
		hi2 = rnd();
		if (c->nr == __NR_mprotect)
			c->a[2] = below(4) ? below(8) : rnd(); /* PROT_READ/WRITE/EXEC, NONE */
		/* Not over our own stack or code: that ends the program, not the kernel. */
		if (own_memory(c->a[0], c->a[1], (uint64_t)&sysctl))
			c->a[1] = ~0ULL - (hi2 & 4095);
		break;
	case __NR_mremap: /* a mapping of ours (or anything), grown, shrunk or moved */
		hi2 = below(2) ? 0 : 4096 * below(8);
		c->a[0] = below(4) ? pick_res(map_addr, nmap, 0x10000) + hi2 : gen_ptr();
		c->a[1] = below(2) ? 4096 * (1 + below(64)) : gen_len();
		c->a[2] = below(2) ? 4096 * (1 + below(64)) : gen_len();
		c->a[3] = below(4) ? below(4) : gen_int(); /* MREMAP_MAYMOVE, MREMAP_FIXED */
		c->a[4] =
			below(2) ? pick_res(map_addr, nmap, 0x10000) + 4096 * below(64) : gen_ptr();
		/* Neither the old range nor the new may be our own memory. */
		if (own_memory(c->a[0], c->a[1], (uint64_t)&sysctl) ||
		    own_memory(c->a[0], c->a[2], (uint64_t)&sysctl))
			c->a[0] = 0x10000;
		if ((c->a[3] & 2) && own_memory(c->a[4], c->a[2], (uint64_t)&sysctl))
			c->a[3] &= ~2ULL;
		break;
	case __NR_rt_sigaction:
	case __NR_rt_sigprocmask:
		c->a[0] = c->nr == __NR_rt_sigprocmask ? (below(4) ? below(3) : gen_int())
						       : (below(4) ? 1 + below(64) : gen_int());
		c->a[1] = gen_ptr(); /* the new action or set: whatever is there */
		c->a[2] = gen_ptr(); /* the old one is stored here */
		c->a[3] = below(4) ? 8 : gen_int();
		break;
	case __NR_writev:
		c->a[0] = gen_fd();
		if (is_console(c->a[0]))
			c->a[0] = 99; /* keep the log readable */
		c->a[1] = gen_ptr();  /* the iovec array */
		c->a[2] = below(2) ? below(8) : below(2) ? 1025 : gen_int();
		break;
	case __NR_clone:
		c->a[0] = gen_clone_flags();
		c->a[1] = below(4) ? 0 : gen_ptr(); /* a new stack: the child dies at once */
		c->a[2] = gen_ptr();		    /* parent_tid */
		c->a[3] = gen_ptr();		    /* child_tid */
		c->a[4] = gen_ptr();		    /* tls */
		break;
	case __NR_uname:
	case __NR_sysinfo:
	case __NR_set_tid_address:
		c->a[0] = gen_ptr();
		break;
	case __NR_getrlimit:
	case __NR_setrlimit:
		c->a[0] = below(4) ? below(16) : gen_int(); /* RLIMIT_STACK is 3 */
		c->a[1] = gen_ptr();
		break;
	case __NR_getpriority:
	case __NR_setpriority:
		/*
		 * PRIO_PROCESS, or a which that is EINVAL; never init and never a
		 * nice below 0: a task that outweighed init on its CPU would
		 * starve the run's pacing (rq.c's turns go by weight).
		 */
		c->a[0] = below(8) ? 0
				   : (uint64_t)(long)((3 + (int)below(1000)) * (below(2) ? 1 : -1));
		c->a[1] = below(2) ? 0 : gen_pid();
		if ((int)c->a[1] == 1)
			c->a[1] = 0;
		c->a[2] = below(20);
		break;
	case __NR_prlimit64:
		c->a[0] = below(2) ? 0 : gen_pid();
		c->a[1] = below(4) ? below(16) : gen_int();
		c->a[2] = below(2) ? 0 : gen_ptr();
		c->a[3] = gen_ptr();
		break;
	case __NR_setgid:
		c->a[0] = gen_uid();
		break;
	case __NR_getgroups:
		c->a[0] = gen_int();
		c->a[1] = gen_ptr();
		break;
	case __NR_setpgid:
		c->a[0] = gen_pid();
		c->a[1] = gen_pid();
		break;
	case __NR_getpgid:
	case __NR_getsid:
		c->a[0] = gen_pid();
		break;
	case __NR_arch_prctl: {
		static const uint64_t codes[] = {0x1001, 0x1002, 0x1003,
						 0x1004}; /* SET_GS .. GET_GS */

		c->a[0] = below(4) ? codes[below(4)] : gen_int();
		c->a[1] =
			gen_ptr(); /* a base (non-canonical, kernel half...) or where to store it */
		break;
	}
	case __NR_sched_getaffinity:
		c->a[0] = below(2) ? 0 : gen_pid();
		c->a[1] = gen_len();
		c->a[2] = gen_ptr();
		break;
	case __NR_clock_nanosleep:
		c->a[0] = below(4) ? below(2) : gen_int();	   /* REALTIME, MONOTONIC */
		c->a[1] = below(2) ? 0 : below(2) ? 1 : gen_int(); /* TIMER_ABSTIME */
		c->a[2] = gen_timespec(); /* short, or unreadable: an absolute time is long past */
		c->a[3] = gen_ptr();
		break;
	case __NR_futex: {
		/* WAIT WAKE REQUEUE CMP_REQUEUE WAKE_OP WAIT_BITSET WAKE_BITSET, or any op */
		static const uint64_t ops[] = {0, 1, 3, 4, 5, 9, 10};
		uint64_t cmd;

		c->a[0] = gen_futex_word();
		c->a[1] = below(8) ? ops[below(7)] | (below(2) ? 128 : 0) | (below(8) ? 0 : 256)
				   : gen_int();
		c->a[2] = below(2) ? gen_futex_val(c->a[0]) : below(2) ? below(3) : 0x7fffffff;
		c->a[3] = below(2) ? below(3) : below(2) ? 0x7fffffff : gen_int(); /* nr_requeue */
		c->a[4] = gen_futex_word();
		c->a[5] = below(2) ? 0xffffffff : below(2) ? 1 + below(7) : gen_int(); /* bitset */
		if (below(4) == 0)
			c->a[5] = gen_futex_val(c->a[4]); /* CMP_REQUEUE's value */
		cmd = (uint32_t)c->a[1] & ~384u;	  /* the kernel reads op as an int */
		/*
		 * A wait never goes without a short timeout (another fork may never
		 * wake it): up to 20 ms, relative for WAIT, absolute for the others;
		 * or an unreadable one (EFAULT).
		 */
		if (cmd == 0 || cmd == 6 || cmd == 9 || cmd == 11 || cmd == 13) {
			int64_t now[2] = {0, 0};

			if (cmd != 0)
				sys(__NR_clock_gettime, (c->a[1] & 256) ? 0 : 1, (long)now, 0);
			tsbuf[0] = now[0];
			tsbuf[1] = now[1] + (int64_t)below(20000000);
			if (tsbuf[1] >= 1000000000) {
				tsbuf[0]++;
				tsbuf[1] -= 1000000000;
			}
			if (below(16) == 0)
				tsbuf[1] = below(2) ? -1 : 1000000000; /* EINVAL */
			c->a[3] = below(8) ? (uint64_t)tsbuf : gen_badptr();
			if (!c->a[3])
				c->a[3] = 8; /* unreadable, not NULL: NULL is no timeout at all */
		}
		break;
	}
	case __NR_set_robust_list:
		c->a[0] = gen_ptr();
		c->a[1] = below(2) ? 24 : gen_len();
		break;
	case __NR_getcpu:
		c->a[0] = gen_ptr();
		c->a[1] = gen_ptr();
		c->a[2] = gen_ptr();
		break;
	case __NR_brk: {
		uint64_t cur = (uint64_t)(void *)sys(__NR_brk, 0);
		static const uint64_t d[] = {0, 4096, 1 << 20, 1ULL << 40, 11ULL << 40};

		c->a[0] = below(4) ? cur + (below(2) ? d[below(5)] : -d[below(5)]) : gen_ptr();
		break;
	}
	case __NR_nanosleep:
		c->a[0] = gen_timespec();
		c->a[1] = gen_ptr();
		break;
	case __NR_fork:
		if (depth >= 2 || npid >= 8)
			c->nr = __NR_getpid;
		break;
	case __NR_execve:
		c->a[0] = gen_prog(depth > 0); /* a real program only in a child */
		c->a[1] = gen_argv();
		c->a[2] = gen_ptr();
		break;
	case __NR_exit:
	case __NR_exit_group:
		if (!depth)
			c->nr = __NR_getpid; /* the program ends when its calls do */
		break;
	case __NR_wait4:
		c->a[0] = gen_pid();
		c->a[1] = gen_ptr();
		c->a[2] = below(4) ? 1 : gen_int();
		c->a[3] = below(2) ? 0 : gen_ptr();
		break;
	case __NR_setuid:
	case __NR_setresuid:
	case __NR_setresgid:
		c->a[0] = gen_uid();
		c->a[1] = gen_uid();
		c->a[2] = gen_uid();
		break;
	case __NR_getresuid:
	case __NR_getresgid:
	case __NR_getdents_pids:
	case __NR_clock_gettime:
		c->a[0] = c->nr == __NR_clock_gettime ? gen_int() : gen_ptr();
		c->a[1] = c->nr == __NR_getdents_pids ? gen_int() : gen_ptr();
		c->a[2] = gen_ptr();
		break;
	case __NR_prctl: {
		static const uint64_t ops[] = {3, 4, 15, 16, 36, 37};

		c->a[0] = below(4) ? ops[below(6)] : gen_int();
		c->a[1] = below(2) ? gen_ptr() : gen_int();
		break;
	}
	case __NR_reboot:
		if (!unpriv) {
			c->nr = __NR_getpid; /* root would end the run */
		} else if (below(2)) {
			c->a[0] = 0xfee1dead;
			c->a[1] = 672274793;
			c->a[2] = 0x4321fedc;
		}
		break;
	case __NR_getrandom:
		c->a[0] = gen_ptr();
		c->a[1] = gen_len();
		c->a[2] = below(2) ? below(8) : gen_int();
		break;
	case __NR_spawn:
		c->a[0] = gen_prog(1);
		c->a[1] = gen_argv();
		break;
	case __NR_rt_sigreturn:
		c->a[0] = gen_sigframe();
		break;
	case __NR_sigaltstack:
		c->a[0] = gen_ptr();
		c->a[1] = gen_ptr();
		break;
	case __NR_kill:
	case __NR_tkill:
		c->a[0] = gen_pid();
		gen_kill_target(c, 0, 1);
		break;
	case __NR_tgkill:
		c->a[0] = gen_pid();
		c->a[1] = below(2) ? c->a[0] : gen_pid();
		gen_kill_target(c, 1, 2);
		break;
	case __NR_rt_sigpending:
	case __NR_rt_sigtimedwait:
		c->a[0] = gen_ptr();
		c->a[1] = below(4) ? 8 : gen_int();
		c->a[2] = gen_timespec();
		if (!c->a[2])
			c->a[2] = (uint64_t)tsbuf; /* NULL would wait for good */
		c->a[3] = below(4) ? 8 : gen_int();
		if (c->nr == __NR_rt_sigtimedwait)
			c->a[1] = gen_ptr();
		break;
	case __NR_mkdir:
		c->a[0] = below(8) ? gen_fspath(pathbuf, sizeof(pathbuf)) : gen_ptr();
		c->a[1] = below(2) ? 0777 : gen_int();
		c->path = pathbuf;
		break;
	case __NR_rmdir:
	case __NR_chdir:
	case __NR_unlink:
		c->a[0] = below(8) ? gen_fspath(pathbuf, sizeof(pathbuf)) : gen_ptr();
		c->path = pathbuf;
		break;
	case __NR_fchdir:
		c->a[0] = gen_fd();
		break;
	case __NR_ftruncate:
		c->a[0] = gen_fd();
		c->a[1] = gen_fsize();
		break;
	case __NR_getdents64:
		c->a[0] = gen_fd();
		c->a[1] = gen_ptr();
		c->a[2] = gen_len();
		break;
	case __NR_getcwd:
		c->a[0] = gen_ptr();
		c->a[1] = below(2) ? 4096 : gen_len();
		break;
	case __NR_symlink:
	case __NR_rename:
		c->a[0] = below(8) ? gen_fspath(pathbuf2, sizeof(pathbuf2)) : gen_ptr();
		c->a[1] = below(8) ? gen_fspath(pathbuf, sizeof(pathbuf)) : gen_ptr();
		c->path = pathbuf;
		break;
	case __NR_openat:
		c->a[0] = below(4) ? (uint64_t)-100 : gen_fd(); /* AT_FDCWD mostly */
		c->a[1] = below(8) ? gen_fspath(pathbuf, sizeof(pathbuf)) : gen_ptr();
		/* create, write, a directory (O_DIRECTORY, for fchdir and getdents) or random */
		c->a[2] = below(4) ? (uint64_t[]){0x41, 0x241, 0x10000, 0x442}[below(4)] : rnd();
		c->a[3] = below(2) ? 0666 : gen_int();
		c->path = pathbuf;
		break;
	case __NR_aslrbench_lab:
		c->a[0] = below(8);
		if (!unpriv && (c->a[0] == 4 || c->a[0] == 5))
			c->a[0] = 99; /* root's attack and aslr suites run for minutes */
		c->a[1] = gen_ptr();
		c->a[2] = gen_int();
		break;
	default:
		break;
	}
	c->nr |= (long)hi;
}
