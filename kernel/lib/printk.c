/*
 * The kernel's console output: serial, plus the screen once fbcon is up.
 *
 * lib/ sits below every other layer, so the consoles (console/, above mm)
 * and interrupt masking (arch/) reach printk through hooks they install,
 * never through includes from here.
 */
#include <stdint.h>
#include <stdbool.h>

#include "kernel/lib/printk.h"
#include "kernel/lib/spinlock.h"
#include "kernel/lib/records.h"
#include "kernel/lib/string.h"
#include "kernel/params/param.h"

/* Linux's loglevel= and quiet: which printk levels reach the console. */
uint32_t console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
int console_quiet;
param_uint(loglevel, console_loglevel, 0, 8, "7",
	   "the console shows printk levels below this (Linux's; 8: all, dmesg has everything)");
param_flag(quiet, console_quiet, "as Linux's quiet: the console shows levels below 4 only");

void (*console_serial_write)(const char *s, size_t n);
void (*console_screen_write)(const char *s, size_t n);
uint64_t (*console_irq_save)(void);
void (*console_irq_restore)(uint64_t flags);

void console_write(const char *s, size_t n)
{
	/* kmain has arch install the pair first thing; NULL only in host tests. */
	uint64_t flags = console_irq_save ? console_irq_save() : 0;

	records_feed(s, n); /* the "@@ " lines, for the QR screen */
	if (console_serial_write)
		console_serial_write(s, n);
	if (console_screen_write)
		console_screen_write(s, n);
	if (console_irq_restore)
		console_irq_restore(flags);
}

void console_puts(const char *s)
{
	console_write(s, strlen(s));
	console_write("\n", 1);
}

/*
 * The log ring.  Bytes are numbered from boot; the ring holds the last
 * LOG_BUF_LEN of them, and `first` is the oldest whole line still there.
 * A line continues (no new "<N>") until a newline ends it, as KERN_CONT.
 */
/*
 * [lock logbuf_lock]: printk runs on every CPU, with or without the big
 * kernel lock (an unlocked getrandom's warning, an AP's report).  Linux
 * 2.6's name.  No lockdep class: the checker's own report printks.
 */
static spinlock_t logbuf_lock; /* zeroed: unlocked (spin_lock_init's values) */
static char log_buf[LOG_BUF_LEN];
static uint64_t next, first;
static bool mid_line;
void (*log_wake)(void);

static void log_putc(char c)
{
	log_buf[next % LOG_BUF_LEN] = c;
	next++;
	if (next - first > LOG_BUF_LEN) {
		/* drop the oldest line: first moves past its newline */
		while (first < next && log_buf[first++ % LOG_BUF_LEN] != '\n')
			;
	}
}

static void log_store(int level, const char *s, size_t n)
{
	uint64_t flags = console_irq_save ? console_irq_save() : 0;

	spin_lock(&logbuf_lock);
	for (size_t i = 0; i < n; i++) {
		if (!mid_line) {
			log_putc('<');
			log_putc((char)('0' + level));
			log_putc('>');
			mid_line = true;
		}
		log_putc(s[i]);
		if (s[i] == '\n')
			mid_line = false;
	}
	spin_unlock(&logbuf_lock);
	if (console_irq_restore)
		console_irq_restore(flags);
	if (log_wake)
		log_wake();
}

/* A reader's look at the ring's ends: whole words, a line behind a writer at worst. */
uint64_t log_end(void)
{
	return __atomic_load_n(&next, __ATOMIC_RELAXED);
}

uint64_t log_start(void)
{
	return __atomic_load_n(&first, __ATOMIC_RELAXED);
}

size_t log_copy(uint64_t from, char *buf, size_t n)
{
	uint64_t flags = console_irq_save ? console_irq_save() : 0;
	size_t i = 0;

	spin_lock(&logbuf_lock);
	if (from < first)
		from = first;
	for (; i < n && from + i < next; i++)
		buf[i] = log_buf[(from + i) % LOG_BUF_LEN];
	spin_unlock(&logbuf_lock);
	if (console_irq_restore)
		console_irq_restore(flags);
	return i;
}

/*
 * Formats into buf; a leading KERN_SOH digit of the text (as Linux's
 * printk_get_level, so "%s" may carry it) is taken off into *level.
 */
static size_t format(char *buf, size_t len, int *level, const char *fmt, va_list ap)
{
	int n = kvsnprintf(buf, len, fmt, ap);
	size_t m;

	*level = MESSAGE_LOGLEVEL_DEFAULT;
	if (n < 0)
		return 0;
	m = n > (int)len - 1 ? len - 1 : (size_t)n;
	if (m >= 2 && buf[0] == KERN_SOH[0] && buf[1] >= '0' && buf[1] <= '7') {
		*level = buf[1] - '0';
		memmove(buf, buf + 2, m - 1);
		m -= 2;
	}
	return m;
}

void printk(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int level;
	size_t n;

	va_start(ap, fmt);
	n = format(buf, sizeof(buf), &level, fmt, ap);
	va_end(ap);
	log_store(level, buf, n);
	if ((uint32_t)level < (console_quiet && console_loglevel == CONSOLE_LOGLEVEL_DEFAULT
				       ? CONSOLE_LOGLEVEL_QUIET
				       : console_loglevel))
		console_write(buf, n);
}

void kprintf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int level;
	size_t n;

	va_start(ap, fmt);
	n = format(buf, sizeof(buf), &level, fmt, ap);
	va_end(ap);
	log_store(level, buf, n);
	console_write(buf, n);
}
