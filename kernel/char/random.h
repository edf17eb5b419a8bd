#ifndef KERNEL_CHAR_RANDOM_H
#define KERNEL_CHAR_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "rng/rng.h"

/*
 * The kernel side of rng/: the environment the variants read, the boot
 * seed, and get_random_int() dispatching to the selected variant (the
 * function ASLR, fork's stack canary and the benchmarks call).  The file
 * is where Linux keeps get_random_int and add_input_randomness,
 * drivers/char/random.c; rng/ holds the generators themselves, which build
 * on the host too.
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
/*
 * get_random_int() drawn for task pid: what the 2009 variants mix in as
 * current->pid.  exec draws the new program's layout for the task it will
 * run in, as Linux, where exec runs in the process that gets the layout.
 */
unsigned int get_random_int_for(uint32_t pid);
/*
 * Linux 6.x's get_random_long() (get_random_u64 on x86_64) and
 * get_random_u16(), drawn for task pid.  chacha20-batched serves them from
 * their own batches, as Linux; a variant with one 32-bit output (the 2009
 * generators, chacha20-wide, rdrand, prandom) makes either request one
 * get_u32() call: zero-extended for a u64, its low 16 bits for a u16.  One
 * call per site keeps what the 2009 argument priced (one get_random_int()
 * per draw); every 6.x site masks or reduces the value below 2^28, so the
 * layout it gives is distributed as from a full u64.  The exception is the
 * 6.x stack canary (get_random_long() & CANARY_MASK): 24 random bits from
 * such a variant, 56 from chacha20-batched.
 */
uint64_t get_random_long_for(uint32_t pid);
uint16_t get_random_u16_for(uint32_t pid);
uint64_t get_random_long(void);
/*
 * get_random_bytes() of Linux 5.18+: the ChaCha20 CRNG (chacha20-batched),
 * whatever rng= selected; getrandom(2) and 6.x's AT_RANDOM.
 */
void get_random_bytes(void *buf, size_t len);
/*
 * getrandom(2)'s keystream as Linux 6.12's get_random_bytes_user makes it
 * from chacha20-batched's CRNG: begin (a reseed when due, one
 * crng_make_state), then up to 32 bytes straight from the state, or the
 * blocks after it.  state is the caller's, wiped by getrandom_end.
 */
void getrandom_begin(uint32_t state[16]);
void getrandom_block(uint32_t state[16], uint8_t out[64]);
void getrandom_end(uint32_t state[16]);
/* The current task's pid, 0 for the boot context; the task layer installs it. */
extern uint32_t (*rng_current_pid_hook)(void);

#endif
