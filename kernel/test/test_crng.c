/*
 * The 6.x CRNG after a reseed, checked from outside the kernel: the test
 * reseeds chacha20-batched from its input pool (rng/input_pool.c), draws
 * from it, and prints what went into the pool since boot and the values
 * drawn.  The crng-replay boot (tests/qemu/boots.conf) gives the inputs to
 * `rngtool replay chacha20-batched --inputs` and to tests/ref/crng_ref.py,
 * which is written from Linux 6.12's random.c with Python's BLAKE2s, and
 * both must give the kernel's values.
 */
#include "kernel/lib/printk.h"
#include "kernel/test/ktest.h"
#include "rng/chacha20_batched.h"
#include "rng/input_pool.h"
#include "rng/rng.h"

#define NR_DRAWS 60 /* two and a half batches */
#define LINE_HEX 64 /* bytes per printed mix line: consecutive mixes are one input */

static void print_hex_line(const char *kind, const uint8_t *b, size_t len)
{
	char line[2 * LINE_HEX + 1];
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		line[2 * i] = hex[b[i] >> 4];
		line[2 * i + 1] = hex[b[i] & 15];
	}
	line[2 * len] = 0;
	kprintf("crng-replay: %s %s\n", kind, line);
}

static void print_event(void *ctx, char kind, const uint8_t *bytes, size_t len)
{
	size_t off;

	(void)ctx;
	if (kind == 'x') {
		print_hex_line("extract", bytes, len);
		return;
	}
	for (off = 0; off < len; off += LINE_HEX)
		print_hex_line("mix", bytes + off, len - off < LINE_HEX ? len - off : LINE_HEX);
}

static enum ktest_result crng_reseed_replay(struct ktest_ctx *t)
{
	const struct rng_variant *v = rng_find("chacha20-batched");
	uint32_t out[NR_DRAWS];
	int i;

	if (!v || !v->available())
		return ktest_skip(t, "chacha20-batched is not available");
	crng_reseed_now();
	for (i = 0; i < NR_DRAWS; i++)
		out[i] = v->get_u32();
	if (!input_pool_log_walk(print_event, 0))
		return ktest_fail(t, "the input log lost events: no replay possible");
	for (i = 0; i < NR_DRAWS; i++)
		kprintf("crng-replay: u32 %08x\n", out[i]);
	return KTEST_PASS;
}
KTEST_EXPLICIT(crng_reseed_replay);
