/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_MD4_H
#define RNG_MD4_H

#include <stddef.h>
#include <stdint.h>

/* md4_transform - the full 48-step MD4 compression over 16 LE words */
void md4_transform(uint32_t hash[4], const uint32_t in[16]);
/* md4_digest - RFC 1320 MD4 of a whole message (padding, length) */
void md4_digest(const void *msg, size_t len, uint8_t out[16]);

#endif
