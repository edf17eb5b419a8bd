/*
 * jiffies, driven by PIT channel 0 through the 8259 PIC.
 *
 * Why the PIT and not the LAPIC timer: its input clock is a fixed
 * 1.193182 MHz on every PC and in QEMU, so HZ needs no calibration and the
 * tick is the same under -icount.  The 8259 is remapped to vectors 32-47
 * and everything but IRQ0 stays masked.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/params/param.h"
#include "kernel/arch/traps.h"
#include "kernel/arch/tsc.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xa0
#define PIC2_DATA 0xa1
#define PIT_CH0	  0x40
#define PIT_CH2	  0x42
#define PIT_CMD	  0x43
#define IRQ_BASE  32

volatile uint64_t jiffies;
volatile uint64_t timer_interrupts;
uint64_t initial_jiffies;
void (*timer_tick_hook)(bool from_user);
void (*timer_watchdog_hook)(const struct trap_frame *f);
static uint32_t cur_hz;
param_uint(hz, cur_hz, 20, 10000, "",
	   "timer interrupts per second (default: aslr_rules= kernel's x86_64 defconfig, 1000)");
static uint16_t divisor;

static void pic_remap(void)
{
	outb(PIC1_CMD, 0x11);
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, IRQ_BASE);
	outb(PIC2_DATA, IRQ_BASE + 8);
	outb(PIC1_DATA, 4);
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 1);
	outb(PIC2_DATA, 1);
	outb(PIC1_DATA, 0xfe); /* IRQ0 only */
	outb(PIC2_DATA, 0xff);
}

/*
 * Why jiffies follow the clock and not a count of interrupts: QEMU's
 * emulated i8254 has no lost-tick policy, so ticks that come due while the
 * host does not run the vCPU merge into one interrupt, and a count of
 * interrupts once fell to under half of CLOCK_MONOTONIC over 300 ms (times()
 * in lx_ia32, a loaded CI host).  Linux's tick_do_update_jiffies64()
 * (linux/kernel/time/tick-sched.c, since 2.6.21, on the tick of a NO_HZ or
 * high-resolution-timer kernel) advances jiffies by the tick periods the
 * clocksource says have passed since the last update; this does the same
 * with the PIT's exact period.  The first tick sets the reference half a
 * period back, so that a tick's jitter against the TSC (under half a
 * period) never makes it count zero or two: while the PIT and the TSC's
 * calibration agree, each tick counts one; where they drift apart, jiffies
 * keep the TSC's time, as Linux's keep the clocksource's.  Before the TSC
 * is calibrated each tick counts one.
 */
static uint64_t tick_period_ns, last_jiffies_update;

static void tick_do_update_jiffies64(void)
{
	uint64_t now, ticks;

	if (!tick_period_ns || !tsc_hz()) {
		jiffies++;
		return;
	}
	now = ktime_get_ns();
	if (!last_jiffies_update) {
		last_jiffies_update = now - tick_period_ns / 2;
		jiffies++;
		return;
	}
	ticks = (now - last_jiffies_update) / tick_period_ns;
	last_jiffies_update += ticks * tick_period_ns;
	jiffies += ticks;
}

static void tick(struct trap_frame *f)
{
	timer_interrupts++;
	tick_do_update_jiffies64();
	outb(PIC1_CMD, 0x20);
	/*
	 * No add_interrupt_randomness(0): 2.6.29's x86 irq0 was registered
	 * without IRQF_SAMPLE_RANDOM; input events feed the pool (tty_poll).
	 */
	if (timer_watchdog_hook)
		timer_watchdog_hook(f);
	if (timer_tick_hook)
		timer_tick_hook((f->cs & 3) == 3);
}

void timer_init(unsigned default_hz)
{
	uint32_t d;

	if (!cur_hz) /* no hz= on the command line: the rule set's */
		cur_hz = default_hz;
	initial_jiffies = (uint32_t)(-300 * (int32_t)cur_hz);
	jiffies = initial_jiffies;
	d = (uint32_t)((PIT_HZ + cur_hz / 2) / cur_hz);

	if (d > 0xffff)
		d = 0xffff;
	divisor = (uint16_t)d;
	tick_period_ns = (uint64_t)divisor * NSEC_PER_SEC / PIT_HZ;
	pic_remap();
	irq_register(IRQ_BASE, tick);
	outb(PIT_CMD, 0x34); /* channel 0, lo/hi, mode 2 */
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
}

unsigned timer_hz(void)
{
	return cur_hz;
}

uint64_t jiffies_to_clock_t(uint64_t j)
{
	return j * USER_HZ / timer_hz();
}

uint64_t timer_actual_mhz(void)
{
	return divisor ? PIT_HZ * 1000 / divisor : 0;
}

/*
 * Why a sleep ends by the clock and not by a count of ticks: a tick is
 * late when the host is busy, and QEMU's i8254 re-arms channel 0 from the
 * expiry it missed, so late ticks come in a burst; 51 ticks were once seen
 * to pass in under 50 ms of CLOCK_MONOTONIC, and a futex with a 50 ms
 * timeout returned early.  Linux's hrtimers expire by the clocksource; here
 * the tick wakes the sleeper, which looks at the clock and sleeps again if
 * the deadline is still ahead.
 */
#define MAX_SLEEP_NS (1000000ULL * NSEC_PER_SEC)

uint64_t jiffies_for_deadline(uint64_t deadline_ns)
{
	uint64_t now = ktime_get_ns(), left = deadline_ns > now ? deadline_ns - now : 0;

	if (!left)
		return jiffies;
	if (left > MAX_SLEEP_NS) /* no overflow below; it looks again after 11 days */
		left = MAX_SLEEP_NS;
	return jiffies + (left * cur_hz + NSEC_PER_SEC - 1) / NSEC_PER_SEC + 1;
}

bool deadline_passed(uint64_t deadline_ns)
{
	return deadline_ns && ktime_get_ns() >= deadline_ns;
}

void pit_delay_ticks(uint16_t ticks)
{
	/* Channel 2, one-shot, gate via port 0x61; OUT2 (bit 5) rises at terminal count. */
	uint8_t p61 = inb(0x61);

	outb(0x61, (p61 & ~0x02) | 0x01);
	outb(PIT_CMD, 0xb0);
	outb(PIT_CH2, ticks & 0xff);
	outb(PIT_CH2, ticks >> 8);
	/* Restart the count with a gate edge. */
	outb(0x61, (inb(0x61) & ~0x01));
	outb(0x61, (inb(0x61) | 0x01));
	for (unsigned long spins = 0; spins < 100000000UL; spins++)
		if (inb(0x61) & 0x20)
			break;
	outb(0x61, p61);
}
