/*
 * lx_fpu: a system call leaves the caller's SSE registers as they were.
 *
 * Why: the x86_64 syscall ABI preserves xmm0-15 across `syscall` (only rax,
 * rcx and r11 change), so a kernel that uses SIMD itself must save and
 * restore the interrupted task's state around it (Linux's
 * kernel_fpu_begin()/kernel_fpu_end()).  Each check loads all sixteen
 * registers with distinct patterns, makes the raw call and compares, in one
 * asm block so that no compiler-generated code touches them in between.
 * The calls are the ones that reach the RNG's bulk and batch paths:
 * getrandom (318) and fork (57), whose child draws its stack canary.
 */
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lx_check.h"

#define NR_GETRANDOM 318
#define NR_FORK	     57
#define NR_GETPID    39

struct xmm_file {
	uint8_t r[16][16];
};

static void pattern(struct xmm_file *f, unsigned seed)
{
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			f->r[i][j] = (uint8_t)(seed * 131 + i * 17 + j * 7 + 1);
}

/* Loads xmm0-15 from @in, makes syscall @nr(a0, a1, a2), stores them to @out. */
static long call_keep(const struct xmm_file *in, struct xmm_file *out, long nr, long a0, long a1,
		      long a2)
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
		: "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), [in] "r"(in), [out] "r"(out)
		: "rcx", "r11", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return ret;
}

/* @n calls of @nr; returns how many changed a register. */
static int changed_by(long nr, int n)
{
	struct xmm_file in, out;
	uint8_t buf[256];
	int bad = 0;

	for (int i = 0; i < n; i++) {
		long ret;

		pattern(&in, (unsigned)i + (unsigned)nr * 1000);
		if (nr == NR_GETRANDOM)
			ret = call_keep(&in, &out, nr, (long)buf, (long)(16 + i % 240), 0);
		else
			ret = call_keep(&in, &out, nr, 0, 0, 0);
		if (nr == NR_FORK && ret == 0)
			_exit(memcmp(&in, &out, sizeof(in)) ? 3 : 0);
		if (ret < 0)
			return -1;
		if (memcmp(&in, &out, sizeof(in)))
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

int main(void)
{
	check(changed_by(NR_GETPID, 200) == 0, "xmm0-15 kept across 200 getpid");
	check(changed_by(NR_GETRANDOM, 2000) == 0, "xmm0-15 kept across 2000 getrandom");
	check(changed_by(NR_FORK, 300) == 0, "xmm0-15 kept across 300 fork, parent and child");
	return summary("lx_fpu");
}
