// SPDX-License-Identifier: GPL-2.0
/*
 * chacha20_batched.c - get_random_u32(), get_random_u16() and get_random_u64()
 * of Linux 6.x on one CPU, bit for bit.
 *
 * Followed line by line: Linux 6.6 drivers/char/random.c (crng_fast_key_erasure,
 * crng_make_state, _get_random_bytes, DEFINE_BATCHED_ENTROPY(u32),
 * crng_reseed, crng_reseed_interval), the same in 6.12 (the rule set
 * aslr_rules=6.x follows), whose u16 and u64 batches (random.c:541-544)
 * are here too.  The structure has been the same since
 * 5.18 (batches of CHACHA_BLOCK_SIZE * 3 / 2 bytes); 6.1 moved the periodic
 * reseed from crng_make_state() into a delayed work item.
 *
 * Why: today's answer to the 2009 argument, a real stream cipher made cheap
 * by batching.  base_crng.key (reseeded every CRNG_RESEED_INTERVAL = 60 s)
 * derives the per-CPU key by fast key erasure whenever the generations
 * differ; every refill runs crng_make_state() (one ChaCha20 block under the
 * per-CPU key with a zero nonce: its first 32 bytes replace that key, the
 * other 32 are output) and then one chacha20_block() per further 64 bytes
 * under the detached state.  Served words are zeroed in the batch.
 *
 * The base key comes from the 6.x input pool (rng/input_pool.c, BLAKE2s
 * extraction as Linux 6.12): at init the boot seed is mixed in and one
 * crng_reseed() gives the first key, as a booted Linux's random_init()
 * does once its pool is ready; every periodic reseed extracts again.  Given
 * the pool's recorded inputs, `rngtool replay chacha20-batched --inputs`
 * recomputes every value after every reseed.
 *
 * Several CPUs: the crngs and batches are per CPU, each on its own cache
 * lines; base_crng.lock is taken, as 6.6 takes it, only to derive a CPU's
 * key after a new generation and to install a reseed's key, and the input
 * pool's lock to mix and extract.  A draw whose batch is current touches
 * no line another CPU writes.
 */
#include "rng/chacha20_batched.h"
#include "rng/input_pool.h"
#include "rng/spinlock.h"
#include "rng/util.h"
#include "rng/variants.h"

#define ULONG_MAX_ (~0UL)
#define UINT_MAX_  (~0U)

/* 6.6: static struct { u8 key[]; unsigned long generation; spinlock_t lock; } base_crng */
static struct {
	uint8_t key[CHACHA_KEY_SIZE];
	unsigned long generation;
	struct rng_spinlock lock;
} base_crng;

/*
 * 6.6: DEFINE_PER_CPU(struct crng, crngs) = { .generation = ULONG_MAX }, and
 * 6.12: DEFINE_BATCHED_ENTROPY(u16), (u32), (u64), each DEFINE_PER_CPU: one
 * batch per width, each CHACHA_BLOCK_SIZE * 3 / 2 = 96 bytes (48 u16, 24
 * u32, 12 u64), .position = UINT_MAX.  Each refills on its own, from
 * _get_random_bytes().  All of it per CPU; only base_crng is shared.
 */
#define DEFINE_BATCH(type, words)                                                                  \
	struct batch_##type {                                                                      \
		type entropy[words];                                                               \
		unsigned long generation;                                                          \
		unsigned int position;                                                             \
	}

DEFINE_BATCH(uint16_t, CRNG_BATCH_BYTES / 2);
DEFINE_BATCH(uint32_t, CRNG_BATCH_WORDS);
DEFINE_BATCH(uint64_t, CRNG_BATCH_BYTES / 8);

static struct crng_cpu {
	struct {
		uint8_t key[CHACHA_KEY_SIZE];
		unsigned long generation;
	} crngs;
	struct batch_uint16_t batched_entropy_uint16_t;
	struct batch_uint32_t batched_entropy_uint32_t;
	struct batch_uint64_t batched_entropy_uint64_t;
	uint64_t refills; /* the project's count, kept per CPU so counting shares no line */
} __attribute__((aligned(RNG_CACHELINE))) crng_cpus[RNG_NR_CPUS];

/* this_cpu_ptr(): the drawing CPU's crng and batches */
static struct crng_cpu *this_crng(void)
{
	return &crng_cpus[rng_cpu_id()];
}

/* the delayed work "next_reseed" */
static uint64_t next_reseed_jiffies;
static bool early_boot = true;

/* 6.6 crng_fast_key_erasure(): random_data_len may not be greater than 32 */
static void crng_fast_key_erasure(uint8_t key[CHACHA_KEY_SIZE],
				  uint32_t chacha_state[CHACHA_STATE_WORDS], uint8_t *random_data,
				  size_t random_data_len)
{
	uint8_t first_block[CHACHA_BLOCK_SIZE];
	int i;

	if (random_data_len > 32)
		random_data_len = 32; /* Linux: BUG_ON */
	chacha_init_consts(chacha_state);
	for (i = 0; i < 8; i++) /* memcpy(&chacha_state[4], key, 32) on little endian */
		chacha_state[4 + i] = get_le32(key + 4 * i);
	chacha_state[12] = chacha_state[13] = chacha_state[14] = chacha_state[15] = 0;
	chacha20_block(chacha_state, first_block);

	__builtin_memcpy(key, first_block, CHACHA_KEY_SIZE);
	if (random_data_len)
		__builtin_memcpy(random_data, first_block + CHACHA_KEY_SIZE, random_data_len);
	rng_memzero_explicit(first_block, sizeof(first_block));
}

/* 6.6 crng_reseed_interval(): HZ-spaced early, uptime / 2 until 120 s, then 60 s */
static uint64_t crng_reseed_interval(uint64_t now)
{
	uint64_t hz = rng_hz(), uptime = rng_uptime_seconds(now);

	if (early_boot) {
		if (uptime >= CRNG_RESEED_SECONDS * 2)
			early_boot = false;
		else
			return uptime / 2 * hz > hz ? uptime / 2 * hz : hz;
	}
	return CRNG_RESEED_SECONDS * hz;
}

/*
 * Called after every change of base_crng.key (NULL: nothing to tell): the
 * kernel's hook advances the vDSO's generation, as 6.12's crng_reseed()
 * stores _vdso_rng_data.generation, so user-space getrandom states refill.
 */
void (*crng_generation_hook)(unsigned long generation);

static void crng_generation_changed(void)
{
	void (*hook)(unsigned long) = __atomic_load_n(&crng_generation_hook, __ATOMIC_ACQUIRE);

	if (hook)
		hook(__atomic_load_n(&base_crng.generation, __ATOMIC_RELAXED));
}

/* 6.6 crng_reseed()'s second half, under base_crng.lock */
static void crng_set_key(const uint8_t key[CHACHA_KEY_SIZE])
{
	unsigned long next_gen, flags;

	rng_spin_lock_irqsave(&base_crng.lock, &flags);
	__builtin_memcpy(base_crng.key, key, CHACHA_KEY_SIZE);
	next_gen = base_crng.generation + 1;
	if (next_gen == ULONG_MAX_) /* ULONG_MAX is the per-CPU "stale" mark */
		++next_gen;
	__atomic_store_n(&base_crng.generation, next_gen, __ATOMIC_RELEASE); /* WRITE_ONCE */
	rng_spin_unlock_irqrestore(&base_crng.lock, flags);
	crng_generation_changed();
}

/*
 * 6.6 crng_reseed(): schedule the next reseed first, then replace the base
 * key and bump the generation.  Linux runs it from a workqueue; on one CPU
 * the work that fell due before a call has run before that call, which is
 * what crng_reseed_if_due() at the top of every entry point reproduces.
 */
static void crng_reseed_key(void)
{
	uint8_t key[CHACHA_KEY_SIZE];

	extract_entropy(key, sizeof(key));
	crng_set_key(key);
	rng_memzero_explicit(key, sizeof(key));
}

static void crng_periodic_reseed(uint64_t now)
{
	next_reseed_jiffies = now + crng_reseed_interval(now);
	crng_reseed_key();
}

/*
 * Linux's delayed work runs once however many CPUs draw: the CPU that
 * moves next_reseed_jiffies on is the one that runs it.  Out of line, so
 * that the check every draw makes stays a load and a compare.
 */
static __attribute__((noinline)) void crng_reseed_work(uint64_t now, uint64_t due)
{
	if (__atomic_compare_exchange_n(&next_reseed_jiffies, &due, now + crng_reseed_interval(now),
					false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		crng_reseed_key();
}

static inline void crng_reseed_if_due(void)
{
	uint64_t now = rng_jiffies(), due = __atomic_load_n(&next_reseed_jiffies, __ATOMIC_RELAXED);

	if (__builtin_expect(now >= due, 0))
		crng_reseed_work(now, due);
}

/*
 * 6.6 crng_make_state() once crng_ready(), inside local_lock_irqsave(&crngs.lock)
 * (interrupts off: the per-CPU crng is this CPU's alone)
 */
static void crng_make_state(uint32_t chacha_state[CHACHA_STATE_WORDS], uint8_t *random_data,
			    size_t random_data_len)
{
	unsigned long flags = rng_irq_save();
	struct crng_cpu *c = this_crng();

	/* a new base generation: derive this CPU's key from base_crng, under its lock */
	if (c->crngs.generation != __atomic_load_n(&base_crng.generation, __ATOMIC_RELAXED)) {
		rng_spin_lock(&base_crng.lock);
		crng_fast_key_erasure(base_crng.key, chacha_state, c->crngs.key,
				      sizeof(c->crngs.key));
		c->crngs.generation = base_crng.generation;
		rng_spin_unlock(&base_crng.lock);
	}
	crng_fast_key_erasure(c->crngs.key, chacha_state, random_data, random_data_len);
	rng_irq_restore(flags);
}

/* 6.6 _get_random_bytes() */
static void _get_random_bytes(void *buf, size_t len)
{
	uint32_t chacha_state[CHACHA_STATE_WORDS];
	uint8_t tmp[CHACHA_BLOCK_SIZE], *p = buf;
	size_t first_block_len;

	if (!len)
		return;
	first_block_len = len < 32 ? len : 32;
	crng_make_state(chacha_state, p, first_block_len);
	len -= first_block_len;
	p += first_block_len;

	while (len) {
		if (len < CHACHA_BLOCK_SIZE) {
			chacha20_block(chacha_state, tmp);
			__builtin_memcpy(p, tmp, len);
			rng_memzero_explicit(tmp, sizeof(tmp));
			break;
		}
		chacha20_block(chacha_state, p);
		if (chacha_state[12] == 0)
			++chacha_state[13];
		len -= CHACHA_BLOCK_SIZE;
		p += CHACHA_BLOCK_SIZE;
	}
	rng_memzero_explicit(chacha_state, sizeof(chacha_state));
}

void crng_user_begin(uint32_t state[CHACHA_STATE_WORDS])
{
	crng_reseed_if_due();
	crng_make_state(state, (uint8_t *)&state[4], CHACHA_KEY_SIZE);
}

/* 6.6 get_random_bytes() */
static void get_random_bytes(void *buf, size_t len)
{
	if (!buf)
		return;
	crng_reseed_if_due();
	_get_random_bytes(buf, len);
}

/*
 * 6.12 drivers/char/random.c:510-537, get_random_##type() once crng_ready():
 * refill when the batch is used up or the base generation moved, serve the
 * next entry, wipe it.  As Linux, _get_random_bytes() fills the array in
 * place, so the entries are its bytes read as little-endian integers (x86).
 */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "the batches are Linux's x86 arrays: little-endian");
#define DEFINE_GET_BATCHED(type, name)                                                             \
	static type name(void)                                                                     \
	{                                                                                          \
		struct crng_cpu *c = this_crng();                                                  \
		struct batch_##type *b = &c->batched_entropy_##type;                               \
		type ret;                                                                          \
		unsigned long next_gen;                                                            \
		unsigned int n = sizeof(b->entropy) / sizeof(type);                                \
                                                                                                   \
		crng_reseed_if_due();                                                              \
		next_gen = __atomic_load_n(&base_crng.generation, __ATOMIC_RELAXED);               \
		if (b->position >= n || next_gen != b->generation) {                               \
			_get_random_bytes(b->entropy, sizeof(b->entropy));                         \
			b->position = 0;                                                           \
			b->generation = next_gen;                                                  \
			c->refills++;                                                              \
		}                                                                                  \
		ret = b->entropy[b->position];                                                     \
		b->entropy[b->position] = 0;                                                       \
		++b->position;                                                                     \
		return ret;                                                                        \
	}

DEFINE_GET_BATCHED(uint16_t, get_random_u16)
DEFINE_GET_BATCHED(uint32_t, get_random_u32)
DEFINE_GET_BATCHED(uint64_t, get_random_u64)

/* ---- seeding ------------------------------------------------------------------ */
/* every CPU's crng stale and batches empty, as DEFINE_PER_CPU storage at boot */
static void crng_reset_cpu(void)
{
	int cpu;

	rng_memzero_explicit(crng_cpus, sizeof(crng_cpus));
	for (cpu = 0; cpu < RNG_NR_CPUS; cpu++) {
		crng_cpus[cpu].crngs.generation = ULONG_MAX_;
		crng_cpus[cpu].batched_entropy_uint16_t.position = UINT_MAX_;
		crng_cpus[cpu].batched_entropy_uint32_t.position = UINT_MAX_;
		crng_cpus[cpu].batched_entropy_uint64_t.position = UINT_MAX_;
	}
}

/* @seed mixed into the input pool (add_device_randomness), then 6.6 crng_reseed() */
void crng_reseed(const void *seed, size_t len)
{
	mix_pool_bytes(seed, len);
	crng_periodic_reseed(rng_jiffies());
}

void crng_reseed_now(void)
{
	crng_periodic_reseed(rng_jiffies());
}

static void crng_init(const void *seed, size_t len)
{
	crng_reset_cpu();
	base_crng.generation = 0;
	early_boot = true;
	input_pool_init();
	crng_reseed(seed, len);
}

void crng_replay_init(const uint8_t base_key[CHACHA_KEY_SIZE])
{
	crng_reset_cpu();
	__builtin_memcpy(base_crng.key, base_key, CHACHA_KEY_SIZE);
	base_crng.generation = 1;
	early_boot = true;
	next_reseed_jiffies = rng_jiffies() + crng_reseed_interval(rng_jiffies());
	crng_generation_changed();
}

void crng_debug_snapshot(struct crng_debug *out)
{
	unsigned int i;

	if (!out)
		return;
	rng_memzero_explicit(out, sizeof(*out));
	__builtin_memcpy(out->base_key, base_crng.key, CHACHA_KEY_SIZE);
	const struct crng_cpu *c = this_crng();

	__builtin_memcpy(out->key, c->crngs.key, CHACHA_KEY_SIZE);
	out->base_generation = base_crng.generation;
	out->generation = c->crngs.generation;
	out->batch_generation = c->batched_entropy_uint32_t.generation;
	out->position = c->batched_entropy_uint32_t.position;
	out->batch_words = CRNG_BATCH_WORDS;
	out->refills = c->refills;
	for (i = 0; i < CRNG_BATCH_WORDS; i++)
		out->batch[i] = c->batched_entropy_uint32_t.entropy[i];
}

static bool crng_available(void)
{
	return true;
}

const struct rng_variant rng_variant_chacha20_batched = {
	.name = "chacha20-batched",
	.summary =
		"6.x get_random_u32: ChaCha20 fast-key-erasure CRNG, 24-u32 batches, 60 s reseed",
	.secure = true,
	.available = crng_available,
	.init = crng_init,
	.get_u32 = get_random_u32,
	.get_bytes = get_random_bytes,
	.get_u64 = get_random_u64,
	.get_u16 = get_random_u16,
};
