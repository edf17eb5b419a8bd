#ifndef KERNEL_LIB_PRINTK_H
#define KERNEL_LIB_PRINTK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/vsprintf.h"

/* loglevel= and quiet (stored; printing does not depend on them yet) */
extern uint32_t console_loglevel;
extern int console_quiet;

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_write(const char *s, size_t n);
void console_puts(const char *s); /* s plus a newline */

/* The consoles, written in this order; each driver installs its own (NULL: none). */
extern void (*console_serial_write)(const char *s, size_t n);
extern void (*console_screen_write)(const char *s, size_t n);
/* Interrupts masked around one write, so serial and screen lines stay whole (arch installs). */
extern uint64_t (*console_irq_save)(void);
extern void (*console_irq_restore)(uint64_t flags);

#endif
