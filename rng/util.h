/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by the rng/ files: rotations, byte order,
 * the platform accessors and seed folding.  Header-only and freestanding.
 */
#ifndef RNG_UTIL_H
#define RNG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng/rng.h"

static inline uint32_t rol32(uint32_t w, unsigned int s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}

static inline uint32_t get_le32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void put_le32(void *p, uint32_t w)
{
	uint8_t *b = p;

	b[0] = (uint8_t)w;
	b[1] = (uint8_t)(w >> 8);
	b[2] = (uint8_t)(w >> 16);
	b[3] = (uint8_t)(w >> 24);
}

/*
 * Linux's put_unaligned_le32: one store where the CPU is little-endian (GCC
 * does not merge put_le32's four byte stores when they sit in a loop).
 */
static inline void put_unaligned_le32(uint32_t w, void *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__builtin_memcpy(p, &w, sizeof(w));
#else
	put_le32(p, w);
#endif
}

static inline uint32_t get_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

static inline void put_be32(void *p, uint32_t w)
{
	uint8_t *b = p;

	b[0] = (uint8_t)(w >> 24);
	b[1] = (uint8_t)(w >> 16);
	b[2] = (uint8_t)(w >> 8);
	b[3] = (uint8_t)w;
}

/*
 * Secrets must not survive on the stack or in a consumed batch; like
 * memzero_explicit(), the barrier keeps the compiler from dropping the store.
 */
static inline void rng_memzero_explicit(void *p, size_t len)
{
	__builtin_memset(p, 0, len);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* The environment (see struct rng_platform); implemented in platform.c */
uint32_t rng_current_pid(void);
uint64_t rng_jiffies(void);
uint64_t rng_get_cycles(void);
size_t rng_arch_seed_longs(uint64_t *v, size_t max); /* 0 without a platform hook */
/*
 * Per-CPU state of different CPUs never shares a cache line, as Linux's
 * per-CPU areas do not: each CPU's slot is aligned to a line.
 */
#define RNG_CACHELINE 64

/*
 * The drawing CPU, below RNG_NR_CPUS (a higher id draws as CPU 0): one
 * GS-relative load in the kernel, as Linux's per-CPU accessors, so the
 * per-CPU state costs a draw what it costs Linux's.
 */
extern unsigned long rng_cpu_gs_offset;
extern unsigned int (*rng_cpu_id_fn)(void); /* the platform's cpu_id, or NULL: CPU 0 */
/* the platform tells CPUs apart (either of the above); false: one CPU, CPU 0 */
extern bool rng_cpus_known;
/* out of line, so that a draw's fast path needs no stack frame of its own */
unsigned int rng_cpu_id_hook(void) __attribute__((noinline, cold));
static inline unsigned int rng_cpu_id(void)
{
	unsigned int id;

	if (rng_cpu_gs_offset)
		__asm__("movl %%gs:(%1), %0" : "=r"(id) : "r"(rng_cpu_gs_offset));
	else if (!rng_cpu_id_fn)
		return 0; /* one load and a branch: a host program on one CPU pays no call */
	else
		id = rng_cpu_id_hook();
	return id < RNG_NR_CPUS ? id : 0;
}
size_t rng_arch_longs(uint64_t *v, size_t max);
/* the platform's local_irq_save/_restore; nothing on a host without them */
unsigned long rng_irq_save(void);
void rng_irq_restore(unsigned long flags);
bool rng_simd_begin(void); /* true: SIMD usable until rng_simd_end() */
void rng_simd_end(void);
/* the platform's simd_xfeatures (XFEATURE_MASK_FPSSE for 0); 0 without simd_begin */
uint64_t rng_simd_xfeatures(void);
uint32_t rng_hz(void);
/* seconds since boot at jiffies @now (jiffies start at the platform's initial_jiffies) */
uint64_t rng_uptime_seconds(uint64_t now);

/*
 * Fold seed material of any length into @n words: byte k goes into word
 * (k / 4) % n at bit 8 * (k % 4).  Deterministic runs pass short hex seeds,
 * boots pass 32+ bytes from EFI_RNG_PROTOCOL/RDSEED; callers that need
 * uniform keys run the folded words through their own hash or cipher.
 */
void rng_fold_seed(const void *seed, size_t len, uint32_t *out, size_t n);

#endif /* RNG_UTIL_H */
