// SPDX-License-Identifier: GPL-2.0
/*
 * input_pool.c - the input pool of Linux 6.x and its extraction, exactly.
 *
 * Why: chacha20-batched is Linux 6.x's get_random_u32(), and after every
 * reseed its base key is what extract_entropy() returns.  Followed line by
 * line: Linux 6.12 drivers/char/random.c, input_pool (a BLAKE2s state
 * initialised unkeyed for a 32-byte digest), _mix_pool_bytes() (a BLAKE2s
 * update), extract_entropy() (an HKDF-like construction: seed = the pool's
 * digest; the pool re-keyed with HASHPRF(seed, RDSEED || 0); output block
 * i = HASHPRF(seed, RDSEED || i)) and add_input_randomness() /
 * add_timer_randomness() outside a hard IRQ (the cycle counter and the
 * event's number mixed in).
 *
 * Not modelled: the entropy credit (init_bits; it only decides when a
 * booting Linux first calls crng_reseed) and add_interrupt_randomness's
 * per-CPU fast_mix (here no interrupt feeds the 6.x pool).  The inputs are
 * this kernel's own: the boot seed (random_init_early mixes RDSEED longs,
 * utsname and the command line there), keyboard events and the
 * extractions' RDSEED/RDRAND/cycle words; every one is logged, so that
 * `rngtool replay chacha20-batched --inputs FILE` recomputes the keys.
 */
#include "rng/blake2s.h"
#include "rng/input_pool.h"
#include "rng/spinlock.h"
#include "rng/util.h"

/* 6.6: static struct { struct blake2s_state hash; spinlock_t lock; ... } input_pool */
static struct blake2s_state input_pool;
static struct rng_spinlock input_pool_lock; /* also orders the input log */

/* ---- the input log ---- */
#define INPUT_LOG_BYTES 8192
static uint8_t input_log[INPUT_LOG_BYTES];
static size_t input_log_len, input_log_last; /* the last event's offset */
static bool input_log_lost;

/* an event: kind, 2-byte little-endian length, bytes */
static void input_log_add(char kind, const uint8_t *bytes, size_t len)
{
	uint8_t *last = input_log + input_log_last;
	size_t last_len;

	if (input_log_lost)
		return;
	if (kind == 'm' && input_log_len && last[0] == 'm') {
		last_len = (size_t)last[1] | (size_t)last[2] << 8;
		if (last_len + len <= 0xffff && input_log_len + len <= INPUT_LOG_BYTES) {
			__builtin_memcpy(input_log + input_log_len, bytes, len);
			input_log_len += len;
			last_len += len;
			last[1] = (uint8_t)last_len;
			last[2] = (uint8_t)(last_len >> 8);
			return;
		}
	}
	if (len > 0xffff || input_log_len + 3 + len > INPUT_LOG_BYTES) {
		input_log_lost = true;
		return;
	}
	input_log_last = input_log_len;
	input_log[input_log_len] = (uint8_t)kind;
	input_log[input_log_len + 1] = (uint8_t)len;
	input_log[input_log_len + 2] = (uint8_t)(len >> 8);
	__builtin_memcpy(input_log + input_log_len + 3, bytes, len);
	input_log_len += 3 + len;
}

bool input_pool_log_walk(input_pool_event_fn fn, void *ctx)
{
	size_t off = 0;

	while (off < input_log_len) {
		size_t len = (size_t)input_log[off + 1] | (size_t)input_log[off + 2] << 8;

		fn(ctx, (char)input_log[off], input_log + off + 3, len);
		off += 3 + len;
	}
	return !input_log_lost;
}

/* ---- the pool ---- */
void input_pool_init(void)
{
	blake2s_init(&input_pool, BLAKE2S_HASH_SIZE);
	input_log_len = input_log_last = 0;
	input_log_lost = false;
}

/* 6.6 mix_pool_bytes(): _mix_pool_bytes() under input_pool.lock */
void mix_pool_bytes(const void *buf, size_t len)
{
	unsigned long flags;

	rng_spin_lock_irqsave(&input_pool_lock, &flags);
	blake2s_update(&input_pool, buf, len);
	input_log_add('m', buf, len);
	rng_spin_unlock_irqrestore(&input_pool_lock, flags);
}

void extract_entropy_seeded(void *buf, size_t len, const uint64_t rdseed[INPUT_POOL_SEED_LONGS])
{
	uint8_t seed[BLAKE2S_HASH_SIZE], next_key[BLAKE2S_HASH_SIZE], *out = buf;
	/* struct { unsigned long rdseed[4]; size_t counter; } block, on x86_64 */
	uint8_t block[INPUT_POOL_SEED_LONGS * 8 + 8];
	uint64_t counter = 0;
	unsigned long flags;
	size_t i;

	for (i = 0; i < INPUT_POOL_SEED_LONGS; i++)
		__builtin_memcpy(block + 8 * i, &rdseed[i], 8);
	/* 6.6 extract_entropy(): the pool's hash is finalised and re-keyed under its lock */
	rng_spin_lock_irqsave(&input_pool_lock, &flags);
	input_log_add('x', block, INPUT_POOL_SEED_LONGS * 8);

	/* seed = HASHPRF(last_key, entropy_input) */
	blake2s_final(&input_pool, seed);
	/* next_key = HASHPRF(seed, RDSEED || 0) */
	__builtin_memcpy(block + INPUT_POOL_SEED_LONGS * 8, &counter, 8);
	blake2s(next_key, block, seed, sizeof(next_key), sizeof(block), sizeof(seed));
	blake2s_init_key(&input_pool, BLAKE2S_HASH_SIZE, next_key, sizeof(next_key));
	rng_spin_unlock_irqrestore(&input_pool_lock, flags);
	rng_memzero_explicit(next_key, sizeof(next_key));

	while (len) {
		i = len < BLAKE2S_HASH_SIZE ? len : BLAKE2S_HASH_SIZE;
		/* output = HASHPRF(seed, RDSEED || ++counter) */
		++counter;
		__builtin_memcpy(block + INPUT_POOL_SEED_LONGS * 8, &counter, 8);
		blake2s(out, block, seed, i, sizeof(block), sizeof(seed));
		len -= i;
		out += i;
	}
	rng_memzero_explicit(seed, sizeof(seed));
	rng_memzero_explicit(block, sizeof(block));
}

/* 6.12: arch_get_random_seed_longs(), then arch_get_random_longs(), then random_get_entropy() */
void extract_entropy(void *buf, size_t len)
{
	uint64_t rdseed[INPUT_POOL_SEED_LONGS];
	size_t i = 0, longs;

	while (i < INPUT_POOL_SEED_LONGS) {
		longs = rng_arch_seed_longs(&rdseed[i], INPUT_POOL_SEED_LONGS - i);
		if (!longs)
			longs = rng_arch_longs(&rdseed[i], INPUT_POOL_SEED_LONGS - i);
		if (longs) {
			i += longs;
			continue;
		}
		rdseed[i++] = rng_get_cycles();
	}
	extract_entropy_seeded(buf, len, rdseed);
	rng_memzero_explicit(rdseed, sizeof(rdseed));
}

/*
 * 6.12 add_input_randomness(): autorepeat (the same value again) is
 * ignored; then add_timer_randomness() outside a hard IRQ mixes
 * random_get_entropy() as an unsigned long and num as an unsigned int.
 */
void input_pool_add_input_randomness(uint32_t type, uint32_t code, uint32_t value, uint64_t cycles)
{
	static unsigned char last_value;
	uint32_t num;

	if (value == last_value) /* as Linux: an unsigned int against the low byte kept */
		return;
	last_value = (unsigned char)value;
	num = (type << 4) ^ code ^ (code >> 4) ^ value;
	mix_pool_bytes(&cycles, sizeof(cycles));
	mix_pool_bytes(&num, sizeof(num));
}
