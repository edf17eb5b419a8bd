/*
 * The kernel command line (cmdline.txt, or run-qemu.sh --cmdline).
 *
 * Why strict: the line decides what a benchmark run measured.  A typo that
 * silently fell back to a default would produce a log that looks right and
 * is about something else, so an unknown key or a bad value stops the boot
 * with a message naming the key and what it accepts.
 */
#include "kernel/boot/cmdline.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "rng/rng.h"

struct boot_cmdline boot_cmdline = {
	.mode = MODE_BENCH,
	.rng = "chacha20-batched",
	.proc_leak_fix = 1,
	.randomize_va_space = 2,
	.hz = 250,
};

static const char *const mode_names[] = {"bench", "test", "shell", "attack", "fuzz"};
#define NR_MODES (sizeof(mode_names) / sizeof(mode_names[0]))

const char *mode_name(enum run_mode m)
{
	return (unsigned)m < NR_MODES ? mode_names[m] : "?";
}

/* Decimal only, no sign, no overflow; returns -1 on anything else. */
static int parse_uint(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int parse_seed(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n % 2 || n / 2 > sizeof(boot_cmdline.seed))
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		boot_cmdline.seed[i] = (uint8_t)(hi << 4 | lo);
	}
	boot_cmdline.seed_len = n / 2;
	return 0;
}

static int pick(const char *v, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (!strcmp(v, names[i]))
			return i;
	return -1;
}

static void rng_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; rng_variants[i]; i++)
		n += (size_t)ksnprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? "|" : "",
				       rng_variants[i]->name);
}

/* One key=value; returns 0, or -1 with err filled. */
static int apply(const char *key, const char *val, char *err, size_t errlen)
{
	static const char *const bools[] = {"0", "1"};
	static const char *const vas[] = {"0", "1", "2"};
	static const char *const scopes[] = {"0", "1", "2", "3"};
	static const char *const profiles[] = {"x86_64", "ia32"};
	static const char *const rules[] = {"2.6.29", "6.x"};
	uint32_t u;
	int i;

	if (!strcmp(key, "mode")) {
		if ((i = pick(val, mode_names, NR_MODES)) < 0)
			goto bad;
		boot_cmdline.mode = (enum run_mode)i;
	} else if (!strcmp(key, "rng")) {
		if (!rng_find(val) || strlen(val) >= sizeof(boot_cmdline.rng)) {
			char names[256];

			rng_names(names, sizeof(names));
			ksnprintf(err, errlen, "bad value '%s' for rng (accepted: %s)", val, names);
			return -1;
		}
		strlcpy(boot_cmdline.rng, val, sizeof(boot_cmdline.rng));
	} else if (!strcmp(key, "proc_leak_fix")) {
		if ((i = pick(val, bools, 2)) < 0)
			goto bad;
		boot_cmdline.proc_leak_fix = i;
	} else if (!strcmp(key, "randomize_va_space")) {
		if ((i = pick(val, vas, 3)) < 0)
			goto bad;
		boot_cmdline.randomize_va_space = i;
	} else if (!strcmp(key, "aslr_profile")) {
		if ((i = pick(val, profiles, 2)) < 0)
			goto bad;
		boot_cmdline.aslr_ia32 = i;
	} else if (!strcmp(key, "aslr_rules")) {
		if ((i = pick(val, rules, 2)) < 0)
			goto bad;
		boot_cmdline.aslr_rules = i;
	} else if (!strcmp(key, "hidepid")) {
		if ((i = pick(val, vas, 3)) < 0)
			goto bad;
		boot_cmdline.hidepid = i;
	} else if (!strcmp(key, "ptrace_scope")) {
		if ((i = pick(val, scopes, 4)) < 0)
			goto bad;
		boot_cmdline.ptrace_scope = i;
	} else if (!strcmp(key, "hz")) {
		if (parse_uint(val, 10000, &u) || u < 20)
			goto bad;
		boot_cmdline.hz = u;
	} else if (!strcmp(key, "seed")) {
		if (parse_seed(val))
			goto bad;
	} else if (!strcmp(key, "suite")) {
		if (!*val || strlen(val) >= sizeof(boot_cmdline.suite))
			goto bad;
		strlcpy(boot_cmdline.suite, val, sizeof(boot_cmdline.suite));
	} else if (!strcmp(key, "samples")) {
		if (parse_uint(val, 10000000, &u) || u == 0)
			goto bad;
		boot_cmdline.samples = u;
	} else if (!strcmp(key, "ensembles")) {
		if (parse_uint(val, 100000, &u) || u == 0)
			goto bad;
		boot_cmdline.ensembles = u;
	} else if (!strcmp(key, "calls")) {
		if (parse_uint(val, 1000000000, &u) || u == 0)
			goto bad;
		boot_cmdline.calls = u;
	} else if (!strcmp(key, "seconds")) {
		if (parse_uint(val, 604800, &u) || u == 0)
			goto bad;
		boot_cmdline.seconds = u;
	} else if (!strcmp(key, "loglevel")) {
		if (parse_uint(val, 8, &u))
			goto bad;
		console_loglevel = (int)u;
	} else if (!strcmp(key, "init")) {
		/* Linux takes any string; a relative one would depend on the cwd (/). */
		if (val[0] != '/' || strlen(val) >= sizeof(boot_cmdline.init))
			goto bad;
		strlcpy(boot_cmdline.init, val, sizeof(boot_cmdline.init));
	} else {
		ksnprintf(err, errlen,
			  "unknown key '%s' (accepted keys: mode rng proc_leak_fix "
			  "randomize_va_space aslr_profile aslr_rules hidepid ptrace_scope hz seed "
			  "suite "
			  "samples ensembles calls seconds loglevel init, and ' -- ' before init's "
			  "arguments)",
			  key);
		return -1;
	}
	return 0;
bad:
	ksnprintf(err, errlen, "bad value '%s' for %s (accepted: %s)", val, key,
		  !strcmp(key, "mode")		       ? "bench|test|shell|attack|fuzz"
		  : !strcmp(key, "proc_leak_fix")      ? "0|1"
		  : !strcmp(key, "randomize_va_space") ? "0|1|2"
		  : !strcmp(key, "hidepid")	       ? "0|1|2"
		  : !strcmp(key, "ptrace_scope")       ? "0|1|2|3"
		  : !strcmp(key, "aslr_profile")       ? "x86_64|ia32"
		  : !strcmp(key, "aslr_rules")	       ? "2.6.29|6.x"
		  : !strcmp(key, "hz")		       ? "an integer from 20 to 10000"
		  : !strcmp(key, "seed")     ? "1 to 64 bytes as an even number of hex digits"
		  : !strcmp(key, "suite")    ? "a suite or test-group name, up to 31 characters"
		  : !strcmp(key, "samples")  ? "an integer from 1 to 10000000"
		  : !strcmp(key, "calls")    ? "an integer from 1 to 1000000000"
		  : !strcmp(key, "seconds")  ? "an integer from 1 to 604800 (a week)"
		  : !strcmp(key, "init")     ? "an absolute path of at most 255 characters"
		  : !strcmp(key, "loglevel") ? "an integer from 0 to 8"
					     : "an integer from 1 to 100000");
	return -1;
}

/*
 * The words after " -- ": init's arguments, as Linux's (init/main.c: "--"
 * ends the kernel's parameters; everything after goes to init).
 */
static int init_args(const char *line, char *err, size_t errlen)
{
	size_t used = 0;

	boot_cmdline.init_argc = 0;
	while (*line) {
		size_t n = 0;

		while (*line == ' ')
			line++;
		if (!*line)
			break;
		while (line[n] && line[n] != ' ')
			n++;
		if (boot_cmdline.init_argc == INIT_ARGS_MAX - 1 ||
		    used + n + 1 > sizeof(boot_cmdline.init_args)) {
			ksnprintf(err, errlen,
				  "too many arguments for init after ' -- ' (at most %d words, "
				  "%zu bytes)",
				  INIT_ARGS_MAX - 1, sizeof(boot_cmdline.init_args));
			return -1;
		}
		memcpy(boot_cmdline.init_args + used, line, n);
		boot_cmdline.init_args[used + n] = '\0';
		used += n + 1;
		boot_cmdline.init_argc++;
		line += n;
	}
	if (boot_cmdline.init_argc && !boot_cmdline.init[0]) {
		ksnprintf(err, errlen, "arguments after ' -- ' but no init=PATH to take them");
		return -1;
	}
	return 0;
}

int cmdline_parse(const char *line, char *err, size_t errlen)
{
	char tok[272]; /* "init=" and a 255-character path */

	while (*line) {
		size_t n = 0;
		char *eq;

		while (*line == ' ')
			line++;
		if (!*line)
			break;
		while (line[n] && line[n] != ' ')
			n++;
		if (n >= sizeof(tok)) {
			ksnprintf(err, errlen, "command-line word too long (%zu characters)", n);
			return -1;
		}
		memcpy(tok, line, n);
		tok[n] = '\0';
		line += n;
		if (!strcmp(tok, "--"))
			return init_args(line, err, errlen);
		eq = tok;
		while (*eq && *eq != '=')
			eq++;
		if (!*eq) {
			ksnprintf(err, errlen, "'%s' is not of the form key=value", tok);
			return -1;
		}
		*eq = '\0';
		if (apply(tok, eq + 1, err, errlen))
			return -1;
	}
	return 0;
}
