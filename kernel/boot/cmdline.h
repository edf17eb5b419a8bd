#ifndef KERNEL_BOOT_CMDLINE_H
#define KERNEL_BOOT_CMDLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

enum run_mode { MODE_BENCH, MODE_TEST, MODE_SHELL, MODE_ATTACK, MODE_FUZZ };

/*
 * The boot command line (iso/cmdline.txt), parsed: everything it can set,
 * with Linux's defaults where they exist.  Read-only once the boot has
 * parsed it; the knobs a run may change (sysctls) keep their own copies.
 */
struct boot_cmdline {
	enum run_mode mode;
	char rng[32];		/* variant name; validated against rng/ */
	int proc_leak_fix;	/* 1: the 2009 patch applied (default) */
	int randomize_va_space; /* 0, 1, 2 (default 2) */
	int aslr_ia32;		/* aslr_profile=ia32 */
	int aslr_rules;		/* aslr_rules=: 0 = 2.6.29 (default), 1 = 6.x */
	unsigned hz;		/* 250, as 2.6.29's default config */
	uint8_t seed[64];	/* seed=<hex>: deterministic runs */
	size_t seed_len;
	char suite[32];	    /* which bench suite / test group; "" = all */
	uint32_t samples;   /* 0 = the suite's default */
	uint32_t ensembles; /* 0 = the suite's default */
	int hidepid;	    /* 0, 1, 2 (Linux 3.3's /proc mount option) */
	int ptrace_scope;   /* 0..3 (Yama, Linux 3.4) */
	uint32_t calls;	    /* mode=fuzz: stop after this many calls (0 = by time) */
	uint32_t seconds;   /* mode=fuzz: stop after this many seconds (0 = default) */
	/*
	 * init=PATH: runs as pid 1 instead of the built-in init; the words after
	 * " -- " are its arguments (NUL-separated in init_args, init_argc of them).
	 */
	char init[256];
	char init_args[512];
	int init_argc;
};

#define INIT_ARGS_MAX 32 /* Linux's MAX_INIT_ARGS */

extern struct boot_cmdline boot_cmdline;

/*
 * Parses "k=v k=v ..." into boot_cmdline.  On error returns -1 and writes a
 * message naming the key and the accepted values into err.
 */
int cmdline_parse(const char *line, char *err, size_t errlen);
const char *mode_name(enum run_mode m);

#endif
