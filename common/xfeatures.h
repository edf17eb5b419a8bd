/*
 * xfeatures.h - the XCR0 state components, Linux v6.6
 * arch/x86/include/asm/fpu/types.h: the bits rng/ asks a platform for and
 * the kernel enables and saves (kernel/arch/xstate.c).
 */
#ifndef COMMON_XFEATURES_H
#define COMMON_XFEATURES_H

#define XFEATURE_MASK_FP	0x01ull
#define XFEATURE_MASK_SSE	0x02ull
#define XFEATURE_MASK_YMM	0x04ull
#define XFEATURE_MASK_OPMASK	0x20ull
#define XFEATURE_MASK_ZMM_Hi256 0x40ull
#define XFEATURE_MASK_Hi16_ZMM	0x80ull
#define XFEATURE_MASK_FPSSE	(XFEATURE_MASK_FP | XFEATURE_MASK_SSE)
#define XFEATURE_MASK_AVX512                                                                       \
	(XFEATURE_MASK_OPMASK | XFEATURE_MASK_ZMM_Hi256 | XFEATURE_MASK_Hi16_ZMM)

#endif
