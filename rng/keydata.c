// SPDX-License-Identifier: GPL-2.0
/*
 * keydata.c - the 300-second re-key of 2.6.29's secure_ip_id() secret.
 *
 * Why: in 2.6.29 and 2.6.30 the half-MD4 key changed only every five
 * minutes (a delayed work item called rekey_seq_generator(), which drew
 * the new secret with get_random_bytes()).  Within one period
 * get_random_int() of 2.6.29 is a fixed function of pid + jiffies, which
 * is the whole weakness the attack lab exploits.  There is no workqueue
 * here: keydata_get() runs the re-key lazily when the scheduled jiffy has
 * passed, with the schedule kept on the grid of the first key.
 */
#include "rng/keydata.h"
#include "rng/pool.h"
#include "rng/util.h"

static uint64_t rekey_interval(void)
{
	return (uint64_t)REKEY_SECONDS * rng_hz();
}

static void rekey_seq_generator(struct rng_keydata *kd)
{
	pool2629_get_random_bytes(kd->secret, kd->words * sizeof(uint32_t));
	kd->count = (kd->ip_cnt & COUNT_MASK) << HASH_BITS;
	kd->ip_cnt++;
	kd->keyed = true;
}

void keydata_init(struct rng_keydata *kd, unsigned int words)
{
	if (!kd)
		return;
	rng_memzero_explicit(kd, sizeof(*kd));
	kd->words = words > KEYDATA_MAX_WORDS ? KEYDATA_MAX_WORDS : words;
	rekey_seq_generator(kd);
	kd->next_rekey = rng_jiffies() + rekey_interval();
}

const struct rng_keydata *keydata_get(struct rng_keydata *kd)
{
	uint64_t now = rng_jiffies(), interval = rekey_interval(), due;

	if (!kd->keyed)
		keydata_init(kd, kd->words ? kd->words : 12);
	due = __atomic_load_n(&kd->next_rekey, __ATOMIC_RELAXED);
	/*
	 * The work item ran (at least) once since the last call; it runs once
	 * however many CPUs draw: the one that moves next_rekey on re-keys.
	 * (2.6.29 re-keyed the inactive copy of ip_keydata[2] and then flipped
	 * ip_cnt; a draw racing this re-key here may read a half-new key.)
	 */
	if (now >= due && __atomic_compare_exchange_n(&kd->next_rekey, &due,
						      due + ((now - due) / interval + 1) * interval,
						      false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		rekey_seq_generator(kd);
	return kd;
}
