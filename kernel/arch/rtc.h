/*
 * The CMOS real-time clock (MC146818, I/O ports 0x70/0x71): the only wall
 * clock a PC has before any network, read once for the boot record's "time".
 */
#ifndef KERNEL_ARCH_RTC_H
#define KERNEL_ARCH_RTC_H

#include <stddef.h>

/*
 * Writes the RTC's date and time as "YYYY-MM-DDTHH:MM:SS" (ISO 8601, no zone:
 * the RTC keeps whatever zone the firmware was set to; QEMU's is UTC) into
 * buf (at least 20 bytes).  0, or -1 when the clock does not answer or reads
 * as no valid date.
 */
int rtc_iso8601(char *buf, size_t size);

#endif
