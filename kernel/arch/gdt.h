#ifndef KERNEL_ARCH_GDT_H
#define KERNEL_ARCH_GDT_H

#include <stdint.h>

/* Selector order is fixed by syscall/sysret (STAR): kernel CS, kernel SS, user SS, user CS. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_DS	  0x1b
#define USER_CS	  0x23
#define TSS_SEL	  0x28

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

/* One CPU's descriptor tables. */
struct cpu_gdt {
	uint64_t gdt[7];
	struct tss tss;
};

void gdt_init(void); /* the boot CPU's */
/* Fills g (IST1 = the double-fault stack's top) and loads it on this CPU. */
void gdt_init_cpu(struct cpu_gdt *g, uint64_t ist1_top);
void tss_set_rsp0(uint64_t rsp0); /* the boot CPU's TSS: the one that runs tasks */

#endif
