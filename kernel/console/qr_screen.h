/*
 * The QR screen: a run's records as QR codes on the framebuffer, for a PC
 * without a serial port (docs/hardware.md).  One code at a time with its
 * number; a key shows the next (Backspace or p the previous), or the next
 * comes by itself after qr_seconds=.
 */
#ifndef KERNEL_CONSOLE_QR_SCREEN_H
#define KERNEL_CONSOLE_QR_SCREEN_H

#include <stdbool.h>

/*
 * Installed as machine_exit_show_hook: shows the codes when qr=on, or
 * qr=auto (the default) on a PC without a serial port.  Under a
 * hypervisor one pass, then the run goes on to its exit; on a PC the codes
 * go round until it is powered off.  Interrupts are off: keys are polled.
 */
void qr_screen_at_exit(int status_code);

/*
 * The shell's `qr` pages through the codes itself, reading keys from its
 * terminal (kernel/syscall/sys_qr.c): the records held now as codes (their
 * count; -ENODEV without a screen console, -ENODATA with no record, each
 * said on the console too), one code drawn (false for a k out of 1..count
 * or before a build), the screen back to the console (cleared).
 */
int qr_screen_build(void);
bool qr_screen_draw(unsigned k);
void qr_screen_done(void);

#endif
