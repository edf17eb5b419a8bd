/*
 * Our own GDT and TSS: the firmware's are in boot-services memory that we
 * reclaim, and ring 3 needs user segments and a TSS (rsp0 for interrupts
 * from user mode, IST1 so a double fault has a stack even when the kernel
 * stack is what overflowed).  Every CPU has its own pair (a TSS is busy
 * while a CPU's task register holds it, and rsp0/IST1 are per CPU), as
 * Linux 6.6's per-CPU gdt_page and cpu_tss_rw.
 */
#include "kernel/arch/gdt.h"
#include "kernel/arch/percpu.h"
#include "kernel/lib/string.h"

static struct cpu_gdt boot_gdt; /* the boot CPU's */
static uint8_t df_stack[8192] __attribute__((aligned(16)));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

void tss_set_rsp0(uint64_t rsp0)
{
	this_cpu()->gdt->tss.rsp[0] = rsp0;
}

void gdt_load_tls(const uint64_t tls[GDT_ENTRY_TLS_ENTRIES])
{
	struct cpu_gdt *g = this_cpu()->gdt;

	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		g->gdt[GDT_ENTRY_TLS_MIN + i] = tls[i];
}

uint64_t gdt_entry(unsigned idx)
{
	return idx < GDT_ENTRIES ? this_cpu()->gdt->gdt[idx] : 0;
}

void gdt_init_cpu(struct cpu_gdt *g, uint64_t ist1_top, uint32_t cpu)
{
	uint64_t base = (uint64_t)&g->tss, limit = sizeof(g->tss) - 1;
	struct desc_ptr p = {sizeof(g->gdt) - 1, (uint64_t)g->gdt};

	/* Linux 6.6's gdt_page (arch/x86/kernel/cpu/common.c), flat 4 GiB segments */
	memset(g->gdt, 0, sizeof(g->gdt));
	g->gdt[GDT_ENTRY_KERNEL32_CS] = 0x00cf9b000000ffffULL;	     /* 32-bit code, DPL0 */
	g->gdt[GDT_ENTRY_KERNEL_CS] = 0x00af9b000000ffffULL;	     /* 64-bit code (L), DPL0 */
	g->gdt[GDT_ENTRY_KERNEL_DS] = 0x00cf93000000ffffULL;	     /* data, DPL0 */
	g->gdt[GDT_ENTRY_DEFAULT_USER32_CS] = 0x00cffb000000ffffULL; /* 32-bit code (D), DPL3 */
	g->gdt[GDT_ENTRY_DEFAULT_USER_DS] = 0x00cff3000000ffffULL;   /* data, DPL3 */
	g->gdt[GDT_ENTRY_DEFAULT_USER_CS] = 0x00affb000000ffffULL;   /* 64-bit code (L), DPL3 */
	g->gdt[GDT_ENTRY_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
				(((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	g->gdt[GDT_ENTRY_TSS + 1] = base >> 32;

	/*
	 * GDT_ENTRY_CPUNODE (Linux 6.6's setup_getcpu): a DPL 3 data segment
	 * whose limit is the CPU's number, so the vDSO's getcpu reads it with
	 * lsl from ring 3 without a system call.
	 */
	g->gdt[GDT_ENTRY_CPUNODE] = (cpu & 0xffff) | (((uint64_t)(cpu >> 16) & 0xf) << 48) |
				    (0xf5ULL << 40) | (0x4ULL << 52);
	memset(&g->tss, 0, sizeof(g->tss));
	g->tss.ist[0] = ist1_top;
	g->tss.iomap_base = sizeof(g->tss);

	__asm__ volatile("lgdt %0\n\t"
			 "mov %1, %%ss\n\t"
			 "mov %4, %%ds\n\t"
			 "mov %4, %%es\n\t"
			 "pushq %2\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "ltr %w3"
			 :
			 : "m"(p), "r"((uint64_t)KERNEL_DS), "i"(KERNEL_CS), "r"(TSS_SEL),
			   "r"((uint64_t)USER_DS)
			 : "rax", "memory");
}

void gdt_init(void)
{
	percpu0.gdt = &boot_gdt;
	gdt_init_cpu(&boot_gdt, (uint64_t)df_stack + sizeof(df_stack), 0);
}
