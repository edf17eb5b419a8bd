#ifndef KERNEL_CONSOLE_SERIAL_H
#define KERNEL_CONSOLE_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool serial_init(void); /* COM1 */
bool serial_init_port(uint16_t port);
uint16_t serial_port(void); /* 0 when there is none */
bool serial_present(void);
void serial_write(const char *s, size_t n);
int serial_getc(void); /* -1 when nothing is waiting */

#endif
