#ifndef KERNEL_CONSOLE_PRINTK_H
#define KERNEL_CONSOLE_PRINTK_H

#include <stdarg.h>
#include <stddef.h>

/* %d %i %u %x %X %p %s %c %% with l/ll/z, width, '0' and '-' flags. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_write(const char *s, size_t n);
void console_puts(const char *s); /* s plus a newline */

#endif
