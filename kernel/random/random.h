#ifndef KERNEL_RANDOM_RANDOM_H
#define KERNEL_RANDOM_RANDOM_H

#include <stdint.h>

#include "rng/rng.h"

/*
 * The kernel side of rng/: the environment the variants read, the boot
 * seed, and get_random_int() dispatching to the selected variant (the
 * function ASLR, fork's stack canary and the benchmarks call).
 */
#include "kernel/params/param.h"

/* rng=: the variant the running system uses (an index into rng_variants[]) */
extern int random_boot_variant;
/* seed=: deterministic runs (empty: seeded from the firmware and the CPU) */
extern struct param_hex random_boot_seed;

int random_init(char *err, unsigned long errlen); /* selects rng= */
unsigned int get_random_int(void);
const struct rng_variant *rng_current(void);
int rng_select(const char *name); /* -EINVAL unknown, -ENODEV unavailable */
/* an input event (2.6.29 drivers/input/input.c: input_event) */
#define EV_KEY 0x01
void add_input_randomness(unsigned int type, unsigned int code, unsigned int value);
const char *rng_seed_source(void);
/* The kernel's own environment for the variants (tests restore it). */
const struct rng_platform *random_platform(void);
/* Non-zero while spawn builds a layout: the pid the variants see (exec semantics). */
extern int rng_spawn_pid;
/* The current task's pid, 0 for the boot context; the task layer installs it. */
extern uint32_t (*rng_current_pid_hook)(void);

#endif
