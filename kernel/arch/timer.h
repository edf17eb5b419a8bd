#ifndef KERNEL_ARCH_TIMER_H
#define KERNEL_ARCH_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct trap_frame;

extern volatile uint64_t jiffies;
/*
 * Linux's INITIAL_JIFFIES, ((unsigned long)(unsigned int)(-300 * HZ))
 * (include/linux/jiffies.h:167 of 2.6.29, :320 of 6.12): where jiffies
 * start, so that their low 32 bits wrap five minutes after boot.  Time since
 * boot is jiffies - initial_jiffies.
 */
extern uint64_t initial_jiffies;
/*
 * PIT interrupts taken (Linux's IRQ0 line of /proc/interrupts).  jiffies
 * follow the TSC (timer.c says why), so the TSC is checked against this.
 */
extern volatile uint64_t timer_interrupts;

void timer_init(unsigned default_hz); /* at hz=, or default_hz without one */
unsigned timer_hz(void);
/*
 * The clock_t unit user space sees (times(), /proc, siginfo's si_utime,
 * AT_CLKTCK), whatever HZ is: Linux's USER_HZ, and its jiffies_to_clock_t()
 * (linux/kernel/time/time.c, 6.6).
 */
#define USER_HZ 100
uint64_t jiffies_to_clock_t(uint64_t j);
uint64_t timer_actual_mhz(void); /* the PIT's exact rate, in mHz */
/* A watchdog's check, on every tick before the scheduler's (mode=fuzz). */
extern void (*timer_watchdog_hook)(const struct trap_frame *f);
/* Called on every tick after jiffies advanced (the scheduler hooks in here). */
extern void (*timer_tick_hook)(bool from_user);

/*
 * Deadlines on ktime_get_ns's clock (the one user space reads), for the
 * sleeps Linux times with hrtimers (nanosleep, futex, sigtimedwait, poll):
 * the jiffies to sleep to before looking at the clock again (the ticks
 * left rounded up, +1 for the tick in progress), and whether it has passed
 * (a deadline of 0 never passes: no timeout).
 */
uint64_t jiffies_for_deadline(uint64_t deadline_ns);
bool deadline_passed(uint64_t deadline_ns);

/* Busy-waits on PIT channel 2 (interrupts not needed); used to calibrate the TSC. */
void pit_delay_ticks(uint16_t ticks);
#define PIT_HZ	     1193182ULL
#define NSEC_PER_SEC 1000000000ULL

#endif
