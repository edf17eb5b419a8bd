/* The end of every run: a status for the harness, or a clean halt on real hardware. */
#include "kernel/arch/cpu.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/lib/printk.h"

#define DEBUG_EXIT_PORT 0xf4

void (*machine_exit_hold_hook)(void);
void (*machine_exit_show_hook)(int code);

void machine_exit(enum exit_code code)
{
	static const char *const what[] = {"ok", "failed", "bad command line", "panic"};

	irq_disable();
	kprintf("aslrbench: exit status %s (0x%x)\n", what[(code - EXIT_OK) & 3], code);
	if (machine_exit_show_hook)
		machine_exit_show_hook(code); /* the QR screen, when qr= turns it on */
	if (machine_exit_hold_hook)
		machine_exit_hold_hook(); /* only when run-qemu.sh --screenshot asked for it */
	outl(DEBUG_EXIT_PORT, code);
	/* Still here: no isa-debug-exit (a real PC).  Nothing else to do but stop. */
	kprintf("aslrbench: no isa-debug-exit device; halted. It is safe to power off.\n");
	for (;;)
		halt();
}
