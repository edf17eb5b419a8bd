/*
 * SHA-256 (FIPS 180-4), freestanding: the loader hashes the kernel ELF it
 * read so that the boot record names the exact image that ran.  Also built
 * on the host by tests/boot/test_sha256.c against the FIPS 180-4 examples.
 */
#ifndef BOOT_SHA256_H
#define BOOT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

struct sha256_ctx {
	uint32_t h[8];
	uint64_t len; /* bytes hashed so far */
	uint8_t buf[64];
	uint32_t fill; /* bytes waiting in buf */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t n);
void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_SIZE]);
void sha256(const void *data, size_t n, uint8_t out[SHA256_DIGEST_SIZE]);

#endif
