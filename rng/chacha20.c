// SPDX-License-Identifier: GPL-2.0
/*
 * chacha20.c - the ChaCha20 block function (RFC 8439), scalar and 4-way.
 *
 * Why: since Linux 4.8 the CRNG behind /dev/urandom, and since 5.18 the
 * batched get_random_u32(), is ChaCha20.  The scalar chacha20_block() is
 * the reference, checked against RFC 8439; chacha20_blocks() computes four
 * blocks at once in SSE2 vectors (GCC vector extensions, lane j = block j),
 * or 8 and 16 in AVX2 and AVX-512F ones (chacha20_avx.c) where
 * chacha20_cpu.c finds them usable, which is what makes chacha20-wide
 * cheaper than half-MD4 per u32.
 */
#include "rng/chacha20.h"
#include "rng/chacha20_simd.h"
#include "rng/util.h"

void chacha_init_consts(uint32_t state[CHACHA_STATE_WORDS])
{
	state[0] = 0x61707865u; /* "expa" */
	state[1] = 0x3320646eu; /* "nd 3" */
	state[2] = 0x79622d32u; /* "2-by" */
	state[3] = 0x6b206574u; /* "te k" */
}

/* ---- scalar reference ---------------------------------------------------- */
#define QR(a, b, c, d)                                                                             \
	do {                                                                                       \
		a += b;                                                                            \
		d = rol32(d ^ a, 16);                                                              \
		c += d;                                                                            \
		b = rol32(b ^ c, 12);                                                              \
		a += b;                                                                            \
		d = rol32(d ^ a, 8);                                                               \
		c += d;                                                                            \
		b = rol32(b ^ c, 7);                                                               \
	} while (0)

static void chacha_permute(uint32_t x[16])
{
	int i;

	for (i = 0; i < 20; i += 2) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
}

void chacha20_block(uint32_t state[CHACHA_STATE_WORDS], uint8_t out[CHACHA_BLOCK_SIZE])
{
	uint32_t x[16];
	int i;

	/*
	 * As Linux's chacha_block_generic: memcpy in, one little-endian store
	 * per word out (a loop of words in and of bytes out cost 270 of the
	 * block's 1,505 instructions).
	 */
	__builtin_memcpy(x, state, sizeof(x));
	chacha_permute(x);
	for (i = 0; i < 16; i++)
		put_unaligned_le32(x[i] + state[i], out + 4 * i);
	state[12]++;
	rng_memzero_explicit(x, sizeof(x));
}

/* ---- four blocks per call in 128-bit vectors ---------------------------------
 * Why: the quarter round has no cross-lane dependency when lane j holds
 * block j, so plain SSE2 adds, xors and shifts run four blocks for the cost
 * of one.  No AVX is assumed; GCC lowers the vector type to SSE2.
 */
typedef uint32_t v4u __attribute__((vector_size(16)));
typedef uint8_t v16b __attribute__((vector_size(16)));

#if defined(__clang__)
#define SHUF4(a, b, i0, i1, i2, i3) __builtin_shufflevector((a), (b), i0, i1, i2, i3)
#define SHUF16(a, ...)		    __builtin_shufflevector((a), (a), __VA_ARGS__)
#else
#define SHUF4(a, b, i0, i1, i2, i3) __builtin_shuffle((a), (b), (v4u){i0, i1, i2, i3})
#define SHUF16(a, ...)		    __builtin_shuffle((a), (v16b){__VA_ARGS__})
#endif

#define VROL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
/* rotations by 16 and 8 are byte moves: one PSHUFB where SSSE3 exists */
#define VROL16B(v) ((v4u)SHUF16((v16b)(v), 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13))
#define VROL8B(v)  ((v4u)SHUF16((v16b)(v), 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14))

#define VQR(a, b, c, d, R16, R8)                                                                   \
	do {                                                                                       \
		a += b;                                                                            \
		d = R16(d ^ a);                                                                    \
		c += d;                                                                            \
		b = VROL(b ^ c, 12);                                                               \
		a += b;                                                                            \
		d = R8(d ^ a);                                                                     \
		c += d;                                                                            \
		b = VROL(b ^ c, 7);                                                                \
	} while (0)

#define VROL16(v) VROL((v), 16)
#define VROL8(v)  VROL((v), 8)

/* lane j of x0..x3 is word i..i+3 of block j: transpose into 16-byte rows */
static inline void store_transposed(uint8_t *out, v4u x0, v4u x1, v4u x2, v4u x3)
{
	v4u t0 = SHUF4(x0, x1, 0, 4, 1, 5), t1 = SHUF4(x2, x3, 0, 4, 1, 5);
	v4u t2 = SHUF4(x0, x1, 2, 6, 3, 7), t3 = SHUF4(x2, x3, 2, 6, 3, 7);
	v4u b0 = SHUF4(t0, t1, 0, 1, 4, 5), b1 = SHUF4(t0, t1, 2, 3, 6, 7);
	v4u b2 = SHUF4(t2, t3, 0, 1, 4, 5), b3 = SHUF4(t2, t3, 2, 3, 6, 7);

	__builtin_memcpy(out, &b0, 16);
	__builtin_memcpy(out + 64, &b1, 16);
	__builtin_memcpy(out + 128, &b2, 16);
	__builtin_memcpy(out + 192, &b3, 16);
}

/*
 * One body, two instruction sets: SSE2 everywhere, PSHUFB rotations with
 * SSSE3.  The working vectors are not wiped: taking their address would
 * force them out of registers, and everything they hold is the output
 * just written (which the batch zeroes as it is consumed).
 */
#define CHACHA20_4BLOCKS_BODY(R16, R8)                                                             \
	v4u x[16], s[16];                                                                          \
	int i;                                                                                     \
                                                                                                   \
	for (i = 0; i < 16; i++)                                                                   \
		s[i] = (v4u){state[i], state[i], state[i], state[i]};                              \
	s[12] += (v4u){0, 1, 2, 3};                                                                \
	for (i = 0; i < 16; i++)                                                                   \
		x[i] = s[i];                                                                       \
	for (i = 0; i < 20; i += 2) {                                                              \
		VQR(x[0], x[4], x[8], x[12], R16, R8);                                             \
		VQR(x[1], x[5], x[9], x[13], R16, R8);                                             \
		VQR(x[2], x[6], x[10], x[14], R16, R8);                                            \
		VQR(x[3], x[7], x[11], x[15], R16, R8);                                            \
		VQR(x[0], x[5], x[10], x[15], R16, R8);                                            \
		VQR(x[1], x[6], x[11], x[12], R16, R8);                                            \
		VQR(x[2], x[7], x[8], x[13], R16, R8);                                             \
		VQR(x[3], x[4], x[9], x[14], R16, R8);                                             \
	}                                                                                          \
	for (i = 0; i < 16; i++)                                                                   \
		x[i] += s[i];                                                                      \
	for (i = 0; i < 16; i += 4)                                                                \
	store_transposed(out + 4 * i, x[i], x[i + 1], x[i + 2], x[i + 3])

static void chacha20_4blocks_sse2(const uint32_t state[CHACHA_STATE_WORDS], uint8_t *out)
{
	CHACHA20_4BLOCKS_BODY(VROL16, VROL8);
}

/*
 * The one function of rng/ that uses SIMD registers in the kernel (the sse2
 * body above is lowered to general registers there by -mgeneral-regs-only):
 * placed in .text.simd, which scripts/check-simd.py allows, and called only
 * between rng_simd_begin() and rng_simd_end().
 */
__attribute__((target("ssse3"), section(".text.simd"), noinline)) static void
chacha20_4blocks_ssse3(const uint32_t state[CHACHA_STATE_WORDS], uint8_t *out)
{
	CHACHA20_4BLOCKS_BODY(VROL16B, VROL8B);
}

/* ---- dispatch ---------------------------------------------------------------------
 * Why one SIMD region per vector call: in the kernel a region runs with
 * interrupts off, so it stays as short as one call (4 blocks there).
 */
static size_t blocks_simd(enum chacha_impl impl, uint32_t state[CHACHA_STATE_WORDS], uint8_t *out,
			  size_t nblocks)
{
	size_t n = impl == CHACHA_IMPL_AVX512F ? 16 : impl == CHACHA_IMPL_AVX2 ? 8 : 4;

	if (nblocks < n || !rng_simd_begin())
		return 0;
	if (impl == CHACHA_IMPL_AVX512F)
		chacha20_16blocks_avx512f(state, out);
	else if (impl == CHACHA_IMPL_AVX2)
		chacha20_8blocks_avx2(state, out);
	else
		chacha20_4blocks_ssse3(state, out);
	rng_simd_end();
	return n;
}

void chacha20_blocks(uint32_t state[CHACHA_STATE_WORDS], uint8_t *out, size_t nblocks)
{
	enum chacha_impl top = chacha_impl_active(), impl = top;
	size_t n;

	/* the widest body first, then narrower ones for what is left */
	for (; impl >= CHACHA_IMPL_SSSE3; impl--) {
		if (impl != top && !chacha_impl_usable(impl))
			continue;
		while ((n = blocks_simd(impl, state, out, nblocks))) {
			state[12] += (uint32_t)n;
			out += n * CHACHA_BLOCK_SIZE;
			nblocks -= n;
		}
	}
	if (impl == CHACHA_IMPL_SSE2) {
		while (nblocks >= 4) {
			chacha20_4blocks_sse2(state, out);
			state[12] += 4;
			out += 4 * CHACHA_BLOCK_SIZE;
			nblocks -= 4;
		}
	}
	while (nblocks--) {
		chacha20_block(state, out);
		out += CHACHA_BLOCK_SIZE;
	}
}

/* ---- RFC 8439 §2.4 encryption (used by the tests and nothing else) ------- */
void chacha20_xor(const uint8_t key[CHACHA_KEY_SIZE], uint32_t counter, const uint8_t nonce[12],
		  const uint8_t *in, uint8_t *out, size_t len)
{
	uint32_t state[16];
	uint8_t ks[CHACHA_BLOCK_SIZE];
	size_t i, n;

	chacha_init_consts(state);
	for (i = 0; i < 8; i++)
		state[4 + i] = get_le32(key + 4 * i);
	state[12] = counter;
	for (i = 0; i < 3; i++)
		state[13 + i] = get_le32(nonce + 4 * i);
	while (len) {
		chacha20_block(state, ks);
		n = len < CHACHA_BLOCK_SIZE ? len : CHACHA_BLOCK_SIZE;
		for (i = 0; i < n; i++)
			out[i] = in[i] ^ ks[i];
		in += n;
		out += n;
		len -= n;
	}
	rng_memzero_explicit(ks, sizeof(ks));
	rng_memzero_explicit(state, sizeof(state));
}
