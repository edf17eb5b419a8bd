/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rng.h - every random number generator Linux used behind get_random_int()
 * (ASLR offsets, stack canaries, fork) since 2009, behind one interface.
 *
 * The files in rng/ are freestanding: the same objects build into the
 * aslrbench kernel and into the host tools and tests.  They include only
 * <stdint.h>, <stddef.h>, <stdbool.h> (and <cpuid.h>) and common/'s
 * freestanding headers.
 */
#ifndef RNG_RNG_H
#define RNG_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/xfeatures.h"

/*
 * The environment the 2009-era generators read: the current task's pid,
 * the jiffies counter and the cycle counter.  The kernel installs its own;
 * tests and replays inject a simulated one.  Without one, pid is 1,
 * jiffies is 0, get_cycles is RDTSC and hz is 250.
 */
struct rng_platform {
	uint32_t (*current_pid)(void);
	uint64_t (*jiffies)(void);
	uint64_t (*get_cycles)(void);
	uint32_t hz;		  /* jiffies per second, for the 300 s re-key */
	uint64_t initial_jiffies; /* jiffies at boot (Linux's INITIAL_JIFFIES): uptime's zero */
	/*
	 * SIMD in the kernel: simd_begin saves the interrupted task's FPU/SSE
	 * state and returns true when SIMD may be used until simd_end (the
	 * kernel's kernel_fpu_begin/_end).  NULL means never: the scalar path.
	 * The host default allows it (a host program owns its registers).
	 */
	bool (*simd_begin)(void);
	void (*simd_end)(void);
	/*
	 * Linux's arch_get_random_seed_longs() (RDSEED) and
	 * arch_get_random_longs() (RDRAND): how many of @max longs were
	 * filled, 0 when the CPU has none to give.  NULL: none (the 6.x
	 * extraction then takes the cycle counter, as Linux without them).
	 */
	size_t (*arch_seed_longs)(uint64_t *v, size_t max);
	/*
	 * Linux's smp_processor_id(): which CPU draws, for the state each
	 * version kept per CPU (2.6.30's and 3.x's hash, 6.x's crng and
	 * batches).  NULL: CPU 0.  The caller must not move to another CPU
	 * during a draw (the kernel draws with preemption off, as Linux's
	 * get_cpu_var and local_lock).
	 */
	unsigned int (*cpu_id)(void);
	/*
	 * Or, faster, where the CPU number sits in the per-CPU block GS
	 * points at (the kernel's: %gs:cpu_gs_offset, as Linux's this_cpu_read
	 * of cpu_number); 0: not so (a host program: cpu_id() or CPU 0).
	 */
	unsigned long cpu_gs_offset;
	size_t (*arch_longs)(uint64_t *v, size_t max);
	/*
	 * local_irq_save()/local_irq_restore(), for the spinlocks around
	 * shared state (spinlock.h): interrupt handlers feed the pools too.
	 * NULL: nothing to mask (a host program).
	 */
	unsigned long (*irq_save)(void);
	void (*irq_restore)(unsigned long flags);
	/*
	 * The XCR0 state components (XFEATURE_MASK_*) that simd_begin/_end keep
	 * for their owner; 0 means XFEATURE_MASK_FPSSE, what FXSAVE covers (the
	 * kernel's).  Wider code (AVX2, AVX-512) runs only when its registers
	 * are all in this mask.
	 */
	uint64_t simd_xfeatures;
};

/* @p is kept (not copied): it must stay valid; NULL restores the default */
void rng_set_platform(const struct rng_platform *p);
/*
 * simd_begin/_end for a platform in user mode, which owns its registers,
 * and its simd_xfeatures: every width (the CPU and OS checks still apply)
 */
bool rng_user_simd_begin(void);
void rng_user_simd_end(void);
#define RNG_USER_SIMD_XFEATURES (XFEATURE_MASK_FPSSE | XFEATURE_MASK_YMM | XFEATURE_MASK_AVX512)

struct rng_variant {
	const char *name;	 /* contract name, e.g. "md4-2.6.30" */
	const char *summary;	 /* one line */
	bool secure;		 /* considered cryptographically secure today */
	bool (*available)(void); /* false e.g. for rdrand without CPUID bit */
	/* seed material (EFI RNG / RDSEED / fixed hex in deterministic runs) */
	void (*init)(const void *seed, size_t len);
	uint32_t (*get_u32)(void);		  /* what get_random_int() returns */
	void (*get_bytes)(void *buf, size_t len); /* bulk path, may be NULL */
	/*
	 * get_random_u64() and get_random_u16() of Linux 6.x, each from its own
	 * batch (chacha20-batched).  NULL for a generator with one 32-bit
	 * output: kernel/char/random.c then makes a u64 or u16 request one
	 * get_u32() call (zero-extended; the low 16 bits).
	 */
	uint64_t (*get_u64)(void);
	uint16_t (*get_u16)(void);
};

/* NULL-terminated, in the order of docs/design.md's "RNG variants" table */
extern const struct rng_variant *const rng_variants[];
const struct rng_variant *rng_find(const char *name); /* NULL if unknown */
/* feeds the 2.6.29 input pool, as add_interrupt_randomness() did for an
 * IRQF_SAMPLE_RANDOM interrupt */
void rng_add_interrupt_randomness(uint32_t irq, uint64_t cycles);
/* feeds it as add_input_randomness() did for an input-layer event */
void rng_add_input_randomness(uint32_t type, uint32_t code, uint32_t value, uint64_t cycles);
void rng_seed_all(const void *seed, size_t len); /* init every variant */

/* CPUs with their own per-CPU RNG state; a higher id draws as CPU 0 */
#define RNG_NR_CPUS 64

/* Number of variants in rng_variants[] */
#define RNG_NR_VARIANTS 9

#endif /* RNG_RNG_H */
