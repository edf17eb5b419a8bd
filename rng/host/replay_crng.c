// SPDX-License-Identifier: GPL-2.0
/*
 * replay_crng.c - `rngtool replay chacha20-batched --base-key HEX64 --count N`.
 *
 * Why: the contract that chacha20-batched is Linux 6.x get_random_u32() must
 * be checkable from outside: given base_crng.key, the first N values of a
 * CPU whose per-CPU key has not been derived yet (crngs.generation ==
 * ULONG_MAX, batch position UINT_MAX) are fixed by Linux's random.c alone.
 * tests/sh/crng-replay.sh compares them with tests/crng_ref.py, written from
 * Linux's source and RFC 8439, not from this code.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "rng/chacha20_batched.h"
#include "rng/host/replay_crng.h"
#include "rng/rng.h"

#define REPLAY_MAX_COUNT 100000000ull

/* 64 hex digits, byte k = digits 2k, 2k+1 (the key bytes in memory order) */
static const char *parse_key(const char *s, uint8_t key[CHACHA_KEY_SIZE])
{
	int i;

	if (strlen(s) != 2 * CHACHA_KEY_SIZE)
		return "--base-key needs exactly 64 hex digits";
	for (i = 0; i < CHACHA_KEY_SIZE; i++) {
		int hi = hex_to_bin(s[2 * i]), lo = hex_to_bin(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return "--base-key is not hex";
		key[i] = (uint8_t)(hi << 4 | lo);
	}
	return NULL;
}

static const char *parse_count(const char *s, unsigned long long *n)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return "--count needs a positive decimal number";
	*n = strtoull(s, &end, 10);
	if (*end || *n == 0 || *n > REPLAY_MAX_COUNT)
		return "--count needs a decimal number from 1 to 100000000";
	return NULL;
}

/* --widths 64,16,32,...: the batch each draw comes from, repeated cyclically */
#define REPLAY_MAX_WIDTHS 64
static const char *parse_widths(const char *s, int *w, int *nw)
{
	*nw = 0;
	while (*s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || (v != 16 && v != 32 && v != 64) || *nw == REPLAY_MAX_WIDTHS)
			return "--widths needs up to 64 of 16, 32, 64, comma separated";
		w[(*nw)++] = (int)v;
		s = end;
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return "--widths needs up to 64 of 16, 32, 64, comma separated";
	}
	return *nw ? NULL : "--widths needs up to 64 of 16, 32, 64, comma separated";
}

const char *replay_crng(int argc, char **argv)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	uint8_t key[CHACHA_KEY_SIZE];
	unsigned long long n = 0, k;
	const char *err;
	bool have_key = false;
	int i, widths[REPLAY_MAX_WIDTHS] = {32}, nw = 1;

	for (i = 0; i < argc; i++) {
		if (i + 1 >= argc)
			return "replay chacha20-batched: an option is missing its value";
		if (!strcmp(argv[i], "--base-key")) {
			err = parse_key(argv[++i], key);
			have_key = true;
		} else if (!strcmp(argv[i], "--count")) {
			err = parse_count(argv[++i], &n);
		} else if (!strcmp(argv[i], "--widths")) {
			err = parse_widths(argv[++i], widths, &nw);
		} else {
			return "replay chacha20-batched: takes only --base-key HEX64 --count N "
			       "[--widths W,...]";
		}
		if (err)
			return err;
	}
	if (!have_key || !n)
		return "replay chacha20-batched: --base-key HEX64 and --count N are required";
	/* the default platform: jiffies stay 0, so no reseed falls due */
	rng_set_platform(NULL);
	crng_replay_init(key);
	for (k = 0; k < n; k++) {
		int w = widths[k % (unsigned)nw];

		if (w == 16)
			printf("%04" PRIx16 "\n", v->get_u16());
		else if (w == 64)
			printf("%016" PRIx64 "\n", v->get_u64());
		else
			printf("%08" PRIx32 "\n", v->get_u32());
	}
	return NULL;
}
