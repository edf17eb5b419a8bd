/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_KEYDATA_H
#define RNG_KEYDATA_H

#include <stdbool.h>
#include <stdint.h>

/*
 * struct keydata of 2.6.29 random.c: a secret re-keyed from the pool every
 * REKEY_INTERVAL (300 s) by rekey_seq_generator().  Linux kept 12 words;
 * sha1-mackall uses 16 (one SHA-1 block).
 */
#define KEYDATA_MAX_WORDS 16
#define REKEY_SECONDS	  300
#define COUNT_BITS	  8
#define COUNT_MASK	  ((1u << COUNT_BITS) - 1)
#define HASH_BITS	  24

struct rng_keydata {
	uint32_t count;
	uint32_t secret[KEYDATA_MAX_WORDS];
	unsigned int words;  /* 12 or 16 */
	uint32_t ip_cnt;     /* number of re-keys so far */
	uint64_t next_rekey; /* jiffies of the next scheduled re-key */
	bool keyed;
};

/* first key now, schedule the next one REKEY_INTERVAL later */
void keydata_init(struct rng_keydata *kd, unsigned int words);
/* get_keyptr(): runs any re-key that the delayed work would have done */
const struct rng_keydata *keydata_get(struct rng_keydata *kd);

#endif
