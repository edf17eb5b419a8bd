/* panic(): the end of the run on a kernel bug, with enough to find it. */
#include <stdarg.h>

#include "kernel/lib/panic.h"
#include "kernel/lib/printk.h"

void (*panic_irq_disable)(void);
void (*panic_hook)(void);
void (*panic_backtrace_and_exit)(uint64_t rbp, uint64_t rip) __attribute__((noreturn));

void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (panic_irq_disable)
		panic_irq_disable();
	va_start(ap, fmt);
	kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	kprintf("\nKERNEL PANIC: %s\n", buf);
	if (panic_hook)
		panic_hook();
	/* The kernel is built -fno-omit-frame-pointer: this is %rbp. */
	if (panic_backtrace_and_exit)
		panic_backtrace_and_exit((uint64_t)__builtin_frame_address(0),
					 (uint64_t)__builtin_return_address(0));
	for (;;)
		__asm__ volatile("cli; hlt");
}
