// SPDX-License-Identifier: GPL-2.0
/*
 * chacha20_avx.c - ChaCha20 eight blocks at a time in AVX2 and sixteen in
 * AVX-512F, the same lane layout as chacha20.c's four-way path.
 *
 * Why: chacha20-wide asks how cheap get_random_u32() can be with a real
 * stream cipher, and ChaCha20's cost is the width of the vectors it runs in.
 * Vector i holds word i of every block (lane j = block j), so the quarter
 * rounds need no shuffles between lanes; only the final store transposes the
 * words back into 64-byte blocks.  AVX-512F adds VPROLD (one instruction per
 * rotation) and 32 registers (no spills).
 *
 * Both functions are called only by chacha20_blocks() after chacha_simd.c
 * found the CPU feature, the OS's XCR0 bits and the platform's save of the
 * registers (struct rng_platform's simd_xfeatures) all present, between
 * rng_simd_begin() and rng_simd_end().  The kernel builds this file too
 * (.text.simd, which scripts/check-simd.py allows) but never takes these
 * paths: its kernel_fpu_begin() saves the SSE state only.
 */
#if !__STDC_HOSTED__
/* gcc's xmmintrin.h pulls in mm_malloc.h, which needs the host's stdlib.h */
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "rng/chacha20_simd.h"

#define RNG_SIMD_FN(isa) __attribute__((target(isa), section(".text.simd"), noinline))
/* helpers inlined into those: same instruction set and section */
#define RNG_SIMD_INLINE(isa) __attribute__((target(isa), section(".text.simd"), always_inline))

/* ---- AVX2: 8 blocks ------------------------------------------------------------ */
#define ROL256(v, n) _mm256_or_si256(_mm256_slli_epi32((v), (n)), _mm256_srli_epi32((v), 32 - (n)))

#define QR256(a, b, c, d)                                                                          \
	do {                                                                                       \
		a = _mm256_add_epi32(a, b);                                                        \
		d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot16);                            \
		c = _mm256_add_epi32(c, d);                                                        \
		b = ROL256(_mm256_xor_si256(b, c), 12);                                            \
		a = _mm256_add_epi32(a, b);                                                        \
		d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot8);                             \
		c = _mm256_add_epi32(c, d);                                                        \
		b = ROL256(_mm256_xor_si256(b, c), 7);                                             \
	} while (0)

/*
 * x0..x7 hold words w..w+7 of blocks 0..7: an 8x8 transpose of 32-bit
 * elements, then block j's 32 bytes go to out + 64 * j.
 */
RNG_SIMD_INLINE("avx2")
static inline void store8x8_avx2(uint8_t *out, __m256i x0, __m256i x1, __m256i x2, __m256i x3,
				 __m256i x4, __m256i x5, __m256i x6, __m256i x7)
{
	__m256i t0 = _mm256_unpacklo_epi32(x0, x1), t1 = _mm256_unpackhi_epi32(x0, x1);
	__m256i t2 = _mm256_unpacklo_epi32(x2, x3), t3 = _mm256_unpackhi_epi32(x2, x3);
	__m256i t4 = _mm256_unpacklo_epi32(x4, x5), t5 = _mm256_unpackhi_epi32(x4, x5);
	__m256i t6 = _mm256_unpacklo_epi32(x6, x7), t7 = _mm256_unpackhi_epi32(x6, x7);
	/* u_k: words w..w+3 of block k (low half) and of block k + 4 (high half) */
	__m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
	__m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
	__m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
	__m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);

	_mm256_storeu_si256((__m256i *)(out + 0 * 64), _mm256_permute2x128_si256(u0, u4, 0x20));
	_mm256_storeu_si256((__m256i *)(out + 1 * 64), _mm256_permute2x128_si256(u1, u5, 0x20));
	_mm256_storeu_si256((__m256i *)(out + 2 * 64), _mm256_permute2x128_si256(u2, u6, 0x20));
	_mm256_storeu_si256((__m256i *)(out + 3 * 64), _mm256_permute2x128_si256(u3, u7, 0x20));
	_mm256_storeu_si256((__m256i *)(out + 4 * 64), _mm256_permute2x128_si256(u0, u4, 0x31));
	_mm256_storeu_si256((__m256i *)(out + 5 * 64), _mm256_permute2x128_si256(u1, u5, 0x31));
	_mm256_storeu_si256((__m256i *)(out + 6 * 64), _mm256_permute2x128_si256(u2, u6, 0x31));
	_mm256_storeu_si256((__m256i *)(out + 7 * 64), _mm256_permute2x128_si256(u3, u7, 0x31));
}

RNG_SIMD_FN("avx2")
void chacha20_8blocks_avx2(const uint32_t state[CHACHA_STATE_WORDS], uint8_t *out)
{
	/* per 32-bit lane, rotations by 16 and 8 as byte permutations (VPSHUFB) */
	const __m256i rot16 =
		_mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1,
				 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	const __m256i rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
					      3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
	const __m256i ctr = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	__m256i x[16];
	int i;

	for (i = 0; i < 16; i++)
		x[i] = _mm256_set1_epi32((int)state[i]);
	x[12] = _mm256_add_epi32(x[12], ctr);
	for (i = 0; i < 20; i += 2) {
		QR256(x[0], x[4], x[8], x[12]);
		QR256(x[1], x[5], x[9], x[13]);
		QR256(x[2], x[6], x[10], x[14]);
		QR256(x[3], x[7], x[11], x[15]);
		QR256(x[0], x[5], x[10], x[15]);
		QR256(x[1], x[6], x[11], x[12]);
		QR256(x[2], x[7], x[8], x[13]);
		QR256(x[3], x[4], x[9], x[14]);
	}
	/* the feed-forward re-broadcasts the input: 16 more registers would spill */
	for (i = 0; i < 16; i++)
		x[i] = _mm256_add_epi32(x[i], _mm256_set1_epi32((int)state[i]));
	x[12] = _mm256_add_epi32(x[12], ctr);
	store8x8_avx2(out, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
	store8x8_avx2(out + 32, x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]);
}

/* ---- AVX-512F: 16 blocks ------------------------------------------------------- */
#define QR512(a, b, c, d)                                                                          \
	do {                                                                                       \
		a = _mm512_add_epi32(a, b);                                                        \
		d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16);                                  \
		c = _mm512_add_epi32(c, d);                                                        \
		b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12);                                  \
		a = _mm512_add_epi32(a, b);                                                        \
		d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);                                   \
		c = _mm512_add_epi32(c, d);                                                        \
		b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);                                   \
	} while (0)

/*
 * Words 4g..4g+3 (x0..x3) of 16 blocks: within each 128-bit lane L a 4x4
 * transpose leaves r[k] lane L = those words of block 4L + k.
 */
RNG_SIMD_INLINE("avx512f")
static inline void transpose4_avx512(__m512i r[4], __m512i x0, __m512i x1, __m512i x2, __m512i x3)
{
	__m512i t0 = _mm512_unpacklo_epi32(x0, x1), t1 = _mm512_unpackhi_epi32(x0, x1);
	__m512i t2 = _mm512_unpacklo_epi32(x2, x3), t3 = _mm512_unpackhi_epi32(x2, x3);

	r[0] = _mm512_unpacklo_epi64(t0, t2);
	r[1] = _mm512_unpackhi_epi64(t0, t2);
	r[2] = _mm512_unpacklo_epi64(t1, t3);
	r[3] = _mm512_unpackhi_epi64(t1, t3);
}

/*
 * a..d: words 0-3, 4-7, 8-11, 12-15 of blocks k, k+4, k+8, k+12 (lane L =
 * block 4L + k): a 4x4 transpose of 128-bit lanes makes each whole block.
 */
RNG_SIMD_INLINE("avx512f")
static inline void store4_avx512(uint8_t *out, __m512i a, __m512i b, __m512i c, __m512i d)
{
	__m512i p0 = _mm512_shuffle_i32x4(a, b, 0x44), p1 = _mm512_shuffle_i32x4(a, b, 0xee);
	__m512i p2 = _mm512_shuffle_i32x4(c, d, 0x44), p3 = _mm512_shuffle_i32x4(c, d, 0xee);

	_mm512_storeu_si512(out + 0 * 256, _mm512_shuffle_i32x4(p0, p2, 0x88));
	_mm512_storeu_si512(out + 1 * 256, _mm512_shuffle_i32x4(p0, p2, 0xdd));
	_mm512_storeu_si512(out + 2 * 256, _mm512_shuffle_i32x4(p1, p3, 0x88));
	_mm512_storeu_si512(out + 3 * 256, _mm512_shuffle_i32x4(p1, p3, 0xdd));
}

RNG_SIMD_FN("avx512f")
void chacha20_16blocks_avx512f(const uint32_t state[CHACHA_STATE_WORDS], uint8_t *out)
{
	const __m512i ctr = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	__m512i x[16], s[16], r[4][4];
	int i, k;

	for (i = 0; i < 16; i++)
		s[i] = _mm512_set1_epi32((int)state[i]);
	s[12] = _mm512_add_epi32(s[12], ctr);
	for (i = 0; i < 16; i++)
		x[i] = s[i];
	for (i = 0; i < 20; i += 2) {
		QR512(x[0], x[4], x[8], x[12]);
		QR512(x[1], x[5], x[9], x[13]);
		QR512(x[2], x[6], x[10], x[14]);
		QR512(x[3], x[7], x[11], x[15]);
		QR512(x[0], x[5], x[10], x[15]);
		QR512(x[1], x[6], x[11], x[12]);
		QR512(x[2], x[7], x[8], x[13]);
		QR512(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		x[i] = _mm512_add_epi32(x[i], s[i]);
	for (i = 0; i < 4; i++)
		transpose4_avx512(r[i], x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]);
	/* block 4L + k starts at out + 64 * (4L + k) */
	for (k = 0; k < 4; k++)
		store4_avx512(out + 64 * k, r[0][k], r[1][k], r[2][k], r[3][k]);
}
