/*
 * The records this run printed: every console line that starts with "@@ ",
 * kept in a bounded buffer so that the QR screen (kernel/console/qr_screen.c)
 * can show them on a PC without a serial port.  printk's console_write feeds
 * it every byte, whoever wrote them (the kernel's jobs or a ring-3 program
 * on the console).
 */
#ifndef KERNEL_LIB_RECORDS_H
#define KERNEL_LIB_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Every record but the boot record and the summary: the image's default
 * job prints about 78 KiB of records, a mode=test boot about 60 KiB.
 */
#define RECORDS_BUF	 (256 * 1024)
#define RECORDS_LINE_MAX 4096 /* longer lines are dropped (none is near it) */

struct records_stats {
	uint32_t kept;	  /* records held */
	uint32_t dropped; /* records not held: the buffer was full, or a line too long */
	uint64_t dropped_bytes;
};

/* Console bytes as written (called by console_write under its irq_save). */
void records_feed(const char *s, size_t n);

/*
 * The held records as the lines printed ("@@ {...}\n" each): the first
 * summary, then the first boot record, then the rest in the order printed
 * (the short summary first: it always fits in the first QR code); when
 * some were dropped, a last line
 * @@ {"type":"records_dropped","records":N,"bytes":M}.  Returns the length
 * written (never more than cap; a line that would not fit is left out).
 */
size_t records_text(char *out, size_t cap);
void records_get_stats(struct records_stats *st);

/* Forgets everything (host tests). */
void records_reset(void);

#endif
