#ifndef KERNEL_LIB_VSPRINTF_H
#define KERNEL_LIB_VSPRINTF_H

#include <stdarg.h>
#include <stddef.h>

/* %d %i %u %x %X %p %s %c %% with l/ll/z, width, '0' and '-' flags. */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
