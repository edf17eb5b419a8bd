#ifndef KERNEL_FS_TTY_H
#define KERNEL_FS_TTY_H

#include <stddef.h>
#include <stdint.h>

/* Raw console input: returns at least one byte, sleeping until there is one. */
long n_tty_read(char *kbuf, size_t n);
void tty_poll(void); /* moves received bytes from the UART into the buffer */
/* The console's ioctls: termios, foreground process group, window size. */
long tty_ioctl(unsigned int cmd, uint64_t arg);

#endif
