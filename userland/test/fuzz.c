/*
 * The syscall fuzzer's ring-3 side (mode=fuzz; kernel/test/fuzz_job.c runs
 * it and checks the kernel after every program).
 *
 *   fuzz SEED NCALLS UID [FROM [SKIPS [list]]]
 *
 * SEED (hex) drives a splitmix64 stream: every call draws its number and
 * typed arguments from it, so the same SEED gives the same program.  Calls
 * before FROM and those in SKIPS ("i,j,k" or "-") are drawn but not made
 * (the minimiser's subsets); "list" prints each call made as a C-like line.
 * UID 1000 drops root first; such a process checks after every credential
 * call that it never became root again (exit 99).  Before each call it
 * tells the kernel (fuzz_note) its seed and call index, which a panic or the
 * watchdog prints.  Children (fork) run CHILD_CALLS calls of their own seed.
 */
#include "userland/test/fuzz.h"

#define CHILD_CALLS 25
#define EXIT_PRIV   99
#define EXIT_FPU    98 /* a system call changed our SSE or AVX registers */

static uint64_t seed0;
static int listing;
static char skips[128];

/* The table's name of a call, 0 for a number it does not hold. */
static const char *name_of(long nr)
{
	static const char *const n[NR_syscalls] = {
#define __SYSCALL(nr, name, entry, fuzz, lock) [nr] = #name,
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
	};

	return nr >= 0 && (unsigned long)nr < NR_syscalls ? n[nr] : 0;
}

/* One line per call, written at once (a forked child's lines interleave whole). */
static void list_call(uint64_t idx, const struct call *c, uint64_t flags, long ret)
{
	const char *nm = name_of(c->nr);
	char line[300], name[32], a01[200];
	int n;

	if (nm)
		snprintf(name, sizeof(name), "%s(", nm);
	else
		snprintf(name, sizeof(name), "syscall(0x%lx, ", c->nr);
	if (c->path)
		snprintf(a01, sizeof(a01), "\"%s\", 0x%lx", c->path, c->a[1]);
	else
		snprintf(a01, sizeof(a01), "0x%lx, 0x%lx", c->a[0], c->a[1]);
	n = snprintf(line, sizeof(line),
		     "  /* %lx#%lu%s */ %s%s, 0x%lx, 0x%lx, 0x%lx, 0x%lx); /* = %ld", seed0, idx,
		     depth ? " child" : "", name, a01, c->a[2], c->a[3], c->a[4], c->a[5], ret);
	if (flags && n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", RFLAGS |= 0x%lx", flags);
	if (n > 0 && (size_t)n < sizeof(line) - 5) {
		memcpy(line + n, " */\n", 5);
		sys(__NR_write, 1, line, (size_t)n + 4);
	}
}

/* SKIPS: "a,b-c,...": single calls and inclusive ranges. */
static int skipped(uint64_t idx)
{
	const char *p = skips;

	while (*p) {
		uint64_t a = 0, b;

		while (*p >= '0' && *p <= '9')
			a = a * 10 + (uint64_t)(*p++ - '0');
		b = a;
		if (*p == '-')
			for (b = 0, p++; *p >= '0' && *p <= '9';)
				b = b * 10 + (uint64_t)(*p++ - '0');
		if (idx >= a && idx <= b)
			return 1;
		while (*p && *p != ',')
			p++;
		if (*p)
			p++;
	}
	return 0;
}

static void check_creds(uint64_t idx)
{
	uint32_t r = 0, e = 0, s = 0;

	sys(__NR_getresuid, &r, &e, &s);
	if (unpriv && (!r || !e || !s || !sys(__NR_geteuid))) {
		printf("fuzz: FAIL privilege: seed %lx call %lu: uid 1000 became %u/%u/%u\n", seed0,
		       idx, r, e, s);
		exit(EXIT_PRIV);
	}
}

static void note_result(const struct call *c, long ret)
{
	switch ((uint32_t)c->nr) {
	case __NR_open:
	case __NR_openat:
		if (ret >= 0)
			add_res(resv_fd, &nfd, (uint64_t)ret);
		break;
	case __NR_spawn:
		if (ret > 0)
			add_res(resv_pid, &npid, (uint64_t)ret);
		break;
	case __NR_mmap:
		if (ret > 0 && (uint64_t)ret < 0x0000800000000000ULL) {
			static unsigned rr;
			int i = nmap < MAX_RES ? nmap++ : (int)(rr++ % MAX_RES);

			map_addr[i] = (uint64_t)ret;
			map_len[i] = c->a[1];
		}
		break;
	default:
		break;
	}
}

/*
 * The call, sometimes with RFLAGS.NT, AC or DF set by user code (cleared
 * again after): none of them may reach the kernel (NT left set across a
 * syscall once triple-faulted the machine).  The vector registers hold a
 * pattern across it, compared after (the syscall ABI keeps them; a kernel
 * using SIMD without saving them changed them): ymm0-15 where the OS has
 * enabled AVX (the kernel saves them with XSAVE, and chacha20-wide's
 * refill uses them), else xmm0-15.
 */
static int have_avx;
static uint8_t regs_in[512] __attribute__((aligned(32))),
	regs_out[512] __attribute__((aligned(32)));

#define VEC_CLOBBERS                                                                               \
	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",   \
		"xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* CPUID.1:ECX.OSXSAVE and AVX, and XCR0 with SSE and AVX: ymm is ours to use. */
static int os_has_avx(void)
{
	uint32_t a = 1, b, c, d, lo, hi;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d) : "c"(0));
	if (!(c & (1u << 27)) || !(c & (1u << 28)))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 6) == 6;
}

static long make_call_xmm(const struct call *c, uint64_t flags)
{
	register long r10 __asm__("r10") = (long)c->a[3];
	register long r8 __asm__("r8") = (long)c->a[4];
	register long r9 __asm__("r9") = (long)c->a[5];
	long ret;

	__asm__ volatile(
		"movdqa 0x00(%[in]), %%xmm0; movdqa 0x10(%[in]), %%xmm1;"
		"movdqa 0x20(%[in]), %%xmm2; movdqa 0x30(%[in]), %%xmm3;"
		"movdqa 0x40(%[in]), %%xmm4; movdqa 0x50(%[in]), %%xmm5;"
		"movdqa 0x60(%[in]), %%xmm6; movdqa 0x70(%[in]), %%xmm7;"
		"movdqa 0x80(%[in]), %%xmm8; movdqa 0x90(%[in]), %%xmm9;"
		"movdqa 0xa0(%[in]), %%xmm10; movdqa 0xb0(%[in]), %%xmm11;"
		"movdqa 0xc0(%[in]), %%xmm12; movdqa 0xd0(%[in]), %%xmm13;"
		"movdqa 0xe0(%[in]), %%xmm14; movdqa 0xf0(%[in]), %%xmm15;"
		"pushfq; orq %[f], (%%rsp); popfq; syscall;"
		"pushfq; andq %[nf], (%%rsp); popfq;"
		"movdqa %%xmm0, 0x00(%[out]); movdqa %%xmm1, 0x10(%[out]);"
		"movdqa %%xmm2, 0x20(%[out]); movdqa %%xmm3, 0x30(%[out]);"
		"movdqa %%xmm4, 0x40(%[out]); movdqa %%xmm5, 0x50(%[out]);"
		"movdqa %%xmm6, 0x60(%[out]); movdqa %%xmm7, 0x70(%[out]);"
		"movdqa %%xmm8, 0x80(%[out]); movdqa %%xmm9, 0x90(%[out]);"
		"movdqa %%xmm10, 0xa0(%[out]); movdqa %%xmm11, 0xb0(%[out]);"
		"movdqa %%xmm12, 0xc0(%[out]); movdqa %%xmm13, 0xd0(%[out]);"
		"movdqa %%xmm14, 0xe0(%[out]); movdqa %%xmm15, 0xf0(%[out])"
		: "=a"(ret)
		: "a"(c->nr), "D"(c->a[0]), "S"(c->a[1]), "d"(c->a[2]), "r"(r10), "r"(r8),
		  "r"(r9), [f] "r"(flags), [nf] "r"(~flags), [in] "r"(regs_in), [out] "r"(regs_out)
		: "rcx", "r11", "memory", "cc", VEC_CLOBBERS);
	return ret;
}

static long make_call_ymm(const struct call *c, uint64_t flags)
{
	register long r10 __asm__("r10") = (long)c->a[3];
	register long r8 __asm__("r8") = (long)c->a[4];
	register long r9 __asm__("r9") = (long)c->a[5];
	long ret;

	__asm__ volatile(
		"vmovdqa 0x000(%[in]), %%ymm0; vmovdqa 0x020(%[in]), %%ymm1;"
		"vmovdqa 0x040(%[in]), %%ymm2; vmovdqa 0x060(%[in]), %%ymm3;"
		"vmovdqa 0x080(%[in]), %%ymm4; vmovdqa 0x0a0(%[in]), %%ymm5;"
		"vmovdqa 0x0c0(%[in]), %%ymm6; vmovdqa 0x0e0(%[in]), %%ymm7;"
		"vmovdqa 0x100(%[in]), %%ymm8; vmovdqa 0x120(%[in]), %%ymm9;"
		"vmovdqa 0x140(%[in]), %%ymm10; vmovdqa 0x160(%[in]), %%ymm11;"
		"vmovdqa 0x180(%[in]), %%ymm12; vmovdqa 0x1a0(%[in]), %%ymm13;"
		"vmovdqa 0x1c0(%[in]), %%ymm14; vmovdqa 0x1e0(%[in]), %%ymm15;"
		"pushfq; orq %[f], (%%rsp); popfq; syscall;"
		"pushfq; andq %[nf], (%%rsp); popfq;"
		"vmovdqa %%ymm0, 0x000(%[out]); vmovdqa %%ymm1, 0x020(%[out]);"
		"vmovdqa %%ymm2, 0x040(%[out]); vmovdqa %%ymm3, 0x060(%[out]);"
		"vmovdqa %%ymm4, 0x080(%[out]); vmovdqa %%ymm5, 0x0a0(%[out]);"
		"vmovdqa %%ymm6, 0x0c0(%[out]); vmovdqa %%ymm7, 0x0e0(%[out]);"
		"vmovdqa %%ymm8, 0x100(%[out]); vmovdqa %%ymm9, 0x120(%[out]);"
		"vmovdqa %%ymm10, 0x140(%[out]); vmovdqa %%ymm11, 0x160(%[out]);"
		"vmovdqa %%ymm12, 0x180(%[out]); vmovdqa %%ymm13, 0x1a0(%[out]);"
		"vmovdqa %%ymm14, 0x1c0(%[out]); vmovdqa %%ymm15, 0x1e0(%[out]);"
		"vzeroupper"
		: "=a"(ret)
		: "a"(c->nr), "D"(c->a[0]), "S"(c->a[1]), "d"(c->a[2]), "r"(r10), "r"(r8),
		  "r"(r9), [f] "r"(flags), [nf] "r"(~flags), [in] "r"(regs_in), [out] "r"(regs_out)
		: "rcx", "r11", "memory", "cc", VEC_CLOBBERS);
	return ret;
}

static long make_call(const struct call *c, uint64_t flags)
{
	for (int i = 0; i < (int)sizeof(regs_in); i++)
		regs_in[i] = (uint8_t)(c->nr * 7 + c->a[0] + (uint64_t)i * 13);
	return have_avx ? make_call_ymm(c, flags) : make_call_xmm(c, flags);
}

/* After make_call (in the parent and in a fork's child alike). */
static void check_fpu(uint64_t idx, const struct call *c)
{
	if (!memcmp(regs_in, regs_out, have_avx ? 512 : 256))
		return;
	printf("fuzz: FAIL fpu: seed %lx call %lu: syscall %ld (%s) changed %s0-15\n", seed0, idx,
	       c->nr, name_of(c->nr) ? name_of(c->nr) : "?", have_avx ? "ymm" : "xmm");
	exit(EXIT_FPU);
}

/*
 * A vfork, or a clone whose child must not run our code (CLONE_VM: it
 * shares our stack and variables; a new stack; or forks nested deep
 * enough): the child exits at once, from this stub, touching no memory.
 */
static long make_call_child_exits(const struct call *c)
{
	register long r10 __asm__("r10") = (long)c->a[3];
	register long r8 __asm__("r8") = (long)c->a[4];
	register long r9 __asm__("r9") = (long)c->a[5];
	long ret;

	__asm__ volatile("syscall; test %%rax, %%rax; jnz 1f;"
			 "mov $60, %%eax; xor %%edi, %%edi; syscall; 1:"
			 : "=a"(ret)
			 : "a"(c->nr), "D"(c->a[0]), "S"(c->a[1]), "d"(c->a[2]), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory", "cc");
	return ret;
}

/*
 * A thread (clone with FUZZ_THREAD_FLAGS on a fresh mmap'd stack): it makes
 * 1 to 32 calls drawn from its seed in registers only (sched_yield, getpid,
 * gettid, getppid, rt_sigprocmask, clock_gettime, nanosleep and futex with
 * small arguments: errors or nothing) and exits, touching no memory, so its
 * life and exit race the process's own calls, its exit_group, its signals
 * and exec.  The kernel zeroes the slot's word (CHILD_CLEARTID) at the
 * thread's exit; its stack is unmapped after that, or with the process.
 */
#define THREAD_STACK 16384
#define NR_THREADS   4
static struct {
	int tid; /* CHILD_SETTID / CLEARTID: 0 once the thread is gone */
	uint64_t stack;
} threads[NR_THREADS];

static long make_thread(uint64_t s)
{
	/* the call numbers, one per byte: 24 39 186 110 14 228 35 202 */
	register uint64_t nrs __asm__("r14") = 0xca23e40e6eba2718ULL;
	register uint64_t seed __asm__("rbx") = s | 1; /* xorshift's state is never 0 */
	register uint64_t count __asm__("r12") = (s & 31) + 1;
	register long r10 __asm__("r10");
	register long r8 __asm__("r8") = 0;
	int slot = -1;
	long stack, ret;

	for (int i = 0; i < NR_THREADS; i++) {
		if (threads[i].stack && !*(volatile int *)&threads[i].tid) {
			sys(__NR_munmap, threads[i].stack, THREAD_STACK);
			threads[i].stack = 0;
		}
		if (!threads[i].stack && slot < 0)
			slot = i;
	}
	if (slot < 0)
		return -11; /* EAGAIN: four live already */
	stack = sys(__NR_mmap, 0, THREAD_STACK, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack < 0 && stack > -4096)
		return stack;
	r10 = (long)&threads[slot].tid;
	__asm__ volatile("syscall; test %%rax, %%rax; jnz 3f;"
			 "1: test %%r12, %%r12; jz 2f; dec %%r12;"
			 /* xorshift64 on rbx */
			 "mov %%rbx, %%rax; shl $13, %%rax; xor %%rax, %%rbx;"
			 "mov %%rbx, %%rax; shr $7, %%rax; xor %%rax, %%rbx;"
			 "mov %%rbx, %%rax; shl $17, %%rax; xor %%rax, %%rbx;"
			 "mov %%ebx, %%ecx; and $7, %%ecx; shl $3, %%ecx;"
			 "mov %%r14, %%rax; shr %%cl, %%rax; and $0xff, %%eax;"
			 "mov %%rbx, %%rdi; shr $8, %%rdi; and $3, %%edi;"
			 "xor %%esi, %%esi; xor %%edx, %%edx; mov $8, %%r10d; syscall; jmp 1b;"
			 "2: mov $60, %%eax; xor %%edi, %%edi; syscall;"
			 "3:"
			 : "=a"(ret)
			 : "a"(__NR_clone), "D"(FUZZ_THREAD_FLAGS | 0x01000000 | 0x00200000),
			   "S"(stack + THREAD_STACK), "d"(0), "r"(r10), "r"(r8), "r"(nrs),
			   "b"(seed), "r"(count)
			 : "rcx", "r11", "memory", "cc");
	if (ret < 0)
		sys(__NR_munmap, stack, THREAD_STACK);
	else
		threads[slot].stack = (uint64_t)stack;
	return ret;
}

/* A forged rt_sigreturn frame may send its child here: exit(0), touching no memory. */
__asm__(".globl fuzz_landing\n"
	"fuzz_landing: mov $60, %eax; xor %edi, %edi; syscall\n");

/*
 * rt_sigreturn in a child (fork, then the call on the forged frame at sp):
 * the child dies by SIGSEGV or lands in fuzz_landing; we go on.
 */
static long sigreturn_in_child(uint64_t sp)
{
	long ret;

	__asm__ volatile("mov $57, %%eax; syscall; test %%rax, %%rax; jnz 1f;"
			 "mov %[sp], %%rsp; mov $15, %%eax; syscall;"
			 "mov $60, %%eax; mov $1, %%edi; syscall; 1:"
			 : "=&a"(ret)
			 : [sp] "r"(sp)
			 : "rcx", "r11", "rdi", "memory", "cc");
	return ret;
}

static void run(uint64_t ncalls, uint64_t from);

static void child(uint64_t idx)
{
	depth++;
	seed0 = seed0 * 31 + idx + 1;
	state = seed0;
	npid = 0;
	skips[0] = '\0';
	run(CHILD_CALLS, 0);
	exit(0);
}

static void run(uint64_t ncalls, uint64_t from)
{
	for (uint64_t i = 0; i < ncalls; i++) {
		struct call c;
		long ret;

		static const uint64_t fl[] = {0x4000, 0x40000, 0x400, 0x44400}; /* NT, AC, DF */
		uint64_t flags;

		gen_call(&c, i);
		flags = below(16) ? 0 : fl[below(4)];
		if (i < from || skipped(i))
			continue;
		sys(__NR_fuzz_note, seed0, i);
		if (c.nr == __NR_rt_sigreturn)
			ret = sigreturn_in_child(c.a[0]);
		else if ((uint32_t)c.nr == __NR_clone && c.a[0] == FUZZ_THREAD_FLAGS)
			/* its seed from the program's and the call's index: no draw from the stream
			 */
			ret = make_thread(seed0 * 0x9e3779b97f4a7c15ULL + i);
		else if ((uint32_t)c.nr == __NR_vfork ||
			 ((uint32_t)c.nr == __NR_clone &&
			  ((c.a[0] & 0x100) || c.a[1] || depth >= 2 || npid >= 8)))
			ret = make_call_child_exits(&c);
		else {
			ret = make_call(&c, flags);
			check_fpu(i, &c);
		}
		if (listing)
			list_call(i, &c, flags, ret);
		if ((uint32_t)c.nr == __NR_vfork || (uint32_t)c.nr == __NR_clone) {
			if (ret == 0)
				child(i); /* a clone that is a fork: its child fuzzes too */
			/* a thread's id is not a child to wait for or signal (kill would end us) */
			if (ret > 0 && !(c.a[0] & 0x00010000))
				add_res(resv_pid, &npid, (uint64_t)ret);
		}
		if (c.nr == __NR_rt_sigreturn && ret > 0)
			add_res(resv_pid, &npid, (uint64_t)ret);
		if ((uint32_t)c.nr == __NR_fork) {
			if (ret == 0)
				child(i);
			if (ret > 0)
				add_res(resv_pid, &npid, (uint64_t)ret);
		}
		note_result(&c, ret);
		if ((uint32_t)c.nr == __NR_setuid || (uint32_t)c.nr == __NR_setresuid ||
		    (uint32_t)c.nr == __NR_execve)
			check_creds(i);
	}
}

static uint64_t hex(const char *s)
{
	uint64_t v = 0;

	for (; *s; s++)
		v = v * 16 + (uint64_t)(*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
	return v;
}

/*
 * A file for file-backed mmap: two pages and a half of the scratch, in /tmp
 * (writable by uid 1000 too), unlinked at once so that only this program's
 * fd and mappings hold it and nothing is left behind.
 */
static void open_map_file(void)
{
	char path[48];

	snprintf(path, sizeof(path), "/tmp/fuzz-map.%ld", (long)sys(__NR_getpid));
	map_fd = (int)sys(__NR_open, path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (map_fd >= 0 && sys(__NR_write, map_fd, scratch, 2 * 4096 + 2048) != 2 * 4096 + 2048)
		printf("fuzz: short write to %s\n", path);
	sys(__NR_unlink, path);
}

int main(int argc, char **argv)
{
	uint64_t ncalls, from = 0, uid;
	long m, guard;
	int status;

	if (argc < 4) {
		printf("usage: fuzz SEED NCALLS UID [FROM [SKIPS [list]]]\n");
		return 2;
	}
	seed0 = state = hex(argv[1]);
	have_avx = os_has_avx();
	ncalls = (uint64_t)atol(argv[2]);
	uid = (uint64_t)atol(argv[3]);
	if (argc > 4)
		from = (uint64_t)atol(argv[4]);
	if (argc > 5 && strcmp(argv[5], "-"))
		strlcpy(skips, argv[5], sizeof(skips));
	listing = argc > 6 && !strcmp(argv[6], "list");
	{
		/*
		 * SIGPIPE ignored (SIG_IGN, as a Linux program that wants EPIPE):
		 * its default would end a fuzz process at its first write to a
		 * pipe without readers, long before its calls are made.
		 */
		static const uint64_t ign[4] = {1, 0, 0, 0};

		sys(__NR_rt_sigaction, 13, (long)ign, 0, 8, 0, 0);
	}
	if (uid) {
		sys(__NR_setresgid, uid, uid, uid);
		sys(__NR_setresuid, uid, uid, uid);
		unpriv = 1;
		check_creds(0);
	}
	/*
	 * A PROT_NONE page first (top-down, it lands highest), then the scratch
	 * right below it: the guard can never be mapped again by a later mmap.
	 */
	guard = sys(__NR_mmap, 0, 4096, 0, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m = sys(__NR_mmap, 0, SCRATCH_LEN, 3, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard < 0 || m < 0 || (uint64_t)m + SCRATCH_LEN != (uint64_t)guard) {
		printf("fuzz: no scratch mapping below a guard (%ld, %ld)\n", m, guard);
		return 3;
	}
	scratch = (char *)m;
	straddle = (uint64_t)guard;
	for (size_t i = 0; i < SCRATCH_LEN; i++)
		scratch[i] = (char)(i * 7);
	m = sys(__NR_mmap, 0, 4096, 3, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	futex_page = m < 0 ? 0 : (uint64_t)m;
	open_map_file();
	run(ncalls, from);
	while (sys(__NR_wait4, -1, &status, 0, 0) > 0)
		;
	return 0;
}
