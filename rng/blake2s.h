/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_BLAKE2S_H
#define RNG_BLAKE2S_H

#include <stddef.h>
#include <stdint.h>

/* BLAKE2s-256 (RFC 7693), with Linux 6.12's interface (include/crypto/blake2s.h). */
#define BLAKE2S_BLOCK_SIZE 64
#define BLAKE2S_HASH_SIZE  32
#define BLAKE2S_KEY_SIZE   32

struct blake2s_state {
	uint32_t h[8];
	uint32_t t[2];
	uint32_t f[2];
	uint8_t buf[BLAKE2S_BLOCK_SIZE];
	unsigned int buflen;
	unsigned int outlen;
};

void blake2s_init(struct blake2s_state *state, size_t outlen);
void blake2s_init_key(struct blake2s_state *state, size_t outlen, const void *key, size_t keylen);
void blake2s_update(struct blake2s_state *state, const uint8_t *in, size_t inlen);
void blake2s_final(struct blake2s_state *state, uint8_t *out);
/* one call: 6.12's argument order (out, in, key, outlen, inlen, keylen); key may be NULL */
void blake2s(uint8_t *out, const uint8_t *in, const uint8_t *key, size_t outlen, size_t inlen,
	     size_t keylen);

#endif
