#ifndef KERNEL_CONSOLE_SERIAL_H
#define KERNEL_CONSOLE_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

bool serial_init(void);
bool serial_present(void);
void serial_write(const char *s, size_t n);
int serial_getc(void); /* -1 when nothing is waiting */

#endif
