/*
 * Our own GDT and TSS: the firmware's are in boot-services memory that we
 * reclaim, and ring 3 needs user segments and a TSS (rsp0 for interrupts
 * from user mode, IST1 so a double fault has a stack even when the kernel
 * stack is what overflowed).  Every CPU has its own pair (a TSS is busy
 * while a CPU's task register holds it, and rsp0/IST1 are per CPU), as
 * Linux 6.6's per-CPU gdt_page and cpu_tss_rw.
 */
#include "kernel/arch/gdt.h"
#include "kernel/lib/string.h"

static struct cpu_gdt boot_gdt; /* the boot CPU's */
static uint8_t df_stack[8192] __attribute__((aligned(16)));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

void tss_set_rsp0(uint64_t rsp0)
{
	boot_gdt.tss.rsp[0] = rsp0;
}

void gdt_init_cpu(struct cpu_gdt *g, uint64_t ist1_top)
{
	uint64_t base = (uint64_t)&g->tss, limit = sizeof(g->tss) - 1;
	struct desc_ptr p = {sizeof(g->gdt) - 1, (uint64_t)g->gdt};

	g->gdt[0] = 0;
	g->gdt[1] = 0x00af9a000000ffffULL; /* kernel code: L, P, DPL0 */
	g->gdt[2] = 0x00cf92000000ffffULL; /* kernel data */
	g->gdt[3] = 0x00cff2000000ffffULL; /* user data: DPL3 */
	g->gdt[4] = 0x00affa000000ffffULL; /* user code: L, DPL3 */
	g->gdt[5] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		    (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	g->gdt[6] = base >> 32;

	memset(&g->tss, 0, sizeof(g->tss));
	g->tss.ist[0] = ist1_top;
	g->tss.iomap_base = sizeof(g->tss);

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

void gdt_init(void)
{
	gdt_init_cpu(&boot_gdt, (uint64_t)df_stack + sizeof(df_stack));
}
