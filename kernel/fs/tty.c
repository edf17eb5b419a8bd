/*
 * Console input.  The UART and the PS/2 keyboard are polled from the timer
 * tick into one ring buffer, and readers sleep until a byte arrives.  Raw bytes, no echo:
 * the shell does its own line editing.  QEMU holds back piped input while
 * the guest's FIFO is full, so a script piped into the serial port loses
 * nothing; the 4 KiB ring absorbs bursts between ticks.
 */
#include "kernel/arch/cpu.h"
#include "kernel/console/keyboard.h"
#include "kernel/console/serial.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/tty.h"
#include "kernel/char/random.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"

#define RING 4096

static char ring[RING];
static unsigned head, tail; /* head: next write; tail: next read */

/*
 * Drains the UART only while the ring has room: a full ring leaves bytes in
 * the UART, whose full FIFO makes QEMU stop reading its input, so a long
 * piped script is held back rather than lost.
 */
void tty_poll(void)
{
	bool got = false;

	while (head - tail < RING) {
		int c = serial_getc();

		if (c < 0)
			c = kbd_getc();
		if (c < 0)
			break;
		/*
		 * The 2.6.29 input pool's feed: every key is an EV_KEY press and
		 * release through add_input_randomness (drivers/input/input.c);
		 * the serial console stands in for a keyboard here.
		 */
		add_input_randomness(EV_KEY, (unsigned int)c, 1);
		add_input_randomness(EV_KEY, (unsigned int)c, 0);
		ring[head % RING] = (char)c;
		head++;
		got = true;
	}
	if (got) {
		wake_up(ring);
		poll_notify();
	}
}

/*
 * poll's POLLIN on the console follows what read does: the line discipline
 * is raw whatever ICANON says in the stored termios (sys_stat.c), so read
 * returns as soon as one byte is in the ring, and so poll reports POLLIN.
 * A canonical mode would have to report a complete line here instead.
 */
bool n_tty_input_ready(void)
{
	return head != tail;
}

long n_tty_read(char *kbuf, size_t n)
{
	size_t got = 0;

	while (head == tail) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		sleep_on_interruptible(ring, 0, (const void *)n_tty_read);
	}
	uint64_t flags = irq_save();
	while (got < n && tail != head) {
		kbuf[got++] = ring[tail % RING];
		tail++;
	}
	irq_restore(flags);
	return (long)got;
}
