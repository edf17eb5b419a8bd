/*
 * rng/'s ChaCha20 inside the kernel: which implementation runs, and that it
 * gives the reference bytes.
 *
 * Why: rng/ chooses its widest ChaCha20 body from CPUID, XCR0 and what the
 * platform's simd_begin saves.  The kernel's kernel_fpu_begin() saves with
 * FXSAVE (x87 and SSE), so an AVX2 or AVX-512 body here would hand a user
 * task back different ymm/zmm upper halves after a system call.  On a CPU
 * (and firmware) that allows AVX, the kernel must still refuse it.
 */
#include "kernel/lib/string.h"
#include "kernel/test/ktest.h"
#include "rng/chacha20_simd.h"

#define NBLOCKS 20

static enum ktest_result rng_simd_no_avx(struct ktest_ctx *t)
{
	struct chacha_cpu_facts f;
	unsigned int cpu;
	enum chacha_impl active = chacha_impl_active();

	chacha_cpu_facts_read(&f); /* XGETBV only behind CPUID.1:ECX.OSXSAVE */
	cpu = chacha_impls_from_facts(&f);
	if (active >= CHACHA_IMPL_AVX2 || chacha_impl_usable(CHACHA_IMPL_AVX2) ||
	    chacha_impl_usable(CHACHA_IMPL_AVX512F))
		return ktest_fail(t, "the kernel would run %s (CPU and OS allow 0x%x)",
				  chacha_impl_name(active), cpu);
	if (chacha_impl_force(CHACHA_IMPL_AVX2)) {
		chacha_impl_force(CHACHA_NR_IMPLS);
		return ktest_fail(t, "chacha_impl_force(avx2) succeeded in the kernel");
	}
	if (!(cpu & (1u << CHACHA_IMPL_AVX2)))
		return ktest_skip(t,
				  "nothing to withhold: this CPU/OS has no AVX2 (CPUID.1:ECX 0x%x, "
				  "XCR0 0x%lx); the kernel runs %s",
				  f.cpuid1_ecx, (unsigned long)f.xcr0, chacha_impl_name(active));
	return KTEST_PASS;
}
KTEST(rng_simd_no_avx);

/* the kernel's own choice (SSSE3 in kernel_fpu_begin, or general registers) is exact */
static enum ktest_result rng_simd_blocks_exact(struct ktest_ctx *t)
{
	static uint8_t a[NBLOCKS * CHACHA_BLOCK_SIZE], b[NBLOCKS * CHACHA_BLOCK_SIZE];
	uint32_t s1[CHACHA_STATE_WORDS], s2[CHACHA_STATE_WORDS];
	size_t n, i;

	for (n = 0; n <= NBLOCKS; n++) {
		for (i = 0; i < CHACHA_STATE_WORDS; i++)
			s1[i] = s2[i] = (uint32_t)(0x9e3779b9u * (i + 1) + n);
		s1[12] = s2[12] = 0xfffffffau; /* across the 32-bit counter wrap */
		chacha20_blocks(s1, a, n);
		for (i = 0; i < n; i++)
			chacha20_block(s2, b + i * CHACHA_BLOCK_SIZE);
		if (memcmp(a, b, n * CHACHA_BLOCK_SIZE) || memcmp(s1, s2, sizeof(s1)))
			return ktest_fail(t, "%s: %lu blocks differ from chacha20_block's",
					  chacha_impl_name(chacha_impl_active()), (unsigned long)n);
	}
	return KTEST_PASS;
}
KTEST(rng_simd_blocks_exact);
