/*
 * The run's records cut into QR code texts (docs/hardware.md, "The QR
 * format"): the held records (kernel/lib/records.h), deflated as a zlib
 * stream, cut into chunks, each chunk one code's text
 *
 *     AB1 K/N RUN CRC DATA
 *
 * K the code's number from 1, N the count, RUN the CRC-32 of the whole
 * zlib stream and CRC that of this chunk (8 uppercase hex digits each),
 * DATA the chunk in base45 (RFC 9285).  Every character is in QR's
 * alphanumeric set, so a code holds 5.5 bits a character.
 */
#ifndef KERNEL_CONSOLE_QR_PAGES_H
#define KERNEL_CONSOLE_QR_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/qr.h"

#define QR_PAGES_MAX	 999 /* K and N have at most three digits */
#define QR_PAGES_ECC	 QR_ECC_M
#define QR_PAGE_TEXT_MAX 1024 /* version 20-M holds 970 characters */

struct qr_pages {
	size_t text_len;  /* the records' bytes */
	size_t zlen;	  /* the zlib stream's */
	size_t chunk;	  /* bytes of the stream per code */
	unsigned count;	  /* codes */
	unsigned records; /* records in them */
	uint32_t run;	  /* CRC-32 of the stream */
	int max_version;  /* the largest version a code may take */
};

/*
 * Compresses the records held now.  False when there is nothing to show or
 * the codes would be more than QR_PAGES_MAX (then p says why: count 0).
 */
bool qr_pages_build(int max_version, struct qr_pages *p);

/* Code k's text (1 <= k <= count) into out, NUL-terminated: its length, 0 on a bad k. */
size_t qr_page_text(const struct qr_pages *p, unsigned k, char *out, size_t cap);

#endif
