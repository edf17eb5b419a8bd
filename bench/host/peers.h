/* What a Linux user would call instead, shaped as rng variants. */
#ifndef BENCH_HOST_PEERS_H
#define BENCH_HOST_PEERS_H

#include "rng/rng.h"

/* NULL-terminated: getrandom-syscall, arc4random, openssl-RAND_bytes,
 * libsodium-randombytes_random. */
extern const struct rng_variant *const host_peers[];

#endif
