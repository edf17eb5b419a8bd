/*
 * COM1, 16550-compatible, polled.
 *
 * Why polled: output must survive a crash (the exception report is the most
 * important text we print), so it never depends on interrupts.  Why the
 * scratch-register probe: many PCs have no COM1 at all, and writing to a
 * missing UART must not hang the boot waiting for a ready bit that never
 * comes; then everything goes to the screen only.
 */
#include <stdint.h>

#include "kernel/arch/cpu.h"
#include "kernel/console/serial.h"

#define COM1	 0x3f8
#define REG_DATA 0
#define REG_IER	 1
#define REG_FCR	 2
#define REG_LCR	 3
#define REG_MCR	 4
#define REG_LSR	 5
#define REG_SCR	 7
#define LSR_DR	 0x01
#define LSR_THRE 0x20

static bool present;

bool serial_init(void)
{
	outb(COM1 + REG_SCR, 0x5a);
	if (inb(COM1 + REG_SCR) != 0x5a)
		return false;
	outb(COM1 + REG_SCR, 0xa5);
	if (inb(COM1 + REG_SCR) != 0xa5)
		return false;
	outb(COM1 + REG_IER, 0x00);
	outb(COM1 + REG_LCR, 0x80); /* DLAB: divisor 1 = 115200 baud */
	outb(COM1 + REG_DATA, 0x01);
	outb(COM1 + REG_IER, 0x00);
	outb(COM1 + REG_LCR, 0x03); /* 8N1 */
	outb(COM1 + REG_FCR, 0xc7); /* FIFOs on, cleared */
	outb(COM1 + REG_MCR, 0x03); /* DTR, RTS; no loopback */
	present = true;
	return true;
}

bool serial_present(void)
{
	return present;
}

static void put(char c)
{
	/* Bounded: a wedged UART costs a little time per byte, never a hang. */
	for (unsigned spins = 0; spins < 100000; spins++)
		if (inb(COM1 + REG_LSR) & LSR_THRE)
			break;
	outb(COM1 + REG_DATA, (uint8_t)c);
}

void serial_write(const char *s, size_t n)
{
	if (!present)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			put('\r');
		put(s[i]);
	}
}

int serial_getc(void)
{
	if (!present || !(inb(COM1 + REG_LSR) & LSR_DR))
		return -1;
	return inb(COM1 + REG_DATA);
}
