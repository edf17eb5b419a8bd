#ifndef KERNEL_LIB_PRINTK_H
#define KERNEL_LIB_PRINTK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/vsprintf.h"

/*
 * Message levels, as Linux's include/linux/kern_levels.h: KERN_SOH and a
 * digit open a printk() format.
 */
#define KERN_SOH     "\001"
#define KERN_EMERG   KERN_SOH "0"
#define KERN_ALERT   KERN_SOH "1"
#define KERN_CRIT    KERN_SOH "2"
#define KERN_ERR     KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE  KERN_SOH "5"
#define KERN_INFO    KERN_SOH "6"
#define KERN_DEBUG   KERN_SOH "7"

#define MESSAGE_LOGLEVEL_DEFAULT 4 /* a printk() without a level */
#define CONSOLE_LOGLEVEL_DEFAULT 7 /* the console shows levels below this */
#define CONSOLE_LOGLEVEL_QUIET	 4 /* `quiet` */

/*
 * printk: a kernel message into the log (syslog(2), dmesg), and onto the
 * console when its level is below console_loglevel.  kprintf: the console's
 * own text (the jobs' tables, the @@ records, the banner), always on the
 * console whatever the level, and logged too.
 */
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_write(const char *s, size_t n);
void console_puts(const char *s); /* s plus a newline */

/*
 * The console shows levels below console_loglevel (loglevel=, 0-8; syslog(2)
 * action 8); `quiet` (console_quiet) makes it CONSOLE_LOGLEVEL_QUIET while
 * loglevel= is left at its default.
 */
extern uint32_t console_loglevel;
extern int console_quiet;

/*
 * The log, as syslog(2) reads it: "<N>text\n" per line, the oldest lines
 * dropped when it is full.  Offsets count every byte ever logged.
 */
#define LOG_BUF_LEN (1 << 17) /* CONFIG_LOG_BUF_SHIFT=17, Linux's x86_64 default */
uint64_t log_end(void);	      /* one past the newest byte */
uint64_t log_start(void);     /* the oldest byte still held (a line's start) */
/* Copies log bytes [from, from + n) (clamped to what is held) to buf: the count. */
size_t log_copy(uint64_t from, char *buf, size_t n);
/* Called after each store (a reader waiting in syslog(2) installs it). */
extern void (*log_wake)(void);

/* The consoles, written in this order; each driver installs its own (NULL: none). */
extern void (*console_serial_write)(const char *s, size_t n);
extern void (*console_screen_write)(const char *s, size_t n);
/* Interrupts masked around one write, so serial and screen lines stay whole (arch installs). */
extern uint64_t (*console_irq_save)(void);
extern void (*console_irq_restore)(uint64_t flags);

#endif
