/*
 * bench-host: the kernel's timing harness and suites (same bench/ and rng/
 * code) as a Linux program, pinned to one CPU, plus the user-space peers.
 * Output: console tables and "@@" records, also written to --log FILE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gnu/libc-version.h>
#include <openssl/crypto.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench/host/crng_impls.h"
#include "bench/host/peers.h"
#include "bench/host/platform_linux.h"
#include "bench/platform.h"
#include "bench/suites.h"

struct opts {
	uint32_t ensembles, samples, cold_samples, hz;
	const char *only, *log, *serialise;
	int cpu;
	bool fifo, list;
	unsigned char seed[32];
	size_t seed_len;
};

static void usage(FILE *f)
{
	fputs("usage: bench-host [--ensembles E] [--samples S] [--cold-samples S]\n"
	      "                  [--only NAME] [--log FILE] [--cpu N] [--hz HZ]\n"
	      "                  [--serialise cpuid|lfence] [--seed HEX] [--no-fifo] [--list]\n",
	      f);
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool parse_hex(const char *s, unsigned char *out, size_t max, size_t *len)
{
	size_t n = strlen(s);

	if (!n || n % 2 || n / 2 > max)
		return false;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return false;
		out[i] = (unsigned char)v;
	}
	*len = n / 2;
	return true;
}

/* Options that take a value: anything else is unknown, whatever follows it. */
static bool takes_value(const char *a)
{
	static const char *const names[] = {"--ensembles", "--samples",	  "--cold-samples",
					    "--hz",	   "--cpu",	  "--only",
					    "--log",	   "--serialise", "--seed"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(a, names[i]))
			return true;
	return false;
}

static int parse(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = true;

		if (!strcmp(a, "--no-fifo")) {
			o->fifo = false;
			continue;
		} else if (!strcmp(a, "--list")) {
			o->list = true;
			continue;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		}
		if (!takes_value(a)) {
			fprintf(stderr, "bench-host: unknown option %s\n", a);
			return -1;
		}
		if (!v) {
			fprintf(stderr, "bench-host: %s needs a value\n", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--ensembles"))
			ok = parse_u32(v, &o->ensembles) && o->ensembles;
		else if (!strcmp(a, "--samples"))
			ok = parse_u32(v, &o->samples) && o->samples;
		else if (!strcmp(a, "--cold-samples"))
			ok = parse_u32(v, &o->cold_samples);
		else if (!strcmp(a, "--hz"))
			ok = parse_u32(v, &o->hz) && o->hz && o->hz <= 10000;
		else if (!strcmp(a, "--cpu")) {
			uint32_t c;

			ok = parse_u32(v, &c) && c < 1024;
			o->cpu = (int)c;
		} else if (!strcmp(a, "--only"))
			o->only = v;
		else if (!strcmp(a, "--log"))
			o->log = v;
		else if (!strcmp(a, "--serialise"))
			ok = !strcmp(v, "cpuid") || !strcmp(v, "lfence"), o->serialise = v;
		else if (!strcmp(a, "--seed"))
			ok = parse_hex(v, o->seed, sizeof(o->seed), &o->seed_len);
		else {
			fprintf(stderr, "bench-host: unknown option %s\n", a);
			return -1;
		}
		if (!ok) {
			fprintf(stderr, "bench-host: bad value for %s: %s\n", a, v);
			return -1;
		}
	}
	return 0;
}

static bool known(const char *name)
{
	if (rng_find(name))
		return true;
	for (const struct rng_variant *const *p = host_peers; *p; p++)
		if (!strcmp((*p)->name, name))
			return true;
	return false;
}

static void list_names(void)
{
	for (const struct rng_variant *const *p = rng_variants; *p; p++)
		printf("%s\n", (*p)->name);
	for (const struct rng_variant *const *p = host_peers; *p; p++)
		printf("%s\n", (*p)->name);
}

static uint64_t image_bytes(const struct bench_config *cfg)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < cfg->nflush; i++)
		n += (uint64_t)((const char *)cfg->flush[i].hi - (const char *)cfg->flush[i].lo);
	return n;
}

/* kernel/version.mk's generated version.c: `git describe` at build time. */
extern const char aslrbench_version[];

static void boot_record(const struct bench_cpu *cpu, const struct bench_config *cfg,
			const struct opts *o, int pinned, const char *sched, uint64_t tsc_hz)
{
	char buf[BENCH_REC_SIZE], when[32];
	struct utsname u;
	struct jrec r;
	time_t now = time(NULL);
	struct tm tm;

	if (uname(&u))
		strcpy(u.release, "unknown");
	jrec_begin(&r, buf, sizeof(buf), "boot");
	jrec_str(&r, "platform", "linux");
	jrec_str(&r, "version", aslrbench_version);
	/* When the run started, UTC: tells two runs of one build on one machine apart. */
	if (gmtime_r(&now, &tm) && strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		jrec_str(&r, "time", when);
	bench_jrec_cpu(&r, cpu, cfg);
	jrec_u64(&r, "tsc_hz", tsc_hz);
	jrec_str(&r, "tsc_hz_method", "CLOCK_MONOTONIC_RAW");
	jrec_str(&r, "kernel", u.release);
	jrec_i64(&r, "cpu", pinned);
	jrec_str(&r, "sched", sched);
	jrec_u64(&r, "hz", o->hz);
	jrec_u64(&r, "cold_samples", cfg->cold_samples);
	jrec_u64(&r, "flush_ranges", cfg->nflush);
	jrec_u64(&r, "flushed_bytes", image_bytes(cfg));
	jrec_str(&r, "glibc", gnu_get_libc_version());
	jrec_str(&r, "openssl", OpenSSL_version(OPENSSL_VERSION));
	jrec_str(&r, "libsodium", sodium_version_string());
	bench_emit(jrec_end(&r));
}

int main(int argc, char **argv)
{
	struct opts o = {.ensembles = 10,
			 .samples = 1000,
			 .cold_samples = 25,
			 .hz = 250,
			 .cpu = -1,
			 .fifo = true};
	static struct bench_run run; /* ~3 KiB of rows: not on the stack */
	struct bench_config cfg;
	struct bench_cpu cpu;
	const char *sched = "other (--no-fifo)";
	uint64_t tsc_hz;
	FILE *log = NULL;
	int pinned, failed = 0;

	if (parse(argc, argv, &o)) {
		usage(stderr);
		return 2;
	}
	if (o.list) {
		list_names();
		return 0;
	}
	if ((uint64_t)o.ensembles * o.samples > BENCH_MAX_SAMPLES ||
	    o.ensembles > BENCH_MAX_ENSEMBLES) {
		fprintf(stderr, "bench-host: at most %u ensembles and %u samples in all\n",
			BENCH_MAX_ENSEMBLES, BENCH_MAX_SAMPLES);
		return 2;
	}
	if (o.only && !known(o.only)) {
		fprintf(stderr, "bench-host: no variant or peer named %s; --list shows them\n",
			o.only);
		return 2;
	}
	if (o.log && !(log = fopen(o.log, "w"))) {
		perror(o.log);
		return 2;
	}
	host_set_log(log);

	pinned = host_pin(o.cpu);
	if (pinned < 0)
		bench_emit("bench-host: could not pin to one CPU; results will be noisier");
	/* Page faults must not land in timed regions; failure only adds noise. */
	mlockall(MCL_CURRENT | MCL_FUTURE);
	if (o.fifo)
		sched = host_sched_fifo();

	bench_cpu_detect(&cpu);
	bench_config_init(&cfg, &cpu);
	cfg.ensembles = o.ensembles;
	cfg.samples = o.samples;
	cfg.cold_samples = o.cold_samples;
	cfg.irqs_off = false;
	cfg.only = o.only;
	if (o.serialise)
		cfg.serialise = strcmp(o.serialise, "lfence") ? BENCH_SER_CPUID : BENCH_SER_LFENCE;
	if (o.cold_samples)
		host_image_ranges(&cfg);
	tsc_hz = host_tsc_hz(200);

	if (sodium_init() < 0)
		bench_emit("bench-host: sodium_init failed; libsodium peer unavailable");
	if (host_rng_platform(o.hz)) {
		fprintf(stderr, "bench-host: cannot start the jiffies timer\n");
		return 2;
	}
	if (!o.seed_len) {
		if (getrandom(o.seed, sizeof(o.seed), 0) != (ssize_t)sizeof(o.seed))
			return 2;
		o.seed_len = sizeof(o.seed);
	}
	rng_seed_all(o.seed, o.seed_len);

	boot_record(&cpu, &cfg, &o, pinned, sched, tsc_hz);
	bench_run_init(&run);
	if (bench_suite_timer(&cfg, &run))
		failed++;
	failed += bench_suite_rng(&cfg, rng_variants, "rng", &run);
	failed += host_suite_crng(&cfg, &run);
	failed += bench_suite_rng(&cfg, host_peers, "peers (host only)", &run);
	bench_emit_summary(&run, failed ? 1 : 0);
	if (log)
		fclose(log);
	return failed ? 1 : 0;
}
