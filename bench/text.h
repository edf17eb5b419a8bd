/* Fixed-width console lines without printf (the kernel has none). */
#ifndef BENCH_TEXT_H
#define BENCH_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define TLINE_MAX 160

struct tline {
	char buf[TLINE_MAX];
	size_t len;
};

void tl_init(struct tline *l);
/* width > 0: left-aligned in that many columns; < 0: right-aligned; 0: as is. */
void tl_str(struct tline *l, const char *s, int width);
void tl_u64(struct tline *l, uint64_t v, int width);
/* A milli value shown with `decimals` (0..3) decimals, rounded half up. */
void tl_milli(struct tline *l, int64_t milli, unsigned decimals, int width);
const char *tl_end(struct tline *l);

#endif
