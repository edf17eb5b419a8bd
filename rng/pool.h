/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RNG_POOL_H
#define RNG_POOL_H

#include <stddef.h>
#include <stdint.h>

/*
 * The Linux 2.6.29 entropy pools (drivers/char/random.c of that release):
 * a 128-word input pool fed by interrupts and a 32-word nonblocking pool
 * behind get_random_bytes() and /dev/urandom.  One instance (single CPU).
 */
#define INPUT_POOL_WORDS  128
#define OUTPUT_POOL_WORDS 32
#define EXTRACT_SIZE	  10

enum pool2629_id { POOL2629_INPUT, POOL2629_NONBLOCKING };

/*
 * Boot state: zero both pools and their counters, then mix @seed and
 * @label into each, as rand_initialize()/init_std_data() mixed the time of
 * day and utsname.  Nothing is credited, as in 2.6.29.
 */
void pool2629_init(const void *seed, size_t len, const char *label);
/* get_random_bytes() of 2.6.29: extract_entropy(&nonblocking_pool, ...) */
void pool2629_get_random_bytes(void *buf, size_t nbytes);
/* add_input_randomness(type, code, value) with the cycle count at the event */
void pool2629_add_input_randomness(uint32_t type, uint32_t code, uint32_t value, uint64_t cycles);
/* add_interrupt_randomness(irq) with the cycle count the handler read */
void pool2629_add_interrupt_randomness(uint32_t irq, uint64_t cycles);

/* test and report hooks */
int pool2629_entropy_count(enum pool2629_id id); /* in bits */
void pool2629_snapshot(enum pool2629_id id, uint32_t *out, size_t nwords);
/* extract_buf() on the nonblocking pool without accounting or transfer */
void pool2629_extract_buf(uint8_t out[EXTRACT_SIZE]);

#endif
