/*
 * A small zlib compressor (RFC 1950 around RFC 1951), freestanding.
 *
 * Why: a run's records are JSON lines that repeat their keys on every line;
 * deflated they take about a tenth of the room, and so a tenth of the QR
 * codes a user must photograph (kernel/console/qr_screen.c).  Blocks of
 * 16384 symbols with the fixed or their own Huffman codes, whichever is
 * shorter (common/deflate.c says how).
 * Any zlib inflates it (Python's zlib.decompress in scripts/qr-decode.py).
 */
#ifndef COMMON_DEFLATE_H
#define COMMON_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

#define DEFLATE_WINDOW	  32768
#define DEFLATE_HASH_BITS 12

#define DEFLATE_BLOCK_TOKENS 16384 /* literals and matches gathered per block */

/* The match finder's tables and a block's tokens; static in the caller, about 144 KiB. */
struct deflate_work {
	uint32_t head[1 << DEFLATE_HASH_BITS];	/* last position + 1 per hash, 0: none */
	uint16_t prev[DEFLATE_WINDOW];		/* distance to the previous same-hash position */
	uint16_t tok_sym[DEFLATE_BLOCK_TOKENS]; /* a literal, or 256 + a match's length */
	uint16_t tok_dist[DEFLATE_BLOCK_TOKENS];
	unsigned ntok;
};

/*
 * Compresses in[dict_len..n) into out[0..cap) as a zlib stream; in[0..dict_len)
 * is a preset dictionary (RFC 1950 FDICT: matches may reach into it, and the
 * header names it by its Adler-32; 0 for none, under 32 KiB).  Returns the
 * stream's length, or 0 when it would not fit in cap (nothing useful is
 * left in out then) or an argument is bad.
 */
size_t zlib_compress(const uint8_t *in, size_t dict_len, size_t n, uint8_t *out, size_t cap,
		     struct deflate_work *w);

/* Adler-32 and CRC-32 (zlib's and PNG's polynomial 0xedb88320), from seed 1 and 0. */
uint32_t deflate_adler32(const uint8_t *p, size_t n);
uint32_t deflate_crc32(const uint8_t *p, size_t n);

#endif
