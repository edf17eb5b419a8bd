/*
 * Length-limited canonical Huffman codes, for deflate's dynamic blocks
 * (RFC 1951 3.2.2, 3.2.7): code lengths from symbol frequencies, then the
 * codes those lengths give.  Freestanding, no allocation.
 */
#ifndef COMMON_HUFFMAN_H
#define COMMON_HUFFMAN_H

#include <stdint.h>

#define HUFF_MAX_SYMS 288

/*
 * Code lengths (1..limit, 0 for an unused symbol) for freq[0..n), n <=
 * HUFF_MAX_SYMS.  At least two symbols always get a length (unused ones
 * are given a count of 1 first), so every code is complete, as zlib's
 * inflate wants.  Returns false on a bad argument.
 */
int huff_lengths(const uint32_t *freq, int n, int limit, uint8_t *len);

/* The canonical codes of those lengths (RFC 1951's next_code), most significant bit first. */
void huff_codes(const uint8_t *len, int n, uint16_t *code);

#endif
