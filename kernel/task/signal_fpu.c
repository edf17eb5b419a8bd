/*
 * signal_fpu.c - the FPU, SSE and AVX state in a signal frame, after Linux
 * 6.6's arch/x86/kernel/fpu/signal.c.
 *
 * Why: a handler may use any register, and the interrupted code must get
 * all of them back, ymm and zmm included (glibc's AVX2 memcpy in a handler
 * is enough to clobber them).  So the frame carries XSAVE's whole area, and
 * says so in the bytes FXSAVE leaves to software (sw_reserved: the magic,
 * the sizes, the components), with a second magic just past the area.  A
 * program that knows only the 512-byte FXSAVE image (one that builds its
 * own frame) has neither magic: sigreturn then takes x87 and SSE from the
 * frame and puts every wider register in its initial state, as Linux does.
 * The 64-bit and the IA-32 frames share this; the IA-32 one has the i387
 * environment below the area (kernel/task/signal_32.c).
 */
#include "kernel/arch/xstate.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/signal_frame.h"

/* arch/x86/include/uapi/asm/sigcontext.h (Linux 6.6): struct _fpx_sw_bytes and its magics. */
struct fpx_sw_bytes {
	uint32_t magic1;	/* FP_XSTATE_MAGIC1 */
	uint32_t extended_size; /* the area, MAGIC2 and (IA-32) the i387 environment */
	uint64_t xfeatures;	/* the components the area holds */
	uint32_t xstate_size;	/* the area: legacy region, header, components */
	uint32_t padding[7];
};
_Static_assert(sizeof(struct fpx_sw_bytes) == 48, "sw_reserved is 48 bytes");

#define FP_XSTATE_MAGIC1      0x46505853u
#define FP_XSTATE_MAGIC2      0x46505845u
#define FP_XSTATE_MAGIC2_SIZE 4
#define FREGS_STATE_SIZE      112 /* struct fregs_state, below an IA-32 frame's area */
#define FX_MXCSR	      24

unsigned int xstate_sigframe_size(void)
{
	return fpu_user_cfg.max_size + (fpu_user_cfg.use_xsave ? FP_XSTATE_MAGIC2_SIZE : 0);
}

static uint64_t hdr_get(const uint8_t *x, unsigned int word)
{
	uint64_t v;

	memcpy(&v, x + XSAVE_HDR_OFFSET + 8 * word, sizeof(v));
	return v;
}

static void hdr_set(uint8_t *x, unsigned int word, uint64_t v)
{
	memcpy(x + XSAVE_HDR_OFFSET + 8 * word, &v, sizeof(v));
}

/*
 * copy_fpstate_to_sigframe and save_xstate_epilog: the live registers to
 * @buf_fx (64-byte aligned), the software bytes and MAGIC2 after it.
 * @legacy, when not NULL, gets the 512-byte legacy image (the IA-32 frame
 * converts its i387 environment from it).  0, or -EFAULT.
 */
int copy_fpstate_to_sigframe(uint64_t buf_fx, bool ia32_frame, uint8_t *legacy)
{
	uint8_t x[FPU_STATE_MAX] __attribute__((aligned(64)));
	unsigned int size = fpu_user_cfg.max_size;
	uint32_t magic2 = FP_XSTATE_MAGIC2;

	/* XSAVE skips components in their initial state: no kernel stack in their place */
	memset(x, 0, size);
	os_xsave(x);
	if (legacy)
		memcpy(legacy, x, FXSAVE_SIZE);
	if (fpu_user_cfg.use_xsave) {
		struct fpx_sw_bytes sw = {
			.magic1 = FP_XSTATE_MAGIC1,
			.extended_size =
				size + FP_XSTATE_MAGIC2_SIZE + (ia32_frame ? FREGS_STATE_SIZE : 0),
			.xfeatures = fpu_user_cfg.max_features,
			.xstate_size = size,
		};

		memcpy(x + FX_SW_BYTES_OFFSET, &sw, sizeof(sw));
		/* "For legacy compatible, we always set FP/SSE bits" (save_xstate_epilog) */
		hdr_set(x, 0, hdr_get(x, 0) | XFEATURE_MASK_FPSSE);
		if (copy_to_user(buf_fx + size, &magic2, sizeof(magic2)))
			return -EFAULT;
	}
	return copy_to_user(buf_fx, x, size) ? -EFAULT : 0;
}

/*
 * The XSAVE header as XRSTOR takes it (Intel SDM vol. 1, 13.8): a
 * component bit outside XCR0, or anything in bytes 8 to 23 (XCOMP_BV and
 * the word after it), is a #GP, which Linux's sigreturn turns into a
 * failed frame.  false: refuse the frame.
 */
static bool header_ok(uint8_t *x, uint64_t user_xfeatures)
{
	uint64_t xstate_bv = hdr_get(x, 0);

	if ((xstate_bv & ~fpu_user_cfg.max_features) || hdr_get(x, 1) || hdr_get(x, 2))
		return false;
	/* the components the frame does not list come back initial (init_bv) */
	hdr_set(x, 0, xstate_bv & user_xfeatures);
	memset(x + XSAVE_HDR_OFFSET + 24, 0, XSAVE_HDR_SIZE - 24);
	return true;
}

/*
 * __fpu_restore_sig's reading and checks: the area at @buf_fx into @x
 * (64-byte aligned, FPU_STATE_MAX bytes), ready for os_xrstor.  The whole
 * area when both magics are there, else the legacy image alone
 * (check_xstate_in_sigframe's fx_only).  Reserved MXCSR bits are cleared,
 * as this kernel always has (XRSTOR would fault on them).  0, or -EFAULT:
 * a bad frame.
 */
int fpu_sigframe_read(uint64_t buf_fx, uint8_t *x)
{
	unsigned int size = fpu_user_cfg.max_size;
	struct fpx_sw_bytes sw;
	uint32_t magic2 = 0, mxcsr;

	memcpy(x, init_fpstate, size);
	if (copy_from_user(x, buf_fx, FXSAVE_SIZE))
		return -EFAULT;
	memcpy(&sw, x + FX_SW_BYTES_OFFSET, sizeof(sw));
	memcpy(&mxcsr, x + FX_MXCSR, sizeof(mxcsr));
	mxcsr &= mxcsr_feature_mask;
	memcpy(x + FX_MXCSR, &mxcsr, sizeof(mxcsr));
	if (!fpu_user_cfg.use_xsave)
		return 0;
	if (sw.magic1 == FP_XSTATE_MAGIC1 && copy_from_user(&magic2, buf_fx + size, sizeof(magic2)))
		return -EFAULT;
	if (magic2 != FP_XSTATE_MAGIC2) { /* fx_only: x87 and SSE from the frame */
		memset(x + XSAVE_HDR_OFFSET, 0, XSAVE_HDR_SIZE);
		hdr_set(x, 0, XFEATURE_MASK_FPSSE);
		return 0;
	}
	if (copy_from_user(x + FXSAVE_SIZE, buf_fx + FXSAVE_SIZE, size - FXSAVE_SIZE))
		return -EFAULT;
	return header_ok(x, sw.xfeatures) ? 0 : -EFAULT;
}
