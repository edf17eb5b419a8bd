// SPDX-License-Identifier: GPL-2.0
/*
 * pool.c - the entropy pools of Linux 2.6.29 drivers/char/random.c.
 *
 * Why: Mackall's first fix for get_random_int() was to return
 * get_random_bytes(), i.e. this machinery: a twisted-GFSR input pool that
 * interrupts stir, a nonblocking output pool that pulls from it when its
 * entropy estimate runs low, and extraction that SHA-1-hashes the whole
 * output pool, mixes the hash back (anti-backtracking), hashes 64 more pool
 * bytes and folds the 20-byte result to 10.  Torvalds called this "a _full_
 * sha thing every time"; it is kept faithful here (byte-wise mixing with
 * sign-extended chars, the poolinfo taps, the twist table, entropy
 * accounting) so its cost and behaviour are what 2.6.29 paid.
 *
 * Each store's spinlock is taken where 2.6.29 took it
 * (spin_lock_irqsave(&r->lock) in mix_pool_bytes_extract,
 * credit_entropy_bits, account and init_std_data), so several CPUs may
 * draw at once and the scale suite counts what 2.6.29 paid for that.
 *
 * Omitted: the blocking pool (only /dev/random reads it), wait queues and
 * sysctls.
 */
#include "rng/pool.h"
#include "rng/sha1.h"
#include "rng/spinlock.h"
#include "rng/util.h"

/* ---- pool geometry ---------------------------------------------------------
 * Why: the taps define the feedback polynomial of each pool:
 * x^128 + x^103 + x^76 + x^51 + x^25 + x + 1 and
 * x^32 + x^26 + x^20 + x^14 + x^7 + x + 1.
 */
struct poolinfo {
	int poolwords;
	int tap1, tap2, tap3, tap4, tap5;
};

static const struct poolinfo poolinfo_table[] = {
	{128, 103, 76, 51, 25, 1},
	{32, 26, 20, 14, 7, 1},
};

static const uint32_t twist_table[8] = {
	0x00000000, 0x3b6e20c8, 0x76dc4190, 0x4db26158,
	0xedb88320, 0xd6d6a3e8, 0x9b64c2b0, 0xa00ae278,
};

/* 2.6.29 defaults, in bits */
static const int random_read_wakeup_thresh = 64;
static const int trickle_thresh = INPUT_POOL_WORDS * 28;

struct entropy_store {
	const struct poolinfo *poolinfo;
	uint32_t *pool;
	struct entropy_store *pull;
	int limit;
	/* read-write data, under the lock, as 2.6.29's */
	struct rng_spinlock lock;
	unsigned int add_ptr;
	int entropy_count;
	uint32_t input_rotate;
};

static uint32_t input_pool_data[INPUT_POOL_WORDS];
static uint32_t nonblocking_pool_data[OUTPUT_POOL_WORDS];

static struct entropy_store input_pool = {
	.poolinfo = &poolinfo_table[0],
	.pool = input_pool_data,
	.limit = 1,
};

static struct entropy_store nonblocking_pool = {
	.poolinfo = &poolinfo_table[1],
	.pool = nonblocking_pool_data,
	.pull = &input_pool,
};

/* ---- mixing --------------------------------------------------------------
 * Why: each input byte is sign-extended (2.6.29 walks a "const char *"),
 * rotated, xored with five taps and the current word, and written back
 * through the twist table; the add pointer walks the pool backwards.
 * With @out, the 16 words just behind the add pointer are copied out
 * atomically with the mix, as extract_buf() needs.
 */
static void mix_pool_bytes_extract(struct entropy_store *r, const void *in, size_t nbytes,
				   uint32_t out[16])
{
	const struct poolinfo *pi = r->poolinfo;
	unsigned int wordmask = (unsigned int)pi->poolwords - 1;
	const int8_t *bytes = in;
	uint32_t rot, w;
	unsigned int i, j;
	unsigned long flags;

	/* the taps are constant: read without the lock, as 2.6.29 */
	rng_spin_lock_irqsave(&r->lock, &flags);
	rot = r->input_rotate;
	i = r->add_ptr;
	while (nbytes--) {
		w = rol32((uint32_t)(int32_t)*bytes++, rot & 31);
		i = (i - 1) & wordmask;
		w ^= r->pool[i];
		w ^= r->pool[(i + pi->tap1) & wordmask];
		w ^= r->pool[(i + pi->tap2) & wordmask];
		w ^= r->pool[(i + pi->tap3) & wordmask];
		w ^= r->pool[(i + pi->tap4) & wordmask];
		w ^= r->pool[(i + pi->tap5) & wordmask];
		r->pool[i] = (w >> 3) ^ twist_table[w & 7];
		/* an extra 7 bits of rotation at the start of each pass */
		rot += i ? 7 : 14;
	}
	r->input_rotate = rot;
	r->add_ptr = i;
	if (out)
		for (j = 0; j < 16; j++)
			out[j] = r->pool[(i - j) & wordmask];
	rng_spin_unlock_irqrestore(&r->lock, flags);
}

static void mix_pool_bytes(struct entropy_store *r, const void *in, size_t nbytes)
{
	mix_pool_bytes_extract(r, in, nbytes, NULL);
}

/* ---- entropy accounting ----------------------------------------------------
 * Why: 2.6.29 tracked an estimate in bits; the nonblocking pool pulls from
 * the input pool only when it is low and the input pool holds enough.
 */
static void credit_entropy_bits(struct entropy_store *r, int nbits)
{
	int count, max = r->poolinfo->poolwords * 32;
	unsigned long flags;

	if (!nbits)
		return;
	rng_spin_lock_irqsave(&r->lock, &flags);
	count = r->entropy_count + nbits;
	if (count < 0)
		count = 0;
	else if (count > max)
		count = max;
	r->entropy_count = count;
	rng_spin_unlock_irqrestore(&r->lock, flags);
}

static size_t account(struct entropy_store *r, size_t nbytes, int min, int reserved)
{
	unsigned long flags;
	int have;

	rng_spin_lock_irqsave(&r->lock, &flags);
	have = r->entropy_count / 8;
	if (have < min + reserved) {
		nbytes = 0;
	} else {
		/* if limited, never pull more than available */
		if (r->limit && (long)nbytes + reserved >= have)
			nbytes = (size_t)(have - reserved);
		if (have >= (long)nbytes + reserved)
			r->entropy_count -= (int)nbytes * 8;
		else
			r->entropy_count = reserved;
	}
	rng_spin_unlock_irqrestore(&r->lock, flags);
	return nbytes;
}

/* ---- extraction ------------------------------------------------------------
 * Why: hash the whole pool, feed the hash back so earlier outputs cannot be
 * recomputed from a later pool, hash 64 freshly mixed bytes, fold in half
 * so no SHA-1 output is ever shown whole.
 */
static void extract_buf(struct entropy_store *r, uint8_t out[EXTRACT_SIZE])
{
	uint32_t hash[5], ws[SHA1_WORKSPACE_WORDS], extract[16];
	int i;

	sha1_init(hash);
	for (i = 0; i < r->poolinfo->poolwords; i += 16)
		sha1_transform(hash, (const uint8_t *)(r->pool + i), ws);
	mix_pool_bytes_extract(r, hash, sizeof(hash), extract);
	sha1_transform(hash, (const uint8_t *)extract, ws);
	rng_memzero_explicit(extract, sizeof(extract));
	rng_memzero_explicit(ws, sizeof(ws));

	hash[0] ^= hash[3];
	hash[1] ^= hash[4];
	hash[2] ^= rol32(hash[2], 16);
	__builtin_memcpy(out, hash, EXTRACT_SIZE);
	rng_memzero_explicit(hash, sizeof(hash));
}

static size_t extract_entropy(struct entropy_store *r, void *buf, size_t nbytes, int min,
			      int reserved);

static void xfer_secondary_pool(struct entropy_store *r, size_t nbytes)
{
	uint32_t tmp[OUTPUT_POOL_WORDS];
	int rsvd, bytes;

	if (!r->pull || r->entropy_count >= (long)nbytes * 8 ||
	    r->entropy_count >= r->poolinfo->poolwords * 32)
		return;
	/* if we're limited, always leave two wakeup worth's bits */
	rsvd = r->limit ? 0 : random_read_wakeup_thresh / 4;
	/* pull at least as many bytes as wakeup bits, never more than tmp */
	bytes = nbytes > sizeof(tmp) ? (int)sizeof(tmp) : (int)nbytes;
	if (bytes < random_read_wakeup_thresh / 8)
		bytes = random_read_wakeup_thresh / 8;
	bytes = (int)extract_entropy(r->pull, tmp, (size_t)bytes, random_read_wakeup_thresh / 8,
				     rsvd);
	mix_pool_bytes(r, tmp, (size_t)bytes);
	credit_entropy_bits(r, bytes * 8);
	rng_memzero_explicit(tmp, sizeof(tmp));
}

static size_t extract_entropy(struct entropy_store *r, void *buf, size_t nbytes, int min,
			      int reserved)
{
	uint8_t tmp[EXTRACT_SIZE], *p = buf;
	size_t ret = 0, i;

	xfer_secondary_pool(r, nbytes);
	nbytes = account(r, nbytes, min, reserved);
	while (nbytes) {
		extract_buf(r, tmp);
		i = nbytes < EXTRACT_SIZE ? nbytes : EXTRACT_SIZE;
		__builtin_memcpy(p, tmp, i);
		nbytes -= i;
		p += i;
		ret += i;
	}
	rng_memzero_explicit(tmp, sizeof(tmp));
	return ret;
}

void pool2629_get_random_bytes(void *buf, size_t nbytes)
{
	if (!buf || !nbytes)
		return;
	extract_entropy(&nonblocking_pool, buf, nbytes, 0, 0);
}

void pool2629_extract_buf(uint8_t out[EXTRACT_SIZE])
{
	if (out)
		extract_buf(&nonblocking_pool, out);
}

/* ---- interrupt input ---------------------------------------------------------
 * Why: 2.6.29's only steady entropy source.  Each event mixes {cycles,
 * jiffies, num} into the input pool and credits the minimum of the first,
 * second and third jiffies deltas (halved, capped at 11 bits); regular
 * timer ticks therefore credit nothing.  add_interrupt_randomness(irq) is
 * for IRQs whose driver set IRQF_SAMPLE_RANDOM (any IRQ below 16 here); in
 * 2.6.29 the x86 timer's irq0 did not (arch/x86/kernel/time_64.c), so the
 * kernel does not call it from the tick.  Input events go through
 * add_input_randomness(), as drivers/input/input.c did.
 */
struct timer_rand_state {
	uint64_t last_time;
	int64_t last_delta, last_delta2;
};

#define NR_RAND_IRQS 16
static struct timer_rand_state irq_timer_state[NR_RAND_IRQS];
/* 2.6.29: static DEFINE_PER_CPU(int, trickle_count) */
static struct {
	unsigned int n;
} __attribute__((aligned(RNG_CACHELINE))) trickle_count[RNG_NR_CPUS];

static int fls64(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static int64_t abs64(int64_t x)
{
	return x < 0 ? -x : x;
}

static void add_timer_randomness(struct timer_rand_state *state, uint32_t num, uint64_t cycles)
{
	uint8_t sample[24]; /* struct { cycles_t; long jiffies; unsigned num; } */
	uint64_t jiffies = rng_jiffies();
	int64_t delta, delta2, delta3;
	int bits;

	/* if over the trickle threshold, use only 1 in 4096 samples */
	if (input_pool.entropy_count > trickle_thresh && (trickle_count[rng_cpu_id()].n++ & 0xfff))
		return;

	__builtin_memset(sample, 0, sizeof(sample)); /* padding: zero, not stack junk */
	put_le32(sample, (uint32_t)cycles);
	put_le32(sample + 4, (uint32_t)(cycles >> 32));
	put_le32(sample + 8, (uint32_t)jiffies);
	put_le32(sample + 12, (uint32_t)(jiffies >> 32));
	put_le32(sample + 16, num);
	mix_pool_bytes(&input_pool, sample, sizeof(sample));

	delta = (int64_t)(jiffies - state->last_time);
	state->last_time = jiffies;
	delta2 = delta - state->last_delta;
	state->last_delta = delta;
	delta3 = delta2 - state->last_delta2;
	state->last_delta2 = delta2;

	delta = abs64(delta);
	if (delta > abs64(delta2))
		delta = abs64(delta2);
	if (delta > abs64(delta3))
		delta = abs64(delta3);
	bits = fls64((uint64_t)delta >> 1);
	credit_entropy_bits(&input_pool, bits < 11 ? bits : 11);
}

void pool2629_add_interrupt_randomness(uint32_t irq, uint64_t cycles)
{
	if (irq >= NR_RAND_IRQS)
		return;
	add_timer_randomness(&irq_timer_state[irq], 0x100 + irq, cycles);
}

/*
 * 2.6.29 add_input_randomness(): autorepeat (the same value as the last
 * event) is ignored; otherwise one timer-randomness sample of
 * (type << 4) ^ code ^ (code >> 4) ^ value under input_timer_state.
 */
static struct timer_rand_state input_timer_state;
static uint32_t input_last_value;

void pool2629_add_input_randomness(uint32_t type, uint32_t code, uint32_t value, uint64_t cycles)
{
	if ((uint8_t)value == input_last_value) /* static unsigned char last_value */
		return;
	input_last_value = (uint8_t)value;
	add_timer_randomness(&input_timer_state, (type << 4) ^ code ^ (code >> 4) ^ value, cycles);
}

/* ---- boot ---------------------------------------------------------------- */
static void init_std_data(struct entropy_store *r, const void *seed, size_t len, const char *label)
{
	size_t n = 0;
	unsigned long flags;

	rng_spin_lock_irqsave(&r->lock, &flags);
	r->entropy_count = 0;
	rng_spin_unlock_irqrestore(&r->lock, flags);
	if (seed && len)
		mix_pool_bytes(r, seed, len);
	while (label && label[n])
		n++;
	if (n)
		mix_pool_bytes(r, label, n);
}

static void reset_store(struct entropy_store *r)
{
	rng_memzero_explicit(r->pool, (size_t)r->poolinfo->poolwords * 4);
	r->add_ptr = 0;
	r->input_rotate = 0;
	r->entropy_count = 0;
}

void pool2629_init(const void *seed, size_t len, const char *label)
{
	reset_store(&input_pool);
	reset_store(&nonblocking_pool);
	__builtin_memset(irq_timer_state, 0, sizeof(irq_timer_state));
	__builtin_memset(&input_timer_state, 0, sizeof(input_timer_state));
	input_last_value = 0;
	__builtin_memset(trickle_count, 0, sizeof(trickle_count));
	init_std_data(&input_pool, seed, len, label);
	init_std_data(&nonblocking_pool, seed, len, label);
}

int pool2629_entropy_count(enum pool2629_id id)
{
	return id == POOL2629_INPUT ? input_pool.entropy_count : nonblocking_pool.entropy_count;
}

void pool2629_snapshot(enum pool2629_id id, uint32_t *out, size_t nwords)
{
	const struct entropy_store *r = id == POOL2629_INPUT ? &input_pool : &nonblocking_pool;
	size_t i, max = (size_t)r->poolinfo->poolwords;

	if (!out)
		return;
	for (i = 0; i < nwords && i < max; i++)
		out[i] = r->pool[i];
}
