/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_SHA1_H
#define RNG_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_WORDS    5
#define SHA1_BLOCK_SIZE	     64
#define SHA1_WORKSPACE_WORDS 16

void sha1_init(uint32_t digest[SHA1_DIGEST_WORDS]);
/*
 * sha1_transform - Linux lib/sha1.c sha_transform(): one SHA-1 compression
 * of a 64-byte block read as big-endian words, added into @digest.
 * @ws is scratch (SHA1_WORKSPACE_WORDS) that the caller wipes.
 */
void sha1_transform(uint32_t digest[SHA1_DIGEST_WORDS], const uint8_t in[SHA1_BLOCK_SIZE],
		    uint32_t ws[SHA1_WORKSPACE_WORDS]);
/* sha1_digest - FIPS 180-4 SHA-1 of a whole message (tests only) */
void sha1_digest(const void *msg, size_t len, uint8_t out[20]);

#endif
