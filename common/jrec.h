/* One-line JSON log records ("@@ {...}") built in a caller's buffer. */
#ifndef COMMON_JREC_H
#define COMMON_JREC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/*
 * Why a builder and not printf: the same records come from the kernel (no
 * libc, no floating point) and from host programs, and every consumer relies
 * on them being valid JSON.  A record that would not fit is cut at the last
 * complete field and marked "truncated":true, never emitted half-written.
 */
struct jrec {
	char *buf;
	size_t size;
	size_t len;
	bool full;
};

void jrec_begin(struct jrec *r, char *buf, size_t size, const char *type);
void jrec_str(struct jrec *r, const char *key, const char *val);
void jrec_u64(struct jrec *r, const char *key, uint64_t val);
void jrec_i64(struct jrec *r, const char *key, int64_t val);
void jrec_bool(struct jrec *r, const char *key, bool val);
/* val / 10^decimals written as a decimal number, e.g. (12345, 3) -> 12.345 */
void jrec_fixed(struct jrec *r, const char *key, int64_t val, unsigned decimals);
/* An array of such numbers, e.g. [1.500,2.000]: all of it, or (no room) none. */
void jrec_fixed_array(struct jrec *r, const char *key, const int64_t *vals, size_t n,
		      unsigned decimals);
/* Closes the object; returns the NUL-terminated line (without newline). */
const char *jrec_end(struct jrec *r);

/* Integer to decimal text; return the length written (no NUL).  dst >= 24 bytes. */
size_t fmt_u64(char *dst, uint64_t v);
size_t fmt_fixed(char *dst, int64_t v, unsigned decimals);

#endif
