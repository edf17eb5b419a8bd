/*
 * lx_fpu: a system call, a context switch and a signal leave the caller's
 * SSE and AVX registers as they were.
 *
 * Why: the x86_64 syscall ABI preserves xmm0-15 across `syscall` (only rax,
 * rcx and r11 change), so a kernel that uses SIMD itself must save and
 * restore the interrupted task's state around it (Linux's
 * kernel_fpu_begin()/kernel_fpu_end()).  Each check loads all sixteen
 * registers with distinct patterns, makes the raw call and compares, in one
 * asm block so that no compiler-generated code touches them in between.
 * The calls are the ones that reach the RNG's bulk and batch paths:
 * getrandom (318) and fork (57), whose child draws its stack canary.
 *
 * Where the CPU has AVX, the OS must enable it (CPUID.1:ECX.OSXSAVE,
 * XCR0) and keep ymm0-15 whole the same way (fork's canary draw refills
 * chacha20-wide's batch with its AVX2 or AVX-512F body in this kernel),
 * across a switch to a process with other values, and across a signal
 * whose handler clobbers them.  The signal frame must carry them as
 * Linux 6.6's does (uc_flags UC_FP_XSTATE, the xstate magics of
 * arch/x86/include/uapi/asm/sigcontext.h), a handler that edits the frame
 * must see its edit restored, a frame without the magics restores xmm and
 * clears the upper halves, and a frame whose XSAVE header XRSTOR would
 * refuse kills with SIGSEGV.  zmm0-31 too where AVX-512 is on.  The same
 * binary runs on the host's Linux (tests/sh/linux-abi.sh).
 */
#include <cpuid.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "lx_check.h"

#define NR_GETRANDOM 318
#define NR_FORK	     57
#define NR_GETPID    39
#define NR_YIELD     24
#define NR_KILL	     62

/* Loads xmm0-15 from @in, makes syscall @nr(a0, a1, 0), stores them to @out. */
static long xmm_call(const void *in, void *out, long nr, long a0, long a1)
{
	register long r10 __asm__("r10") = 0;
	long ret;

	__asm__ volatile(
		"movdqu 0x00(%[in]), %%xmm0\n\t"
		"movdqu 0x10(%[in]), %%xmm1\n\t"
		"movdqu 0x20(%[in]), %%xmm2\n\t"
		"movdqu 0x30(%[in]), %%xmm3\n\t"
		"movdqu 0x40(%[in]), %%xmm4\n\t"
		"movdqu 0x50(%[in]), %%xmm5\n\t"
		"movdqu 0x60(%[in]), %%xmm6\n\t"
		"movdqu 0x70(%[in]), %%xmm7\n\t"
		"movdqu 0x80(%[in]), %%xmm8\n\t"
		"movdqu 0x90(%[in]), %%xmm9\n\t"
		"movdqu 0xa0(%[in]), %%xmm10\n\t"
		"movdqu 0xb0(%[in]), %%xmm11\n\t"
		"movdqu 0xc0(%[in]), %%xmm12\n\t"
		"movdqu 0xd0(%[in]), %%xmm13\n\t"
		"movdqu 0xe0(%[in]), %%xmm14\n\t"
		"movdqu 0xf0(%[in]), %%xmm15\n\t"
		"syscall\n\t"
		"movdqu %%xmm0, 0x00(%[out])\n\t"
		"movdqu %%xmm1, 0x10(%[out])\n\t"
		"movdqu %%xmm2, 0x20(%[out])\n\t"
		"movdqu %%xmm3, 0x30(%[out])\n\t"
		"movdqu %%xmm4, 0x40(%[out])\n\t"
		"movdqu %%xmm5, 0x50(%[out])\n\t"
		"movdqu %%xmm6, 0x60(%[out])\n\t"
		"movdqu %%xmm7, 0x70(%[out])\n\t"
		"movdqu %%xmm8, 0x80(%[out])\n\t"
		"movdqu %%xmm9, 0x90(%[out])\n\t"
		"movdqu %%xmm10, 0xa0(%[out])\n\t"
		"movdqu %%xmm11, 0xb0(%[out])\n\t"
		"movdqu %%xmm12, 0xc0(%[out])\n\t"
		"movdqu %%xmm13, 0xd0(%[out])\n\t"
		"movdqu %%xmm14, 0xe0(%[out])\n\t"
		"movdqu %%xmm15, 0xf0(%[out])\n\t"
		: "=a"(ret)
		: "a"(nr), "D"(a0), "S"(a1), "d"(0L), "r"(r10), [in] "r"(in), [out] "r"(out)
		: "rcx", "r11", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return ret;
}

/* Loads a register file from @in, makes syscall @nr(a0, a1, 0), stores it to @out. */
typedef long (*keep_call)(const void *in, void *out, long nr, long a0, long a1);

/*
 * @n calls of @nr, each with the @size bytes of registers @call loads
 * filled from @seed; how many changed a register (-1: a call failed).
 * fork's child checks its own copy and exits non-zero on a change.
 */
static int changed_by(keep_call call, size_t size, long nr, int n, unsigned seed)
{
	static uint8_t in[2048], out[2048]; /* up to zmm0-31 */
	uint8_t buf[256];
	int bad = 0;

	for (int i = 0; i < n; i++) {
		long ret;

		for (size_t j = 0; j < size; j++)
			in[j] = (uint8_t)((seed + (unsigned)i) * 151 + j * 11 + 3);
		if (nr == NR_GETRANDOM)
			ret = call(in, out, nr, (long)buf, (long)(16 + i % 240));
		else
			ret = call(in, out, nr, 0, 0);
		if (nr == NR_FORK && ret == 0)
			_exit(memcmp(in, out, size) ? 3 : 0);
		if (ret < 0)
			return -1;
		if (memcmp(in, out, size))
			bad++;
		if (nr == NR_FORK) {
			int status;

			if (waitpid((pid_t)ret, &status, 0) != ret || !WIFEXITED(status) ||
			    WEXITSTATUS(status))
				bad++;
		}
	}
	return bad;
}

/* ---- AVX: ymm0-15 ------------------------------------------------------------ */

struct ymm_file {
	uint8_t r[16][32];
};

static void ymm_pattern(struct ymm_file *f, unsigned seed)
{
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 32; j++)
			f->r[i][j] = (uint8_t)(seed * 151 + i * 29 + j * 11 + 3);
}

#define YMM_CLOBBERS                                                                               \
	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",   \
		"xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* Loads ymm0-15 from @in, makes syscall @nr(a0, a1, 0), stores them to @out. */
static long ymm_call(const void *in, void *out, long nr, long a0, long a1)
{
	long ret;

	__asm__ volatile("vmovdqu 0x000(%[in]), %%ymm0\n\t"
			 "vmovdqu 0x020(%[in]), %%ymm1\n\t"
			 "vmovdqu 0x040(%[in]), %%ymm2\n\t"
			 "vmovdqu 0x060(%[in]), %%ymm3\n\t"
			 "vmovdqu 0x080(%[in]), %%ymm4\n\t"
			 "vmovdqu 0x0a0(%[in]), %%ymm5\n\t"
			 "vmovdqu 0x0c0(%[in]), %%ymm6\n\t"
			 "vmovdqu 0x0e0(%[in]), %%ymm7\n\t"
			 "vmovdqu 0x100(%[in]), %%ymm8\n\t"
			 "vmovdqu 0x120(%[in]), %%ymm9\n\t"
			 "vmovdqu 0x140(%[in]), %%ymm10\n\t"
			 "vmovdqu 0x160(%[in]), %%ymm11\n\t"
			 "vmovdqu 0x180(%[in]), %%ymm12\n\t"
			 "vmovdqu 0x1a0(%[in]), %%ymm13\n\t"
			 "vmovdqu 0x1c0(%[in]), %%ymm14\n\t"
			 "vmovdqu 0x1e0(%[in]), %%ymm15\n\t"
			 "syscall\n\t"
			 "vmovdqu %%ymm0, 0x000(%[out])\n\t"
			 "vmovdqu %%ymm1, 0x020(%[out])\n\t"
			 "vmovdqu %%ymm2, 0x040(%[out])\n\t"
			 "vmovdqu %%ymm3, 0x060(%[out])\n\t"
			 "vmovdqu %%ymm4, 0x080(%[out])\n\t"
			 "vmovdqu %%ymm5, 0x0a0(%[out])\n\t"
			 "vmovdqu %%ymm6, 0x0c0(%[out])\n\t"
			 "vmovdqu %%ymm7, 0x0e0(%[out])\n\t"
			 "vmovdqu %%ymm8, 0x100(%[out])\n\t"
			 "vmovdqu %%ymm9, 0x120(%[out])\n\t"
			 "vmovdqu %%ymm10, 0x140(%[out])\n\t"
			 "vmovdqu %%ymm11, 0x160(%[out])\n\t"
			 "vmovdqu %%ymm12, 0x180(%[out])\n\t"
			 "vmovdqu %%ymm13, 0x1a0(%[out])\n\t"
			 "vmovdqu %%ymm14, 0x1c0(%[out])\n\t"
			 "vmovdqu %%ymm15, 0x1e0(%[out])\n\t"
			 "vzeroupper"
			 : "=a"(ret)
			 : "a"(nr), "D"(a0), "S"(a1), "d"(0L), [in] "r"(in), [out] "r"(out)
			 : "rcx", "r11", "memory", YMM_CLOBBERS);
	return ret;
}

/* sched_yield beside a child that holds other values: both must keep their own. */
static int ymm_kept_across_switches(int n)
{
	int status, bad;
	pid_t pid = fork();

	if (pid == 0)
		_exit(changed_by(ymm_call, 512, NR_YIELD, n, 7000) ? 1 : 0);
	if (pid < 0)
		return 0;
	bad = changed_by(ymm_call, 512, NR_YIELD, n, 9000);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) &&
	       bad == 0;
}

/* ---- AVX: the signal frame ---------------------------------------------------- */

/* arch/x86/include/uapi/asm/sigcontext.h */
#define FP_XSTATE_MAGIC1 0x46505853u
#define FP_XSTATE_MAGIC2 0x46505845u
#define UC_FP_XSTATE	 0x1
#define SW_BYTES	 464 /* struct _fpx_sw_bytes in the legacy image */
#define XSAVE_HDR	 512
#define YMM_HI_OFFSET	 576 /* the AVX component: ymm0-15's upper halves, 16 bytes each */

enum handler_act { ACT_CLOBBER, ACT_LOOK, ACT_EDIT, ACT_NO_MAGIC, ACT_BAD_HEADER };
static volatile enum handler_act act;
static volatile int frame_ok;
static struct ymm_file expect_in; /* what the interrupted code had */
static const uint8_t new_hi[16] = {0xa5, 0x5a, 0xc3, 0x3c, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Does the frame say, as Linux's does, that it holds XSAVE's area with ymm0-15's halves? */
static int frame_has_xstate(const ucontext_t *uc, const uint8_t *fp)
{
	uint32_t size = rd32(fp + SW_BYTES + 16);
	uint64_t xfeatures;

	memcpy(&xfeatures, fp + SW_BYTES + 8, sizeof(xfeatures));
	if (!(uc->uc_flags & UC_FP_XSTATE) || rd32(fp + SW_BYTES) != FP_XSTATE_MAGIC1)
		return 0;
	if (rd32(fp + SW_BYTES + 4) != size + 4 || (xfeatures & 7) != 7 || size < 832)
		return 0;
	if (rd32(fp + size) != FP_XSTATE_MAGIC2)
		return 0;
	for (int i = 0; i < 16; i++)
		if (memcmp(fp + YMM_HI_OFFSET + 16 * i, expect_in.r[i] + 16, 16))
			return 0;
	return 1;
}

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uint8_t *fp = (uint8_t *)uc->uc_mcontext.fpregs;

	(void)sig;
	(void)si;
	/* the handler's own use of ymm: every bit set in all sixteen */
	__asm__ volatile("vpcmpeqd %%ymm0, %%ymm0, %%ymm0\n\t"
			 "vmovdqa %%ymm0, %%ymm1\n\tvmovdqa %%ymm0, %%ymm2\n\t"
			 "vmovdqa %%ymm0, %%ymm3\n\tvmovdqa %%ymm0, %%ymm4\n\t"
			 "vmovdqa %%ymm0, %%ymm5\n\tvmovdqa %%ymm0, %%ymm6\n\t"
			 "vmovdqa %%ymm0, %%ymm7\n\tvmovdqa %%ymm0, %%ymm8\n\t"
			 "vmovdqa %%ymm0, %%ymm9\n\tvmovdqa %%ymm0, %%ymm10\n\t"
			 "vmovdqa %%ymm0, %%ymm11\n\tvmovdqa %%ymm0, %%ymm12\n\t"
			 "vmovdqa %%ymm0, %%ymm13\n\tvmovdqa %%ymm0, %%ymm14\n\t"
			 "vmovdqa %%ymm0, %%ymm15\n\t"
			 "vzeroupper" ::
				 : YMM_CLOBBERS);
	if (!fp)
		return;
	if (act == ACT_LOOK)
		frame_ok = frame_has_xstate(uc, fp);
	else if (act == ACT_EDIT)
		memcpy(fp + YMM_HI_OFFSET + 16 * 2, new_hi, sizeof(new_hi));
	else if (act == ACT_NO_MAGIC)
		memset(fp + SW_BYTES, 0, 4);
	else if (act == ACT_BAD_HEADER)
		fp[XSAVE_HDR + 7] |= 0x40; /* XSTATE_BV bit 62: in no XCR0 */
}

/* kill(getpid(), SIGUSR1) with ymm0-15 loaded from @in; @out: what came back. */
static int ymm_signal(enum handler_act a, unsigned seed, struct ymm_file *out)
{
	struct sigaction sa = {0};

	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGUSR1, &sa, 0))
		return -1;
	act = a;
	frame_ok = 0;
	ymm_pattern(&expect_in, seed);
	return ymm_call(&expect_in, out, NR_KILL, getpid(), SIGUSR1) ? -1 : 0;
}

static int signal_keeps_ymm(void)
{
	struct ymm_file out;

	return !ymm_signal(ACT_CLOBBER, 100, &out) && !memcmp(&expect_in, &out, sizeof(out));
}

static int signal_frame_carries_ymm(void)
{
	struct ymm_file out;

	return !ymm_signal(ACT_LOOK, 200, &out) && frame_ok;
}

static int signal_frame_edit_restored(void)
{
	struct ymm_file out, want;

	if (ymm_signal(ACT_EDIT, 300, &out))
		return 0;
	want = expect_in;
	memcpy(want.r[2] + 16, new_hi, sizeof(new_hi));
	return !memcmp(&want, &out, sizeof(out));
}

static int signal_frame_without_magic(void)
{
	struct ymm_file out;

	if (ymm_signal(ACT_NO_MAGIC, 400, &out))
		return 0;
	for (int i = 0; i < 16; i++) {
		static const uint8_t zero[16];

		if (memcmp(out.r[i], expect_in.r[i], 16) || memcmp(out.r[i] + 16, zero, 16))
			return 0;
	}
	return 1;
}

static int signal_bad_header_kills(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct ymm_file out;

		ymm_signal(ACT_BAD_HEADER, 500, &out);
		_exit(0); /* sigreturn took the frame */
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	       WTERMSIG(status) == SIGSEGV;
}

/* ---- AVX-512: zmm0-31 ---------------------------------------------------------- */

#define ZMM_LOAD(i)			 "vmovdqu64 " #i "*64(%[in]), %%zmm" #i "\n\t"
#define ZMM_STORE(i)			 "vmovdqu64 %%zmm" #i ", " #i "*64(%[out])\n\t"
#define ZMM_8(M, a, b, c, d, e, f, g, h) M(a) M(b) M(c) M(d) M(e) M(f) M(g) M(h)
#define ZMM_LOAD_ALL                                                                               \
	ZMM_8(ZMM_LOAD, 0, 1, 2, 3, 4, 5, 6, 7)                                                    \
	ZMM_8(ZMM_LOAD, 8, 9, 10, 11, 12, 13, 14, 15)                                              \
	ZMM_8(ZMM_LOAD, 16, 17, 18, 19, 20, 21, 22, 23)                                            \
	ZMM_8(ZMM_LOAD, 24, 25, 26, 27, 28, 29, 30, 31)
#define ZMM_STORE_ALL                                                                              \
	ZMM_8(ZMM_STORE, 0, 1, 2, 3, 4, 5, 6, 7)                                                   \
	ZMM_8(ZMM_STORE, 8, 9, 10, 11, 12, 13, 14, 15)                                             \
	ZMM_8(ZMM_STORE, 16, 17, 18, 19, 20, 21, 22, 23)                                           \
	ZMM_8(ZMM_STORE, 24, 25, 26, 27, 28, 29, 30, 31)

/* Loads zmm0-31 from @in, makes syscall @nr(a0, a1, 0), stores them to @out. */
static long zmm_call(const void *in, void *out, long nr, long a0, long a1)
{
	long ret;

	__asm__ volatile(ZMM_LOAD_ALL "syscall\n\t" ZMM_STORE_ALL "vzeroupper"
			 : "=a"(ret)
			 : "a"(nr), "D"(a0), "S"(a1), "d"(0L), [in] "r"(in), [out] "r"(out)
			 : "rcx", "r11", "memory", YMM_CLOBBERS);
	return ret;
}

static int zmm_kept(void)
{
	return changed_by(zmm_call, 2048, NR_GETRANDOM, 1000, 4000) == 0 &&
	       changed_by(zmm_call, 2048, NR_YIELD, 1000, 5000) == 0;
}

/* ---- which state the CPU has and the OS enabled ------------------------------ */

#define CPUID1_ECX_OSXSAVE (1u << 27)
#define CPUID1_ECX_AVX	   (1u << 28)
#define CPUID7_EBX_AVX512F (1u << 16)

static uint64_t os_xcr0(void)
{
	unsigned int a, b, c, d;
	uint32_t lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & CPUID1_ECX_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

int main(void)
{
	unsigned int a, b, c = 0, d, b7 = 0, c7, d7;
	uint64_t xcr0 = os_xcr0();

	check(changed_by(xmm_call, 256, NR_GETPID, 200, 39000) == 0,
	      "xmm0-15 kept across 200 getpid");
	check(changed_by(xmm_call, 256, NR_GETRANDOM, 2000, 318000) == 0,
	      "xmm0-15 kept across 2000 getrandom");
	check(changed_by(xmm_call, 256, NR_FORK, 300, 57000) == 0,
	      "xmm0-15 kept across 300 fork, parent and child");

	__get_cpuid(1, &a, &b, &c, &d);
	__get_cpuid_count(7, 0, &a, &b7, &c7, &d7);
	if (!(c & CPUID1_ECX_AVX)) {
		printf("skip ymm: this CPU has no AVX\n");
		return summary("lx_fpu");
	}
	printf("lx_fpu: XCR0 0x%llx\n", (unsigned long long)xcr0);
	check((xcr0 & 7) == 7,
	      "the OS enables AVX's state (CPUID.1:ECX.OSXSAVE, XCR0 x87|SSE|AVX)");
	if ((xcr0 & 7) != 7)
		return summary("lx_fpu");
	check(changed_by(ymm_call, 512, NR_GETPID, 200, 1000) == 0,
	      "ymm0-15 kept across 200 getpid");
	check(changed_by(ymm_call, 512, NR_GETRANDOM, 2000, 2000) == 0,
	      "ymm0-15 kept across 2000 getrandom");
	check(changed_by(ymm_call, 512, NR_FORK, 300, 3000) == 0,
	      "ymm0-15 kept across 300 fork, parent and child");
	check(ymm_kept_across_switches(2000),
	      "ymm0-15 kept across 2000 sched_yield, beside a process with other values");
	check(signal_keeps_ymm(), "ymm0-15 kept across a signal whose handler sets them all");
	check(signal_frame_carries_ymm(), "the signal frame is XSAVE's area: UC_FP_XSTATE, both "
					  "magics, ymm0-15's upper halves");
	check(signal_frame_edit_restored(), "a handler's edit of ymm2 in the frame comes back");
	check(signal_frame_without_magic(),
	      "a frame without the xstate magic: xmm from it, the upper halves cleared");
	check(signal_bad_header_kills(), "a frame whose XSAVE header XRSTOR refuses: SIGSEGV");
	if ((b7 & CPUID7_EBX_AVX512F) && (xcr0 & 0xe0) == 0xe0)
		check(zmm_kept(), "zmm0-31 kept across 2000 getrandom and sched_yield");
	else
		printf("skip zmm: no AVX-512 enabled (XCR0 0x%llx)\n", (unsigned long long)xcr0);
	return summary("lx_fpu");
}
