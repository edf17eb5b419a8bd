/* SPDX-License-Identifier: GPL-2.0 */
/*
 * variants.h - the variant objects and the pure, state-passing cores that
 * the replay tool and the attack lab use to recompute outputs.
 */
#ifndef RNG_VARIANTS_H
#define RNG_VARIANTS_H

#include <stdint.h>

#include "rng/keydata.h"
#include "rng/rng.h"

extern const struct rng_variant rng_variant_prandom;
extern const struct rng_variant rng_variant_ipid_2629;
extern const struct rng_variant rng_variant_md4_2630;
extern const struct rng_variant rng_variant_sha1_mackall;
extern const struct rng_variant rng_variant_urandom_2629;
extern const struct rng_variant rng_variant_md5_3x;
extern const struct rng_variant rng_variant_chacha20_batched;
extern const struct rng_variant rng_variant_chacha20_wide;
extern const struct rng_variant rng_variant_rdrand;

/* 2.6.29: secure_ip_id(daddr) under @secret (12 words); get_random_int()
 * passes daddr = pid + jiffies */
uint32_t secure_ip_id_keyed(const uint32_t secret[12], uint32_t daddr);
/* 2.6.30: hash[0] += pid + jiffies + cycles; half_md4_transform(hash, secret) */
uint32_t get_random_int_md4(uint32_t hash[4], const uint32_t secret[12], uint32_t pid,
			    uint64_t jiffies, uint64_t cycles);
/* sha1-mackall: same kept state, SHA-1 compression over a 16-word secret */
uint32_t get_random_int_sha1(uint32_t hash[5], const uint32_t secret[16], uint32_t pid,
			     uint64_t jiffies, uint64_t cycles);
/* 3.x: hash[0] += pid + jiffies + cycles; md5_transform(hash, secret); hash[0] */
uint32_t get_random_int_md5(uint32_t hash[4], const uint32_t secret[16], uint32_t pid,
			    uint64_t jiffies, uint64_t cycles);

/* x86_init_rdrand() saw 16 equal values: Linux 5.10 warns and keeps RDRAND */
bool rdrand_stuck(void);

/* ground truth for tests and the attack lab (the kernel's view) */
const struct rng_keydata *ipid2629_keydata(void);
const struct rng_keydata *md4_2630_keydata(void);
void md4_2630_get_hash(uint32_t out[4]);

#endif
