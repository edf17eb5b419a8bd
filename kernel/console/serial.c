/*
 * The serial console: a 16550-compatible UART, polled; COM1 unless the
 * firmware's ACPI SPCR table names another I/O port.
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
#include "kernel/lib/printk.h"

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
static uint16_t base = COM1;

/* Probes and programs the UART at `port`; the console switches to it if it answers. */
bool serial_init_port(uint16_t port)
{
	outb(port + REG_SCR, 0x5a);
	if (inb(port + REG_SCR) != 0x5a)
		return false;
	outb(port + REG_SCR, 0xa5);
	if (inb(port + REG_SCR) != 0xa5)
		return false;
	base = port;
	outb(base + REG_IER, 0x00);
	outb(base + REG_LCR, 0x80); /* DLAB: divisor 1 = 115200 baud */
	outb(base + REG_DATA, 0x01);
	outb(base + REG_IER, 0x00);
	outb(base + REG_LCR, 0x03); /* 8N1 */
	outb(base + REG_FCR, 0xc7); /* FIFOs on, cleared */
	outb(base + REG_MCR, 0x03); /* DTR, RTS; no loopback */
	present = true;
	return true;
}

bool serial_init(void)
{
	console_serial_write = serial_write; /* printk writes nothing while no port answers */
	return serial_init_port(COM1);
}

uint16_t serial_port(void)
{
	return present ? base : 0;
}

bool serial_present(void)
{
	return present;
}

static void put(char c)
{
	/* Bounded: a wedged UART costs a little time per byte, never a hang. */
	for (unsigned spins = 0; spins < 100000; spins++)
		if (inb(base + REG_LSR) & LSR_THRE)
			break;
	outb(base + REG_DATA, (uint8_t)c);
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
	if (!present || !(inb(base + REG_LSR) & LSR_DR))
		return -1;
	return inb(base + REG_DATA);
}
