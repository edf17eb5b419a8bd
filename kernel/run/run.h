/*
 * What this run does and measures: the boot parameters every job reads
 * (mode=, suite=, samples=, ensembles=, variants=).  The jobs of
 * kernel/measure, kernel/aslr, kernel/attack and kernel/test all read them,
 * so they live below those jobs, here.
 */
#ifndef KERNEL_RUN_RUN_H
#define KERNEL_RUN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

enum run_mode { MODE_BENCH, MODE_TEST, MODE_SHELL, MODE_ATTACK, MODE_FUZZ };

extern int run_mode;	       /* enum run_mode */
extern char run_suite[32];     /* which suites / test group; "" = all */
extern uint32_t run_samples;   /* 0 = the suite's default */
extern uint32_t run_ensembles; /* 0 = the suite's default */
extern uint64_t run_variants;  /* bit i: rng_variants[i] is measured */

const char *mode_name(int m);

/* variants=: whether rng_variants[i] is measured, and how many are. */
bool run_variant_chosen(int i);
int run_variant_count(void);

/*
 * suite= as a comma list: whether `name` is chosen ("" chooses all).
 * run_suite_check() fails with the standard message when a word of it is not
 * in `accepted` ("a|b|c"), for the job that knows its suites.
 */
bool run_suite_chosen(const char *name);
int run_suite_check(const char *accepted, char *err, size_t errlen);

#endif
