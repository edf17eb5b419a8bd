/*
 * xstate.c - a task's FPU, SSE and AVX registers, saved with XSAVE.
 *
 * Why: a program may use ymm and zmm registers (glibc picks its AVX2 and
 * EVEX string functions whenever CPUID and XCR0 allow them), and so may the
 * kernel's chacha20-wide, whose AVX2 and AVX-512F refills are 1.5 to 4
 * times cheaper than its SSSE3 one.  Either is safe only when every place
 * that sets a task's registers aside keeps all of them: the context switch,
 * fork, kernel_fpu_begin() and the signal frames.  FXSAVE keeps x87 and
 * SSE only, so until this file the kernel left CR4.OSXSAVE clear and
 * nothing could use AVX at all.
 *
 * As Linux 6.6 (arch/x86/kernel/fpu/init.c and xstate.c,
 * fpu__init_system_xstate): XCR0 enables every user state component the
 * CPU supports that the kernel saves, and the save area's size is CPUID
 * leaf 0xD's for that XCR0.  This kernel saves x87, SSE, AVX and AVX-512
 * (opmask, ZMM_Hi256, Hi16_ZMM).  It leaves out what Linux also enables:
 * PKRU (protection keys, which this kernel does not implement) and AMX's
 * tile data (which Linux hands out only after arch_prctl asks for it).
 * The format is XSAVE's standard one, not XSAVES's compacted one that
 * Linux uses inside the kernel: it is the format signal frames carry, so
 * a task's area is one copy away from a frame.  Without XSAVE (CPUs before
 * 2008) everything falls back to FXSAVE.
 */
#include <cpuid.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/xstate.h"
#include "kernel/lib/panic.h"
#include "kernel/lib/string.h"

#define CPUID1_ECX_XSAVE   (1u << 26)
#define CPUID1_ECX_AVX	   (1u << 28)
#define CPUID7_EBX_AVX512F (1u << 16)
#define CR4_OSXSAVE	   (1ULL << 18)
#define FX_MXCSR	   24
#define FX_MXCSR_MASK	   28
#define MXCSR_DEFAULT	   0x1f80u /* every exception masked, round to nearest */
#define FCW_DEFAULT	   0x037fu /* what FNINIT sets */

struct fpu_state_config fpu_user_cfg;
uint32_t mxcsr_feature_mask;

static uint8_t init_state[FPU_STATE_MAX] __attribute__((aligned(64)));
const uint8_t *const init_fpstate = init_state;

static void xsetbv(uint32_t index, uint64_t v)
{
	__asm__ volatile("xsetbv" : : "c"(index), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

/* CPUID.(0xD,0).EBX: the standard-format size for the XCR0 now set. */
static unsigned int xstate_size_now(void)
{
	unsigned int a, b, c, d;

	__cpuid_count(0xd, 0, a, b, c, d);
	return b;
}

/* The user state components to enable: what the CPU can save and this kernel saves. */
static uint64_t wanted_features(uint32_t cpuid1_ecx)
{
	unsigned int a, b, c, d;
	uint64_t supported, want = XFEATURE_MASK_FPSSE;

	__cpuid_count(0xd, 0, a, b, c, d);
	supported = (uint64_t)d << 32 | a;
	/* As Linux's xsave_cpuid_features: a component needs its instructions too. */
	if ((cpuid1_ecx & CPUID1_ECX_AVX) && (supported & XFEATURE_MASK_YMM))
		want |= XFEATURE_MASK_YMM;
	__cpuid_count(7, 0, a, b, c, d);
	if ((want & XFEATURE_MASK_YMM) && (b & CPUID7_EBX_AVX512F) &&
	    (supported & XFEATURE_MASK_AVX512) == XFEATURE_MASK_AVX512)
		want |= XFEATURE_MASK_AVX512;
	return want;
}

/*
 * The initial state, as Linux's fpstate_init_fxstate: the x87 control word
 * FNINIT sets and the default MXCSR, everything else zero.  XSTATE_BV 0
 * makes XRSTOR put every component in its initial state (registers zero),
 * loading only MXCSR from the area.
 */
static void build_init_fpstate(void)
{
	uint16_t fcw = FCW_DEFAULT;
	uint32_t mxcsr = MXCSR_DEFAULT;

	memset(init_state, 0, sizeof(init_state));
	memcpy(init_state, &fcw, sizeof(fcw));
	memcpy(init_state + FX_MXCSR, &mxcsr, sizeof(mxcsr));
}

/*
 * Linux 6.6's fpu__init_system_mxcsr: FXSAVE's MXCSR_MASK field, 0 meaning
 * the default 0xffbf.  Once, where sigreturn used to read it on every call.
 */
static void init_mxcsr_mask(void)
{
	uint8_t fx[FXSAVE_SIZE] __attribute__((aligned(16))) = {0};
	uint32_t mask;

	__asm__ volatile("fxsave64 %0" : "=m"(fx));
	memcpy(&mask, fx + FX_MXCSR_MASK, sizeof(mask));
	mxcsr_feature_mask = mask ? mask : 0xffbf;
}

void fpu__init_system_xstate(void)
{
	unsigned int a, b, c, d;
	uint64_t want;

	init_mxcsr_mask();
	build_init_fpstate();
	fpu_user_cfg = (struct fpu_state_config){false, XFEATURE_MASK_FPSSE, FXSAVE_SIZE};
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & CPUID1_ECX_XSAVE))
		return;
	want = wanted_features(c);
	write_cr4(read_cr4() | CR4_OSXSAVE);
	for (;;) {
		xsetbv(0, want);
		if (xstate_size_now() <= FPU_STATE_MAX)
			break;
		/* a layout wider than this kernel's areas: the widest component goes first */
		want &= want & XFEATURE_MASK_AVX512 ? ~XFEATURE_MASK_AVX512 : ~XFEATURE_MASK_YMM;
	}
	fpu_user_cfg = (struct fpu_state_config){true, want, xstate_size_now()};
}

void fpu__init_cpu_xstate(void)
{
	if (!fpu_user_cfg.use_xsave)
		return;
	write_cr4(read_cr4() | CR4_OSXSAVE);
	xsetbv(0, fpu_user_cfg.max_features);
	if (xstate_size_now() != fpu_user_cfg.max_size)
		panic("xstate: this CPU's save area is %u bytes, the boot CPU's %u",
		      xstate_size_now(), fpu_user_cfg.max_size);
}

/* XSAVE and XRSTOR fault (#GP) on an area that is not 64-byte aligned. */
static void check_aligned(const void *buf)
{
	if ((uintptr_t)buf & 63)
		panic("xstate: save area %p is not 64-byte aligned", buf);
}

void os_xsave(void *buf)
{
	check_aligned(buf);
	if (fpu_user_cfg.use_xsave)
		__asm__ volatile("xsave64 %0"
				 : "=m"(*(uint8_t(*)[FPU_STATE_MAX])buf)
				 : "a"(~0u), "d"(~0u)
				 : "memory");
	else
		__asm__ volatile("fxsave64 %0" : "=m"(*(uint8_t(*)[FXSAVE_SIZE])buf) : : "memory");
}

void os_xrstor(const void *buf)
{
	check_aligned(buf);
	if (fpu_user_cfg.use_xsave)
		__asm__ volatile("xrstor64 %0"
				 :
				 : "m"(*(const uint8_t(*)[FPU_STATE_MAX])buf), "a"(~0u), "d"(~0u)
				 : "memory");
	else
		__asm__ volatile("fxrstor64 %0"
				 :
				 : "m"(*(const uint8_t(*)[FXSAVE_SIZE])buf)
				 : "memory");
}
