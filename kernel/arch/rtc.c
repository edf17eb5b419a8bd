/* The CMOS RTC, read as Linux's mc146818_get_time does; see rtc.h. */
#include <stdint.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/rtc.h"

#define CMOS_ADDR 0x70 /* bit 7 clear: NMIs stay enabled */
#define CMOS_DATA 0x71

enum {
	RTC_SEC = 0x00,
	RTC_MIN = 0x02,
	RTC_HOUR = 0x04,
	RTC_DAY = 0x07,
	RTC_MON = 0x08,
	RTC_YEAR = 0x09,
	RTC_REG_A = 0x0a,
	RTC_REG_B = 0x0b
};

#define REG_A_UIP 0x80 /* an update is in progress: the registers may be mid-change */
#define REG_B_24H 0x02
#define REG_B_BIN 0x04 /* binary, not BCD */
#define HOUR_PM	  0x80 /* in 12-hour mode */
#define UIP_TRIES 100000

static uint8_t cmos_read(uint8_t reg)
{
	outb(CMOS_ADDR, reg);
	return inb(CMOS_DATA);
}

struct rtc_regs {
	uint8_t sec, min, hour, day, mon, year;
};

/* One snapshot taken while no update runs; false if the clock never settles. */
static bool read_regs(struct rtc_regs *t)
{
	int i = 0;

	while (cmos_read(RTC_REG_A) & REG_A_UIP)
		if (++i == UIP_TRIES)
			return false;
	t->sec = cmos_read(RTC_SEC);
	t->min = cmos_read(RTC_MIN);
	t->hour = cmos_read(RTC_HOUR);
	t->day = cmos_read(RTC_DAY);
	t->mon = cmos_read(RTC_MON);
	t->year = cmos_read(RTC_YEAR);
	return true;
}

static unsigned bcd(uint8_t v)
{
	return (v >> 4) * 10 + (v & 15);
}

static void put2(char *p, unsigned v)
{
	p[0] = (char)('0' + v / 10 % 10);
	p[1] = (char)('0' + v % 10);
}

int rtc_iso8601(char *buf, size_t size)
{
	struct rtc_regs a, b;
	unsigned sec, min, hour, day, mon, year;
	uint8_t regb, pm;
	int tries = 0;

	if (size < 20)
		return -1;
	/* Two equal snapshots in a row: no second rolled over between the reads. */
	do {
		if (!read_regs(&a) || !read_regs(&b) || ++tries > 10)
			return -1;
	} while (a.sec != b.sec || a.min != b.min || a.hour != b.hour || a.day != b.day ||
		 a.mon != b.mon || a.year != b.year);
	regb = cmos_read(RTC_REG_B);
	pm = a.hour & HOUR_PM;
	a.hour &= (uint8_t)~HOUR_PM;
	if (regb & REG_B_BIN) {
		sec = a.sec, min = a.min, hour = a.hour, day = a.day, mon = a.mon, year = a.year;
	} else {
		sec = bcd(a.sec), min = bcd(a.min), hour = bcd(a.hour);
		day = bcd(a.day), mon = bcd(a.mon), year = bcd(a.year);
	}
	if (!(regb & REG_B_24H))
		hour = hour % 12 + (pm ? 12 : 0);
	/* No century register is read: as Linux, years below 70 are 20xx. */
	year += year < 70 ? 2000 : 1900;
	if (sec > 59 || min > 59 || hour > 23 || !day || day > 31 || !mon || mon > 12 ||
	    year > 2069)
		return -1;
	put2(buf, year / 100);
	put2(buf + 2, year % 100);
	buf[4] = '-';
	put2(buf + 5, mon);
	buf[7] = '-';
	put2(buf + 8, day);
	buf[10] = 'T';
	put2(buf + 11, hour);
	buf[13] = ':';
	put2(buf + 14, min);
	buf[16] = ':';
	put2(buf + 17, sec);
	buf[19] = '\0';
	return 0;
}
