/*
 * rng/'s ChaCha20 inside the kernel: which implementation runs, and that
 * each one gives the reference bytes.
 *
 * Why: rng/ chooses its widest ChaCha20 body from CPUID, XCR0 and what the
 * platform's simd_begin saves.  kernel_fpu_begin() saves every component
 * XCR0 enables (kernel/arch/xstate.c), so the kernel must run the widest
 * body the CPU and XCR0 allow: AVX2 under QEMU's TCG (-cpu max), AVX-512F
 * on a PC that has it.  A narrower choice would measure the wrong thing; a
 * wider one (a body whose registers XCR0 leaves out) would fault.
 */
#include "kernel/arch/xstate.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/test/ktest.h"
#include "rng/chacha20_simd.h"

#define NBLOCKS 20

static enum ktest_result rng_simd_widest(struct ktest_ctx *t)
{
	struct chacha_cpu_facts f;
	unsigned int cpu;
	int widest;
	enum chacha_impl active = chacha_impl_active();

	chacha_cpu_facts_read(&f); /* XGETBV only behind CPUID.1:ECX.OSXSAVE */
	cpu = chacha_impls_from_facts(&f);
	if (f.xcr0 != fpu_user_cfg.max_features && fpu_user_cfg.use_xsave)
		return ktest_fail(t, "XCR0 reads 0x%lx, the kernel set 0x%lx",
				  (unsigned long)f.xcr0, (unsigned long)fpu_user_cfg.max_features);
	for (widest = CHACHA_NR_IMPLS - 1; widest > 0 && !(cpu & (1u << widest)); widest--)
		;
	if ((int)active != widest)
		return ktest_fail(t, "the kernel runs %s, the CPU and XCR0 0x%lx allow %s",
				  chacha_impl_name(active), (unsigned long)f.xcr0,
				  chacha_impl_name((enum chacha_impl)widest));
	kprintf("rng_simd: chacha20-wide in the kernel runs %s (XCR0 0x%lx, save area %u bytes)\n",
		chacha_impl_name(active), (unsigned long)f.xcr0, fpu_user_cfg.max_size);
	if (widest < CHACHA_IMPL_AVX2)
		return ktest_skip(
			t, "no AVX2 to run: CPUID.1:ECX 0x%x, XCR0 0x%lx; the kernel runs %s",
			f.cpuid1_ecx, (unsigned long)f.xcr0, chacha_impl_name(active));
	return KTEST_PASS;
}
KTEST(rng_simd_widest);

/* @impl's blocks against chacha20_block's, 0 to NBLOCKS at a time, across the counter wrap. */
static bool blocks_exact(size_t *bad_n)
{
	static uint8_t a[NBLOCKS * CHACHA_BLOCK_SIZE], b[NBLOCKS * CHACHA_BLOCK_SIZE];
	uint32_t s1[CHACHA_STATE_WORDS], s2[CHACHA_STATE_WORDS];
	size_t n, i;

	for (n = 0; n <= NBLOCKS; n++) {
		for (i = 0; i < CHACHA_STATE_WORDS; i++)
			s1[i] = s2[i] = (uint32_t)(0x9e3779b9u * (i + 1) + n);
		s1[12] = s2[12] = 0xfffffffau;
		chacha20_blocks(s1, a, n);
		for (i = 0; i < n; i++)
			chacha20_block(s2, b + i * CHACHA_BLOCK_SIZE);
		if (memcmp(a, b, n * CHACHA_BLOCK_SIZE) || memcmp(s1, s2, sizeof(s1))) {
			*bad_n = n;
			return false;
		}
	}
	return true;
}

/* every implementation the kernel may run (inside kernel_fpu_begin, or general registers) is exact
 */
static enum ktest_result rng_simd_blocks_exact(struct ktest_ctx *t)
{
	size_t n = 0;
	int impl, tried = 0;

	for (impl = 0; impl < CHACHA_NR_IMPLS; impl++) {
		if (!chacha_impl_usable((enum chacha_impl)impl))
			continue;
		chacha_impl_force((enum chacha_impl)impl);
		tried++;
		if (!blocks_exact(&n)) {
			chacha_impl_force(CHACHA_NR_IMPLS);
			return ktest_fail(t, "%s: %lu blocks differ from chacha20_block's",
					  chacha_impl_name((enum chacha_impl)impl),
					  (unsigned long)n);
		}
	}
	chacha_impl_force(CHACHA_NR_IMPLS);
	kprintf("rng_simd: %d implementations exact, up to %s\n", tried,
		chacha_impl_name(chacha_impl_active()));
	return KTEST_PASS;
}
KTEST(rng_simd_blocks_exact);
