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
 * One pass over the codes, now (the shell's `qr`, through a system call).
 * Returns false, having said why on the console, when there is no screen
 * or nothing to show.
 */
bool qr_screen_show(void);

#endif
