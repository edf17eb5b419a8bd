/* The IDT: every vector points at its stub in isr.asm; #DF gets its own stack (IST1). */
#include <stdint.h>

#include "kernel/arch/gdt.h"
#include "kernel/arch/idt.h"

struct idt_entry {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type;
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t zero;
} __attribute__((packed));

extern const uint64_t isr_table[256];
void entry_INT80_compat(void);
static struct idt_entry idt[256];

static void set_gate(int vec, uint64_t addr, uint8_t ist, uint8_t dpl)
{
	idt[vec].off_lo = addr & 0xffff;
	idt[vec].sel = KERNEL_CS;
	idt[vec].ist = ist;
	idt[vec].type = 0x8e | (uint8_t)(dpl << 5); /* present, interrupt gate */
	idt[vec].off_mid = (addr >> 16) & 0xffff;
	idt[vec].off_hi = (uint32_t)(addr >> 32);
	idt[vec].zero = 0;
}

/* One IDT serves every CPU (as Linux's idt_table): an AP only loads it. */
void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) p = {sizeof(idt) - 1, (uint64_t)idt};

	__asm__ volatile("lidt %0" : : "m"(p));
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, isr_table[v], v == 8 ? 1 : 0, 0);
	/* int3 may be raised from user mode (debugging a user program). */
	set_gate(3, isr_table[3], 0, 3);
	/* IA32_SYSCALL_VECTOR: int $0x80 from user mode, the i386 system call (isr.asm) */
	set_gate(0x80, (uint64_t)entry_INT80_compat, 0, 3);
	idt_load();
}
