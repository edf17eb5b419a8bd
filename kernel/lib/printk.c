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
#include "kernel/lib/string.h"
#include "kernel/params/param.h"

/*
 * Linux's loglevel= and quiet, stored only: every message is printed
 * whatever they say (nothing here has a level yet).
 */
uint32_t console_loglevel;
int console_quiet;
param_uint(loglevel, console_loglevel, 0, 7, "7",
	   "console log level as Linux's; stored, not yet used: all is printed");
param_flag(quiet, console_quiet, "as Linux's quiet; stored, not yet used: all is printed");

void (*console_serial_write)(const char *s, size_t n);
void (*console_screen_write)(const char *s, size_t n);
uint64_t (*console_irq_save)(void);
void (*console_irq_restore)(uint64_t flags);

void console_write(const char *s, size_t n)
{
	/* kmain has arch install the pair first thing; NULL only in host tests. */
	uint64_t flags = console_irq_save ? console_irq_save() : 0;

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

void kprintf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	console_write(buf, (size_t)n);
}
