// SPDX-License-Identifier: GPL-2.0
/*
 * rngtool - host front end to rng/: known-answer checks, replay of the
 * 2009 generators from chosen inputs, output streams for dieharder/ent,
 * and a quick cycles-per-call measurement.  See usage() for the contract.
 *
 * Over 500 lines: one command whose sub-commands share the argument parser,
 * the hex formats and the exit codes that tests/sh/rngtool.sh holds it to;
 * the ChaCha20 CRNG replay already lives apart (replay_crng.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "rng/halfmd4.h"
#include "rng/host/replay_crng.h"
#include "rng/rng.h"
#include "rng/variants.h"

#define EXIT_USAGE 2
#ifndef ASLRBENCH_VERSION /* given by kernel/version.mk: git describe */
#define ASLRBENCH_VERSION "unknown"
#endif

/* --help prints the usage on stdout and succeeds; bad arguments, on stderr. */
static FILE *usage_out;
static int usage_status = EXIT_USAGE;

static void usage(void)
{
	fputs("usage:\n"
	      "  rngtool kat half_md4 B0 B1 B2 B3 I0 I1 I2 I3 I4 I5 I6 I7\n"
	      "      hex words in; prints \"RET B0 B1 B2 B3\" (return value, updated buf)\n"
	      "  rngtool replay <variant> --secret W0,..,Wn [--state S0,..] PID:JIFFIES:CYCLES...\n"
	      "      one 8-digit hex u32 per call.  ipid-2.6.29 and md4-2.6.30: 12-word\n"
	      "      keydata secret (half_md4 reads W0..W7; ipid also W9..W11), md4 state\n"
	      "      4 words; also md5-3.x (16-word secret, 4-word state) and sha1-mackall\n"
	      "      (16-word secret, 5-word state).  State defaults to zeros.  Words are\n"
	      "      hex; PID, JIFFIES, CYCLES are decimal, or hex with a 0x prefix.\n"
	      "  rngtool replay chacha20-batched --base-key HEX64 --count N [--widths W,...]\n"
	      "      the first N get_random_u32() values (Linux 6.x) of a CPU whose\n"
	      "      per-CPU key is not derived yet when base_crng.key is HEX64 (32\n"
	      "      bytes in memory order); one 8-digit hex u32 per line.  --widths\n"
	      "      16,64,...: draw k from the u16, u32 or u64 batch named by entry\n"
	      "      k mod the list's length, printed in 4, 8 or 16 hex digits.\n"
	      "  rngtool replay chacha20-batched --inputs FILE --count N [--widths W,...]\n"
	      "      the same after the last reseed FILE records: base_crng.key is what\n"
	      "      the 6.x input pool (BLAKE2s, Linux 6.12 extract_entropy) gives for\n"
	      "      its lines \"mix HEX\" (bytes mixed in) and \"extract HEX64\" (an\n"
	      "      extraction's RDSEED block), as the kernel prints them.\n"
	      "  rngtool stream <variant> [--seed HEX] [--count N] [--format bin|hex]\n"
	      "                 [--interval CYCLES]\n"
	      "      N u32 outputs of get_u32(); bin is raw little-endian (for dieharder\n"
	      "      -g 200 and ent), hex is one 8-digit word per line.  Default count:\n"
	      "      unbounded for bin (stops when the reader closes the pipe), 16 for hex.\n"
	      "      Default seed: none (deterministic).  The 2009 variants see a simulated\n"
	      "      machine: HZ=250, 2.5 GHz cycle counter, each call a new process\n"
	      "      (pid 300..32767 cycling) INTERVAL+jitter(0..INTERVAL/8) cycles after\n"
	      "      the last (--interval CYCLES, default 12500000 = 5 ms; below 4 ms per\n"
	      "      fork, pid + jiffies repeats after a pid wrap and ipid-2.6.29 repeats\n"
	      "      its outputs within a key period),\n"
	      "      jiffies = cycles / 10^7, a device interrupt (irq 11, as if its\n"
	      "      driver set IRQF_SAMPLE_RANDOM) every 1..64 ticks feeding the 2.6.29\n"
	      "      input pool; jitter and device gaps come from an xorshift seeded\n"
	      "      from --seed.  Unavailable variant: message, exit status 1.\n"
	      "  rngtool list           variant names, secure flag, availability\n"
	      "  rngtool bench [N] [VARIANT...]\n"
	      "      rdtsc cycles per get_u32(), best of 5 runs of N calls (default\n"
	      "      1000000), for each VARIANT given (default every variant)\n"
	      "  rngtool --help | --version\n"
	      "Bad arguments: this message and exit status 2.\n",
	      usage_out ? usage_out : stderr);
	exit(usage_status);
}

/* The error and one line of usage: the full text would bury the error. */
static void die_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "rngtool: ");
	fprintf(stderr, fmt, arg);
	fputs("\nusage: rngtool kat|replay|stream|list|bench ...  (rngtool --help for the "
	      "details)\n",
	      stderr);
	exit(EXIT_USAGE);
}

/* ---- argument parsing -------------------------------------------------- */
static uint32_t parse_hex32(const char *s)
{
	uint32_t v = 0;
	size_t n = 0;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; *p; p++, n++) {
		if (hex_to_bin(*p) < 0 || n >= 8)
			die_usage("not a 32-bit hex word: '%s'", s);
		v = v << 4 | (uint32_t)hex_to_bin(*p);
	}
	if (!n)
		die_usage("not a 32-bit hex word: '%s'", s);
	return v;
}

static uint64_t parse_u64(const char *s)
{
	uint64_t v = 0;
	const char *p = s;
	int base = 10, d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		die_usage("not a number: '%s'", s);
	for (; *p; p++) {
		d = hex_to_bin(*p);
		if (d < 0 || d >= base || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			die_usage("not a number: '%s'", s);
		v = v * (uint64_t)base + (uint64_t)d;
	}
	return v;
}

/* "W0,W1,..." with exactly @n words */
static void parse_words(const char *s, uint32_t *out, size_t n, const char *what)
{
	char buf[1024], *tok, *save = NULL;
	size_t k = 0;

	if (strlen(s) >= sizeof(buf))
		die_usage("%s: too long", what);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (k == n)
			die_usage("%s: too many words", what);
		out[k++] = parse_hex32(tok);
	}
	if (k != n || s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		fprintf(stderr, "rngtool: %s: need exactly %zu comma-separated words\n", what, n);
		usage();
	}
}

static size_t parse_hexbytes(const char *s, uint8_t *out, size_t max)
{
	size_t len = strlen(s), i, n = 0;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		len -= 2;
	}
	if (!len || (len + 1) / 2 > max)
		die_usage("bad --seed: '%s'", s);
	for (i = 0; i < len; i++)
		if (hex_to_bin(p[i]) < 0)
			die_usage("bad --seed: '%s'", s);
	/* an odd number of digits is read as if it had a leading 0 */
	if (len & 1) {
		out[n++] = (uint8_t)hex_to_bin(*p++);
		len--;
	}
	for (i = 0; i < len; i += 2)
		out[n++] = (uint8_t)(hex_to_bin(p[i]) << 4 | hex_to_bin(p[i + 1]));
	return n;
}

static const struct rng_variant *find_variant(const char *name)
{
	const struct rng_variant *v = rng_find(name);

	if (!v)
		die_usage("unknown variant '%s' (rngtool list names them)", name);
	return v;
}

/* ---- kat ----------------------------------------------------------------- */
static int cmd_kat(int argc, char **argv)
{
	uint32_t buf[4], in[8], ret;
	int i;

	if (argc < 1 || strcmp(argv[0], "half_md4") != 0)
		die_usage("kat: unknown primitive '%s'", argc ? argv[0] : "");
	if (argc != 13)
		die_usage("kat half_md4: need 4 buf words and 8 input words%s", "");
	for (i = 0; i < 4; i++)
		buf[i] = parse_hex32(argv[1 + i]);
	for (i = 0; i < 8; i++)
		in[i] = parse_hex32(argv[5 + i]);
	ret = half_md4_transform(buf, in);
	printf("%08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n", ret,
	       buf[0], buf[1], buf[2], buf[3]);
	return 0;
}

/* ---- replay --------------------------------------------------------------- */
struct replay_kind {
	const char *name;
	size_t secret_words, state_words;
};

static const struct replay_kind replay_kinds[] = {
	{"ipid-2.6.29", 12, 0},
	{"md4-2.6.30", 12, 4},
	{"sha1-mackall", 16, 5},
	{"md5-3.x", 16, 4},
};

static uint32_t replay_one(const char *name, const uint32_t *secret, uint32_t *state, uint32_t pid,
			   uint64_t jiffies, uint64_t cycles)
{
	if (!strcmp(name, "ipid-2.6.29"))
		return secure_ip_id_keyed(secret, pid + (uint32_t)jiffies);
	if (!strcmp(name, "md4-2.6.30"))
		return get_random_int_md4(state, secret, pid, jiffies, cycles);
	if (!strcmp(name, "sha1-mackall"))
		return get_random_int_sha1(state, secret, pid, jiffies, cycles);
	return get_random_int_md5(state, secret, pid, jiffies, cycles);
}

static void parse_call(const char *s, uint32_t *pid, uint64_t *jiffies, uint64_t *cycles)
{
	char buf[128], *a, *b;

	if (strlen(s) >= sizeof(buf))
		die_usage("bad call '%s', want PID:JIFFIES:CYCLES", s);
	strcpy(buf, s);
	a = strchr(buf, ':');
	b = a ? strchr(a + 1, ':') : NULL;
	if (!a || !b || strchr(b + 1, ':'))
		die_usage("bad call '%s', want PID:JIFFIES:CYCLES", s);
	*a++ = '\0';
	*b++ = '\0';
	uint64_t p = parse_u64(buf);

	if (p > UINT32_MAX)
		die_usage("pid out of range in '%s'", s);
	*pid = (uint32_t)p;
	*jiffies = parse_u64(a);
	*cycles = parse_u64(b);
}

static int cmd_replay(int argc, char **argv)
{
	const struct replay_kind *k = NULL;
	uint32_t secret[16] = {0}, state[5] = {0}, pid;
	uint64_t jiffies, cycles;
	const char *secret_arg = NULL, *state_arg = NULL;
	int i, first_call = -1;
	size_t j;

	if (argc < 1)
		die_usage("replay: missing variant%s", "");
	find_variant(argv[0]);
	if (!strcmp(argv[0], "chacha20-batched")) {
		const char *err = replay_crng(argc - 1, argv + 1);

		if (err)
			die_usage("%s", err);
		return 0;
	}
	for (j = 0; j < sizeof(replay_kinds) / sizeof(replay_kinds[0]); j++)
		if (!strcmp(replay_kinds[j].name, argv[0]))
			k = &replay_kinds[j];
	if (!k)
		die_usage("replay: variant '%s' cannot be replayed", argv[0]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--secret") || !strcmp(argv[i], "--state")) {
			if (i + 1 >= argc)
				die_usage("%s needs a value", argv[i]);
			if (argv[i][2] == 's' && argv[i][3] == 'e')
				secret_arg = argv[++i];
			else
				state_arg = argv[++i];
		} else if (argv[i][0] == '-') {
			die_usage("unknown option '%s'", argv[i]);
		} else {
			first_call = i;
			break;
		}
	}
	if (!secret_arg)
		die_usage("replay: --secret is required%s", "");
	if (first_call < 0)
		die_usage("replay: no PID:JIFFIES:CYCLES given%s", "");
	parse_words(secret_arg, secret, k->secret_words, "--secret");
	if (state_arg) {
		if (!k->state_words)
			die_usage("replay: %s keeps no state", k->name);
		parse_words(state_arg, state, k->state_words, "--state");
	}
	/* validate every call before printing anything */
	for (i = first_call; i < argc; i++)
		parse_call(argv[i], &pid, &jiffies, &cycles);
	for (i = first_call; i < argc; i++) {
		parse_call(argv[i], &pid, &jiffies, &cycles);
		printf("%08" PRIx32 "\n", replay_one(k->name, secret, state, pid, jiffies, cycles));
	}
	return 0;
}

/* ---- stream: the simulated machine ---------------------------------------- */
#define SIM_HZ		     250
#define SIM_CYCLES_PER_JIFFY 10000000ull /* 2.5 GHz / HZ */

static struct {
	uint64_t cycles, jiffies, next_dev_irq, rng, interval;
	uint32_t pid;
} sim;

static uint64_t sim_rand(void)
{
	sim.rng ^= sim.rng >> 12;
	sim.rng ^= sim.rng << 25;
	sim.rng ^= sim.rng >> 27;
	return sim.rng * 0x2545f4914f6cdd1dull;
}

static uint32_t sim_pid(void)
{
	return sim.pid;
}

static uint64_t sim_jiffies(void)
{
	return sim.jiffies;
}

static uint64_t sim_cycles(void)
{
	return sim.cycles;
}

static const struct rng_platform sim_platform = {
	.current_pid = sim_pid,
	.jiffies = sim_jiffies,
	.get_cycles = sim_cycles,
	.hz = SIM_HZ,
	.simd_begin = rng_user_simd_begin,
	.simd_end = rng_user_simd_end,
	.simd_xfeatures = RNG_USER_SIMD_XFEATURES,
};

static void sim_init(const uint8_t *seed, size_t len)
{
	size_t i;

	sim.rng = 0x9e3779b97f4a7c15ull;
	for (i = 0; i < len; i++)
		sim.rng = (sim.rng ^ seed[i]) * 0x100000001b3ull;
	if (!sim.rng)
		sim.rng = 1;
	sim.cycles = 30 * SIM_HZ * SIM_CYCLES_PER_JIFFY; /* 30 s after boot */
	sim.jiffies = sim.cycles / SIM_CYCLES_PER_JIFFY;
	sim.pid = 300;
	sim.next_dev_irq = sim.jiffies + 1;
	rng_set_platform(&sim_platform);
}

/* one new process: time passes, ticks fire their interrupts */
static void sim_step(void)
{
	uint64_t j;

	sim.cycles += sim.interval + sim_rand() % (sim.interval / 8 + 1);
	sim.pid = sim.pid >= 32767 ? 300 : sim.pid + 1;
	j = sim.cycles / SIM_CYCLES_PER_JIFFY;
	while (sim.jiffies < j) {
		sim.jiffies++;
		/* no irq 0: 2.6.29's timer had no IRQF_SAMPLE_RANDOM */
		if (sim.jiffies >= sim.next_dev_irq) {
			rng_add_interrupt_randomness(11, sim.cycles + (sim_rand() & 0xffff));
			sim.next_dev_irq = sim.jiffies + 1 + (sim_rand() & 63);
		}
	}
}

static int cmd_stream(int argc, char **argv)
{
	const struct rng_variant *v;
	uint8_t seed[256];
	size_t seedlen = 0;
	uint64_t count = 0, n, interval = 12500000;
	int i, hex = 0, have_count = 0;
	static uint32_t buf[4096];
	size_t fill = 0;

	if (argc < 1)
		die_usage("stream: missing variant%s", "");
	v = find_variant(argv[0]);
	for (i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			die_usage("missing value for '%s'", argv[i]);
		if (!strcmp(argv[i], "--seed")) {
			seedlen = parse_hexbytes(argv[++i], seed, sizeof(seed));
		} else if (!strcmp(argv[i], "--count")) {
			count = parse_u64(argv[++i]);
			if (!count)
				die_usage("--count must be at least 1%s", "");
			have_count = 1;
		} else if (!strcmp(argv[i], "--interval")) {
			interval = parse_u64(argv[++i]);
			if (!interval || interval > SIM_CYCLES_PER_JIFFY * SIM_HZ * 3600)
				die_usage("--interval out of range: '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--format")) {
			i++;
			if (!strcmp(argv[i], "hex"))
				hex = 1;
			else if (strcmp(argv[i], "bin"))
				die_usage("--format must be bin or hex, not '%s'", argv[i]);
		} else {
			die_usage("unknown option '%s'", argv[i]);
		}
	}
	if (!have_count && hex)
		count = 16;
	if (!v->available()) {
		fprintf(stderr, "rngtool: variant %s is not available on this machine\n", v->name);
		return 1;
	}
	sim_init(seed, seedlen);
	sim.interval = interval;
	v->init(seed, seedlen);
	signal(SIGPIPE, SIG_IGN);
	for (n = 0; !have_count && !hex ? 1 : n < count; n++) {
		sim_step();
		if (hex) {
			if (printf("%08" PRIx32 "\n", v->get_u32()) < 0)
				break;
			continue;
		}
		buf[fill++] = v->get_u32(); /* x86: host order is little endian */
		if (fill == sizeof(buf) / sizeof(buf[0])) {
			if (fwrite(buf, sizeof(buf[0]), fill, stdout) != fill)
				return errno == EPIPE ? 0 : 1;
			fill = 0;
		}
	}
	if (fill && fwrite(buf, sizeof(buf[0]), fill, stdout) != fill)
		return errno == EPIPE ? 0 : 1;
	if (fflush(stdout))
		return errno == EPIPE ? 0 : 1;
	return 0;
}

/* ---- list and bench ---------------------------------------------------- */
static int cmd_list(void)
{
	const struct rng_variant *const *v;

	for (v = rng_variants; *v; v++)
		printf("%-17s %-8s %-11s %s\n", (*v)->name, (*v)->secure ? "secure" : "weak",
		       (*v)->available() ? "available" : "unavailable", (*v)->summary);
	return 0;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static void bench_one(const struct rng_variant *v, uint64_t n, uint32_t *acc)
{
	uint64_t i, t0, t1, best = UINT64_MAX;
	int rep;

	if (!v->available()) {
		printf("%-17s unavailable\n", v->name);
		return;
	}
	v->init("bench", 5);
	for (rep = 0; rep < 5; rep++) {
		t0 = rdtsc();
		for (i = 0; i < n; i++)
			*acc ^= v->get_u32();
		t1 = rdtsc();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	printf("%-17s %8.1f\n", v->name, (double)best / (double)n);
}

/* bench [N] [VARIANT...]: a leading number is the call count, the rest
 * variant names, all checked before any measurement starts. */
static int cmd_bench(int argc, char **argv)
{
	const struct rng_variant *const *v;
	uint64_t n = 1000000;
	volatile uint32_t sink = 0;
	uint32_t acc = 0;
	int i, first = 0;

	if (argc > 0 && argv[0][0] >= '0' && argv[0][0] <= '9') {
		n = parse_u64(argv[0]);
		first = 1;
	}
	if (!n)
		die_usage("bench: N must be at least 1%s", "");
	for (i = first; i < argc; i++)
		find_variant(argv[i]);
	rng_set_platform(NULL); /* real rdtsc get_cycles, pid 1, jiffies 0 */
	printf("# variant cycles/u32 (best of 5 runs of %" PRIu64 " calls, rdtsc)\n", n);
	if (first == argc)
		for (v = rng_variants; *v; v++)
			bench_one(*v, n, &acc);
	for (i = first; i < argc; i++)
		bench_one(find_variant(argv[i]), n, &acc);
	sink = acc; /* keep the calls; no memory round trip inside the loop */
	(void)sink;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage_out = stdout;
		usage_status = 0;
		usage();
	}
	if (!strcmp(argv[1], "--version")) {
		printf("rngtool (aslrbench) %s\n", ASLRBENCH_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "kat"))
		return cmd_kat(argc - 2, argv + 2);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 2, argv + 2);
	if (!strcmp(argv[1], "stream"))
		return cmd_stream(argc - 2, argv + 2);
	if (!strcmp(argv[1], "list") && argc == 2)
		return cmd_list();
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 2, argv + 2);
	die_usage("unknown command '%s'", argv[1]);
	return EXIT_USAGE;
}
