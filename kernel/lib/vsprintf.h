#ifndef KERNEL_LIB_VSPRINTF_H
#define KERNEL_LIB_VSPRINTF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * %d %i %u %x %X %o %p %s %c %%, with the flags - 0 # + and space, a width
 * and a precision (either may be *), and the lengths hh h l ll z j t.  %p is
 * 0x and the hex digits (NULL: 0x0); no floating point.
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
