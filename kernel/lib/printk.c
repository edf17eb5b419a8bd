/* The kernel's console output: serial, plus the screen once fbcon is up. */
#include <stdint.h>
#include <stdbool.h>

#include "kernel/lib/printk.h"
#include "kernel/console/serial.h"
#include "kernel/arch/cpu.h"
#include "kernel/lib/string.h"

/* Hook for the framebuffer console; NULL until one is up. */
void (*console_screen_write)(const char *s, size_t n);

void console_write(const char *s, size_t n)
{
	uint64_t flags = irq_save();

	serial_write(s, n);
	if (console_screen_write)
		console_screen_write(s, n);
	irq_restore(flags);
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
