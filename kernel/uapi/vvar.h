/*
 * The vDSO's data page ([vvar]), shared by the kernel and the vDSO
 * (kernel/arch/vdso/): its layout and the one clock formula both use, so a
 * time read in user mode and one read by a system call are the same
 * function of the same TSC value and never disagree in order.
 *
 * Linux 2.6.29 kept this data (vsyscall_gtod_data) in the vsyscall page at
 * a fixed kernel address; here it is a read-only page mapped right after
 * the vDSO text, as Linux 3.15 placed its [vvar] (later kernels put it below).
 *
 * The fields are written once at boot (the TSC rate is fixed then) and
 * never change, so readers need no sequence count.
 */
#ifndef KERNEL_UAPI_VVAR_H
#define KERNEL_UAPI_VVAR_H

#include <stdint.h>

#define VVAR_MAGIC 0x72617676u /* "vvar": an unfilled page reads 0 */

/*
 * Linux 6.12's vdso_rng_data (include/vdso/datapage.h), read by the 6.x
 * vDSO's __vdso_getrandom: generation is the kernel crng's base generation
 * plus one (0 is never a valid one, as a zeroed user state's), advanced
 * with a release store whenever the base key changes; is_ready is set once
 * the crng is seeded.  The clock fields never change; these do.
 */
struct vdso_rng_data {
	uint64_t generation;
	uint8_t is_ready;
};

struct vvar_data {
	uint32_t magic;
	uint32_t pad;
	uint64_t mult; /* ns = (tsc * mult) >> shift */
	uint32_t shift;
	uint32_t pad2;
	struct vdso_rng_data rng;
};

/*
 * Monotone in cycles: a later TSC value never gives fewer nanoseconds.
 * The 128-bit product (cycles * mult) >> shift, shift below 64; a -m32
 * build (the IA-32 vDSO) has no __int128 and forms the same product from
 * 32-bit halves, so both vDSOs and the kernel compute the same value.
 */
static inline uint64_t vvar_cycles_to_ns(uint64_t cycles, uint64_t mult, uint32_t shift)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)cycles * mult) >> shift);
#else
	uint64_t al = (uint32_t)cycles, ah = cycles >> 32, bl = (uint32_t)mult, bh = mult >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	uint64_t lo = (mid << 32) | (uint32_t)ll;
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);

	return shift ? (hi << (64 - shift)) | (lo >> shift) : lo;
#endif
}

#endif
