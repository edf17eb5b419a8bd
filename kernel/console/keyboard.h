#ifndef KERNEL_CONSOLE_KEYBOARD_H
#define KERNEL_CONSOLE_KEYBOARD_H

#include <stdbool.h>
#include <stdint.h>

/* A PS/2 (or firmware-emulated) keyboard as a second console input. */
bool kbd_init(void);
/* Next ASCII byte typed, or -1; polled from the timer tick like the UART. */
int kbd_getc(void);
/* Scan code set 1 to ASCII (0: no character); tracks shift and caps lock. */
int kbd_translate(uint8_t scancode);

#endif
