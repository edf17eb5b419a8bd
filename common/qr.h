/*
 * A QR code encoder (ISO/IEC 18004), freestanding: versions 1 to 20, error
 * correction level L or M, alphanumeric or byte mode, one segment.
 *
 * Why its own: the kernel shows a run's records as QR codes on a PC without
 * a serial port (kernel/console/qr_screen.c), with no library to call; the
 * same file builds for the host, where tests/lib/test_qr.c reads its
 * symbols back with zbarimg.  Why no higher versions: a version-20 code
 * (97 modules) is already as dense as a phone photo of a screen reads well.
 */
#ifndef COMMON_QR_H
#define COMMON_QR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QR_MAX_VERSION	 20
#define QR_MAX_SIZE	 (17 + 4 * QR_MAX_VERSION)
#define QR_MAX_CODEWORDS 1085 /* version 20's total */

enum qr_ecc { QR_ECC_L, QR_ECC_M };

/* A symbol and the encoder's scratch space (no stack arrays: kernel stacks are small). */
struct qr_code {
	int version;
	int size;				 /* modules per side, 17 + 4 * version */
	int mask;				 /* the mask pattern chosen, 0..7 */
	uint8_t dark[QR_MAX_SIZE * QR_MAX_SIZE]; /* 1: dark module, row-major */
	uint8_t func[QR_MAX_SIZE * QR_MAX_SIZE]; /* 1: function pattern (not data) */
	uint8_t data[QR_MAX_CODEWORDS];		 /* data codewords, then the final order */
	uint8_t out[QR_MAX_CODEWORDS];
};

/*
 * Encodes text[0..len) in the smallest version <= max_version that holds it,
 * alphanumeric mode when every byte is one of the 45 characters
 * "0-9A-Z $%*+-./:", byte mode otherwise.  Returns false (and leaves no
 * symbol) when it does not fit or an argument is out of range.
 */
bool qr_encode(const char *text, size_t len, enum qr_ecc ecc, int max_version, struct qr_code *qr);

/* The most alphanumeric characters a version holds at a level; 0 if out of range. */
size_t qr_alnum_capacity(int version, enum qr_ecc ecc);

/* Whether every byte of text[0..len) is a QR alphanumeric character. */
bool qr_is_alnum(const char *text, size_t len);

static inline bool qr_module(const struct qr_code *qr, int x, int y)
{
	return x >= 0 && y >= 0 && x < qr->size && y < qr->size && qr->dark[y * qr->size + x];
}

/* Exposed for the host test: the tables and the pieces with known vectors. */
int qr_total_codewords(int version);
bool qr_blocks(int version, enum qr_ecc ecc, int *ecc_per_block, int *short_blocks, int *short_len,
	       int *long_blocks);
void qr_rs_ecc(const uint8_t *data, int n, int ecc_len, uint8_t *ecc);
uint32_t qr_format_bits(enum qr_ecc ecc, int mask);
uint32_t qr_version_bits(int version);

#endif
