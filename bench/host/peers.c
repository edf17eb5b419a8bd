/*
 * The peers: user-space ways to get a random u32 on this host, measured by
 * the same harness as rng/ so the table puts them side by side.  Each
 * get_u32 asks its library for exactly 4 bytes, as a caller would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <openssl/rand.h>
#include <sodium.h>
#include <stdlib.h>
#include <sys/random.h>

#include "bench/host/peers.h"

static bool always(void)
{
	return true;
}

/* getrandom(2) may return short on a signal (bench-host's jiffies timer). */
static void gr_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			abort();
		}
		p += n;
		len -= (size_t)n;
	}
}

static uint32_t gr_u32(void)
{
	uint32_t v;

	gr_bytes(&v, sizeof(v));
	return v;
}

static bool gr_available(void)
{
	uint32_t v;

	return getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v);
}

static uint32_t a4_u32(void)
{
	return arc4random();
}

static void a4_bytes(void *buf, size_t len)
{
	arc4random_buf(buf, len);
}

static uint32_t ossl_u32(void)
{
	uint32_t v;

	if (RAND_bytes((unsigned char *)&v, sizeof(v)) != 1)
		abort();
	return v;
}

static void ossl_bytes(void *buf, size_t len)
{
	if (RAND_bytes(buf, (int)len) != 1)
		abort();
}

static bool ossl_available(void)
{
	return RAND_status() == 1;
}

static bool na_available(void)
{
	return sodium_init() >= 0;
}

static uint32_t na_u32(void)
{
	return randombytes_random();
}

static const struct rng_variant p_getrandom = {
	.name = "getrandom-syscall",
	.summary = "getrandom(2), 4 bytes per call",
	.secure = true,
	.available = gr_available,
	.get_u32 = gr_u32,
	.get_bytes = gr_bytes,
};

static const struct rng_variant p_arc4random = {
	.name = "arc4random",
	.summary = "glibc arc4random()",
	.secure = true,
	.available = always,
	.get_u32 = a4_u32,
	.get_bytes = a4_bytes,
};

static const struct rng_variant p_openssl = {
	.name = "openssl-RAND_bytes",
	.summary = "OpenSSL RAND_bytes(), 4 bytes per call",
	.secure = true,
	.available = ossl_available,
	.get_u32 = ossl_u32,
	.get_bytes = ossl_bytes,
};

static const struct rng_variant p_sodium = {
	.name = "libsodium-randombytes_random",
	.summary = "libsodium randombytes_random()",
	.secure = true,
	.available = na_available,
	.get_u32 = na_u32,
	.get_bytes = randombytes_buf,
};

const struct rng_variant *const host_peers[] = {
	&p_getrandom, &p_arc4random, &p_openssl, &p_sodium, NULL,
};
