#ifndef KERNEL_ARCH_MACHINE_EXIT_H
#define KERNEL_ARCH_MACHINE_EXIT_H

/*
 * Values written to QEMU's isa-debug-exit port (0xf4).  QEMU exits with
 * (v << 1) | 1; scripts/run-qemu.sh maps those back to 0/1/2/3.
 */
enum exit_code {
	EXIT_OK = 0x10,	     /* QEMU status 33 -> run-qemu.sh 0 */
	EXIT_FAILED = 0x11,  /* 35 -> 1: a test or the job failed */
	EXIT_CMDLINE = 0x12, /* 37 -> 2: bad kernel command line */
	EXIT_PANIC = 0x13,   /* 39 -> 3: kernel panic */
};

/*
 * The end of every run: leaves QEMU with the status; on a machine without
 * the device (a real PC), halts with a message.
 */
__attribute__((noreturn)) void machine_exit(enum exit_code code);

/*
 * Called with interrupts off just before the exit: the screen console holds
 * the picture here when run-qemu.sh --screenshot asked (console/ installs it).
 */
extern void (*machine_exit_hold_hook)(void);

/*
 * Called before that, with the exit code: the QR screen shows the run's
 * records here when it is on (console/ installs it; qr= on the command line).
 */
extern void (*machine_exit_show_hook)(int code);

#endif
