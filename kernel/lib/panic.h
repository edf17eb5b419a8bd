#ifndef KERNEL_LIB_PANIC_H
#define KERNEL_LIB_PANIC_H

#include <stdint.h>

/* Prints the message and a backtrace, then ends the run with the "panic" status. */
__attribute__((noreturn)) void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * What panic needs from arch/, which sits above lib/: masking interrupts
 * before the message, and after it a backtrace from (rbp, rip) and the
 * machine's exit.  kmain has arch install both before anything else.
 */
extern void (*panic_irq_disable)(void);
extern void (*panic_backtrace_and_exit)(uint64_t rbp, uint64_t rip) __attribute__((noreturn));

/*
 * What a job wants on the console before the end (the fuzzer's seeds):
 * called by panic() and by arch's report of an unhandled kernel fault.
 */
extern void (*panic_hook)(void);

#endif
