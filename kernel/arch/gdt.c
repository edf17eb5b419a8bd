/*
 * Our own GDT and TSS: the firmware's are in boot-services memory that we
 * reclaim, and ring 3 needs user segments and a TSS (rsp0 for interrupts
 * from user mode, IST1 so a double fault has a stack even when the kernel
 * stack is what overflowed).
 */
#include "kernel/arch/gdt.h"
#include "kernel/lib/string.h"

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

static struct tss tss;
static uint64_t gdt[7];
static uint8_t df_stack[8192] __attribute__((aligned(16)));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

void tss_set_rsp0(uint64_t rsp0)
{
	tss.rsp[0] = rsp0;
}

void gdt_init(void)
{
	uint64_t base = (uint64_t)&tss, limit = sizeof(tss) - 1;
	struct desc_ptr p = {sizeof(gdt) - 1, (uint64_t)gdt};

	gdt[0] = 0;
	gdt[1] = 0x00af9a000000ffffULL; /* kernel code: L, P, DPL0 */
	gdt[2] = 0x00cf92000000ffffULL; /* kernel data */
	gdt[3] = 0x00cff2000000ffffULL; /* user data: DPL3 */
	gdt[4] = 0x00affa000000ffffULL; /* user code: L, DPL3 */
	gdt[5] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[6] = base >> 32;

	memset(&tss, 0, sizeof(tss));
	tss.ist[0] = (uint64_t)df_stack + sizeof(df_stack);
	tss.iomap_base = sizeof(tss);

	__asm__ volatile("lgdt %0\n\t"
			 "mov %1, %%ds\n\t"
			 "mov %1, %%es\n\t"
			 "mov %1, %%ss\n\t"
			 "pushq %2\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "ltr %w3"
			 :
			 : "m"(p), "r"((uint64_t)KERNEL_DS), "i"(KERNEL_CS), "r"(TSS_SEL)
			 : "rax", "memory");
}
