#ifndef KERNEL_LIB_PRINTK_H
#define KERNEL_LIB_PRINTK_H

#include <stdarg.h>
#include <stddef.h>

#include "kernel/lib/vsprintf.h"

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_write(const char *s, size_t n);
void console_puts(const char *s); /* s plus a newline */

#endif
