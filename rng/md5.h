/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_MD5_H
#define RNG_MD5_H

#include <stddef.h>
#include <stdint.h>

#define MD5_DIGEST_WORDS  4
#define MD5_MESSAGE_BYTES 64

/* md5_transform - Linux lib/md5.c: one MD5 compression, 16 LE words */
void md5_transform(uint32_t hash[MD5_DIGEST_WORDS], const uint32_t in[16]);
/* md5_digest - RFC 1321 MD5 of a whole message */
void md5_digest(const void *msg, size_t len, uint8_t out[16]);

#endif
