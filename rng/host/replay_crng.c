// SPDX-License-Identifier: GPL-2.0
/*
 * replay_crng.c - `rngtool replay chacha20-batched --base-key HEX64 --count N`.
 *
 * Why: the contract that chacha20-batched is Linux 6.x get_random_u32() must
 * be checkable from outside: given base_crng.key, the first N values of a
 * CPU whose per-CPU key has not been derived yet (crngs.generation ==
 * ULONG_MAX, batch position UINT_MAX) are fixed by Linux's random.c alone.
 * tests/sh/rngtool.sh compares them with tests/ref/crng_ref.py, written
 * from Linux's source, RFC 8439 and Python's BLAKE2s, not from this code.
 * With --inputs FILE the base key is the one the 6.x input pool gives after
 * the recorded inputs (rng/input_pool.c): "mix HEX" and "extract HEX64"
 * lines, as the kernel prints them (kernel/test/test_crng.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "rng/chacha20_batched.h"
#include "rng/host/replay_crng.h"
#include "rng/input_pool.h"
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

static const char *parse_hex(const char *s, uint8_t *out, size_t cap, size_t *n)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (len % 2 || len / 2 > cap)
		return "an odd or too long hex string";
	for (*n = 0; *n < len / 2; (*n)++) {
		int hi = hex_to_bin(s[2 * *n]), lo = hex_to_bin(s[2 * *n + 1]);

		if (hi < 0 || lo < 0)
			return "not hex";
		out[*n] = (uint8_t)(hi << 4 | lo);
	}
	return NULL;
}

/* the 6.x input pool fed the recorded inputs; @key: the last extraction's output */
static const char *replay_inputs(const char *path, uint8_t key[CHACHA_KEY_SIZE])
{
	static char line[65536];
	static uint8_t bytes[sizeof(line) / 2];
	FILE *f = fopen(path, "r");
	bool have_key = false;
	const char *err = NULL;
	size_t n;

	if (!f)
		return "--inputs: cannot open the file";
	input_pool_init();
	while (!err && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!strncmp(line, "mix ", 4)) {
			err = parse_hex(line + 4, bytes, sizeof(bytes), &n);
			if (!err)
				mix_pool_bytes(bytes, n);
		} else if (!strncmp(line, "extract ", 8)) {
			uint64_t rdseed[INPUT_POOL_SEED_LONGS];

			err = parse_hex(line + 8, bytes, sizeof(bytes), &n);
			if (!err && n != sizeof(rdseed))
				err = "an extract line needs 64 hex digits";
			if (!err) {
				memcpy(rdseed, bytes, sizeof(rdseed));
				extract_entropy_seeded(key, CHACHA_KEY_SIZE, rdseed);
				have_key = true;
			}
		} else {
			err = "a line is neither \"mix HEX\" nor \"extract HEX64\"";
		}
	}
	fclose(f);
	if (!err && !have_key)
		err = "--inputs: no extract line, so no reseed to replay";
	return err ? (strncmp(err, "--inputs", 8)
			      ? "--inputs: a malformed line (mix HEX, extract HEX64)"
			      : err)
		   : NULL;
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
			err = have_key ? "replay chacha20-batched: --base-key or --inputs, once"
				       : parse_key(argv[++i], key);
			have_key = true;
		} else if (!strcmp(argv[i], "--inputs")) {
			err = have_key ? "replay chacha20-batched: --base-key or --inputs, once"
				       : replay_inputs(argv[++i], key);
			have_key = true;
		} else if (!strcmp(argv[i], "--count")) {
			err = parse_count(argv[++i], &n);
		} else if (!strcmp(argv[i], "--widths")) {
			err = parse_widths(argv[++i], widths, &nw);
		} else {
			return "replay chacha20-batched: takes only --base-key HEX64 (or --inputs "
			       "FILE) --count N [--widths W,...]";
		}
		if (err)
			return err;
	}
	if (!have_key || !n)
		return "replay chacha20-batched: --base-key HEX64 (or --inputs FILE) and --count N "
		       "are required";
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
