// SPDX-License-Identifier: GPL-2.0
/*
 * chacha20_wide.c - chacha20-wide: beyond Linux.  The CRNG of Linux 6.x
 * get_random_u32() (chacha20_batched.c) with wide batches.
 *
 * Why: how cheap can a real stream cipher behind get_random_int() be?  The
 * construction is Linux's (a base key derives a per-CPU key; every refill
 * runs ChaCha20 under the per-CPU key with a zero nonce and replaces that
 * key with the first 32 bytes of keystream, "fast key erasure"; served words
 * are zeroed), but a refill is 16 blocks (248 words) computed in one pass
 * of the widest vectors the CPU allows (AVX-512F: all 16 at once; AVX2: 8;
 * SSSE3/SSE2: 4; chacha20.c) instead of Linux's 1.5 blocks (24 words) one
 * block at a time.  16 is one AVX-512 pass: a wider batch would only keep
 * more future output in memory for a few tenths of a cycle per word.
 * A refill of N blocks gives the bytes crng_make_state() +
 * _get_random_bytes() of 32 + 64 * (N - 1) bytes would give.  The base key
 * comes from the boot seed and is not reseeded periodically.  No Linux
 * release ever did this: every table names it as beyond Linux.
 *
 * Per CPU as Linux's crngs and batches (each CPU's on its own lines); the
 * base key is shared and read under its lock when a CPU derives its key.
 */
#include "rng/chacha20_batched.h"
#include "rng/spinlock.h"
#include "rng/util.h"
#include "rng/variants.h"

struct crng {
	uint8_t key[CHACHA_KEY_SIZE];
	unsigned long generation;
};

static struct crng base_crng = {.generation = 1};
static struct rng_spinlock base_crng_lock;

struct batch_u32 {
	/* words[0..7] only hold the next key transiently */
	uint32_t words[CRNG_WIDE_BATCH_BLOCKS * CHACHA_BLOCK_SIZE / 4] __attribute__((aligned(64)));
	unsigned int position;
	unsigned long generation;
};

/* a CPU's crng (generation 0 = stale) and batch */
static struct wide_cpu {
	struct batch_u32 batch;
	struct crng crng;
	uint64_t refills;
} __attribute__((aligned(RNG_CACHELINE))) wide_cpus[RNG_NR_CPUS];

static struct wide_cpu *this_cpu(void)
{
	return &wide_cpus[rng_cpu_id()];
}

#define BATCH_FIRST (CHACHA_KEY_SIZE / 4)

/* ---- fast key erasure ------------------------------------------------------
 * Why: one block under @key yields the next key and up to 32 bytes; the
 * state keeps the old key with the counter at 1 for further blocks.
 */
static void crng_load_state(uint32_t state[CHACHA_STATE_WORDS], const uint8_t key[CHACHA_KEY_SIZE])
{
	int i;

	chacha_init_consts(state);
	for (i = 0; i < 8; i++)
		state[4 + i] = get_le32(key + 4 * i);
	state[12] = state[13] = state[14] = state[15] = 0;
}

static void crng_fast_key_erasure(uint8_t key[CHACHA_KEY_SIZE],
				  uint32_t chacha_state[CHACHA_STATE_WORDS], uint8_t *random_data,
				  size_t random_data_len)
{
	uint8_t first_block[CHACHA_BLOCK_SIZE];

	if (random_data_len > 32)
		random_data_len = 32;
	crng_load_state(chacha_state, key);
	chacha20_block(chacha_state, first_block);
	__builtin_memcpy(key, first_block, CHACHA_KEY_SIZE);
	if (random_data_len)
		__builtin_memcpy(random_data, first_block + CHACHA_KEY_SIZE, random_data_len);
	rng_memzero_explicit(first_block, sizeof(first_block));
}

/* the per-CPU key follows the base key's generation */
static void crng_sync_generation(struct crng *crng)
{
	uint32_t state[CHACHA_STATE_WORDS];
	unsigned long flags;

	if (crng->generation == __atomic_load_n(&base_crng.generation, __ATOMIC_RELAXED))
		return;
	rng_spin_lock_irqsave(&base_crng_lock, &flags);
	crng_fast_key_erasure(base_crng.key, state, crng->key, sizeof(crng->key));
	crng->generation = base_crng.generation;
	rng_spin_unlock_irqrestore(&base_crng_lock, flags);
	rng_memzero_explicit(state, sizeof(state));
}

/* ---- batch refill ------------------------------------------------------------
 * Why: all blocks of a refill are computed in one vectorised pass; the key
 * is overwritten before any output is served.
 */
static void crng_refill_batch(struct wide_cpu *w)
{
	uint32_t state[CHACHA_STATE_WORDS];

	crng_sync_generation(&w->crng);
	crng_load_state(state, w->crng.key);
	chacha20_blocks(state, (uint8_t *)w->batch.words, CRNG_WIDE_BATCH_BLOCKS);
	__builtin_memcpy(w->crng.key, w->batch.words, CHACHA_KEY_SIZE);
	rng_memzero_explicit(w->batch.words, CHACHA_KEY_SIZE);
	rng_memzero_explicit(state, sizeof(state));
	w->batch.position = 0;
	w->batch.generation = w->crng.generation;
	w->refills++;
}

static inline uint32_t batch_take_u32(struct batch_u32 *b)
{
	unsigned int i = BATCH_FIRST + b->position++;
	uint32_t ret = b->words[i];

	b->words[i] = 0;
	return ret;
}

/*
 * The refill is out of line and reached by a tail call, so the common path
 * of get_random_u32() needs no stack frame: a few loads and two stores.
 */
static __attribute__((noinline)) uint32_t get_random_u32_refill(struct wide_cpu *w)
{
	crng_refill_batch(w);
	return batch_take_u32(&w->batch);
}

static inline __attribute__((always_inline)) uint32_t take_or_refill(struct wide_cpu *w)
{
	if (__builtin_expect(w->batch.position >= CRNG_WIDE_BATCH_WORDS ||
				     w->batch.generation != __atomic_load_n(&base_crng.generation,
									    __ATOMIC_RELAXED),
			     0))
		return get_random_u32_refill(w);
	return batch_take_u32(&w->batch);
}

static __attribute__((noinline)) uint32_t get_random_u32_this_cpu(void)
{
	return take_or_refill(this_cpu());
}

/*
 * Where the platform can tell CPUs apart (the kernel's GS, a host's hook),
 * the drawing CPU's slot; where it cannot, there is one CPU and its slot's
 * address is a constant, so the common path stays a few loads and two
 * stores with no stack frame.
 */
static uint32_t get_random_u32(void)
{
	if (rng_cpus_known)
		return get_random_u32_this_cpu();
	return take_or_refill(&wide_cpus[0]);
}

/* ---- bulk path: _get_random_bytes() ----------------------------------------- */
static void get_random_bytes(void *buf, size_t len)
{
	uint32_t state[CHACHA_STATE_WORDS];
	uint8_t tmp[CHACHA_BLOCK_SIZE], *p = buf;
	size_t first = len < 32 ? len : 32, n;

	struct crng *crng;
	unsigned long flags;

	if (!p || !len)
		return;
	flags = rng_irq_save(); /* the per-CPU key is this CPU's alone */
	crng = &this_cpu()->crng;
	crng_sync_generation(crng);
	crng_fast_key_erasure(crng->key, state, p, first);
	rng_irq_restore(flags);
	/* the state still holds the old key, counter 1: continue with it */
	p += first;
	len -= first;
	n = len / CHACHA_BLOCK_SIZE;
	chacha20_blocks(state, p, n);
	p += n * CHACHA_BLOCK_SIZE;
	len -= n * CHACHA_BLOCK_SIZE;
	if (len) {
		chacha20_block(state, tmp);
		__builtin_memcpy(p, tmp, len);
		rng_memzero_explicit(tmp, sizeof(tmp));
	}
	rng_memzero_explicit(state, sizeof(state));
}

/* ---- seeding ------------------------------------------------------------------ */
void crng_wide_reseed(const void *seed, size_t len)
{
	uint32_t w[8], state[CHACHA_STATE_WORDS];
	int i;

	rng_fold_seed(seed, len, w, 8);
	for (i = 0; i < 8; i++)
		put_le32(base_crng.key + 4 * i, w[i]);
	/* whiten the folded seed once: the key becomes ChaCha20 output */
	crng_fast_key_erasure(base_crng.key, state, NULL, 0);
	base_crng.generation++;
	if (base_crng.generation == 0)
		base_crng.generation = 1; /* 0 means "never derived" */
	rng_memzero_explicit(w, sizeof(w));
	rng_memzero_explicit(state, sizeof(state));
}

static void crng_init(const void *seed, size_t len)
{
	int cpu;

	rng_memzero_explicit(wide_cpus, sizeof(wide_cpus));
	for (cpu = 0; cpu < RNG_NR_CPUS; cpu++)
		wide_cpus[cpu].batch.position = CRNG_WIDE_BATCH_WORDS;
	crng_wide_reseed(seed, len);
}

void crng_wide_debug_snapshot(struct crng_debug *out)
{
	const struct wide_cpu *w = this_cpu();

	if (!out)
		return;
	__builtin_memcpy(out->base_key, base_crng.key, CHACHA_KEY_SIZE);
	__builtin_memcpy(out->key, w->crng.key, CHACHA_KEY_SIZE);
	out->base_generation = base_crng.generation;
	out->generation = w->crng.generation;
	out->batch_generation = w->batch.generation;
	out->position = w->batch.position;
	out->batch_words = CRNG_WIDE_BATCH_WORDS;
	out->refills = w->refills;
	__builtin_memcpy(out->batch, w->batch.words + BATCH_FIRST, sizeof(out->batch));
}

static bool crng_available(void)
{
	return true;
}

const struct rng_variant rng_variant_chacha20_wide = {
	.name = "chacha20-wide",
	.summary = "beyond Linux: the 6.x CRNG with 248-u32 batches computed 16, 8 or 4 blocks "
		   "at a time (AVX-512F, AVX2, SSE)",
	.secure = true,
	.available = crng_available,
	.init = crng_init,
	.get_u32 = get_random_u32,
	.get_bytes = get_random_bytes,
};
