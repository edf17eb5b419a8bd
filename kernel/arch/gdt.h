#ifndef KERNEL_ARCH_GDT_H
#define KERNEL_ARCH_GDT_H

#include <stdint.h>

/*
 * Linux 6.6's 64-bit GDT (arch/x86/include/asm/segment.h), entry by entry,
 * so the selectors a program sees are Linux's:
 *   1 KERNEL32_CS 0x08   2 KERNEL_CS 0x10   3 KERNEL_DS 0x18
 *   4 USER32_CS   0x23   5 USER_DS   0x2b   6 USER_CS   0x33
 *   8 TSS (two entries) 0x40, 10 LDT (two, unused here), 12..14 TLS (0x63, 0x6b, 0x73),
 *   15 CPUNODE 0x7b (its limit is the CPU's number: the vDSO's getcpu)
 * The order of 2..6 is fixed by syscall/sysret (STAR): syscall loads CS =
 * STAR[47:32] (KERNEL_CS), SS = + 8; sysretq CS = STAR[63:48] + 16 (USER_CS),
 * SS = + 8 (USER_DS); STAR[63:48] is USER32_CS, what a 32-bit sysret would load.
 */
#define GDT_ENTRY_KERNEL32_CS	    1
#define GDT_ENTRY_KERNEL_CS	    2
#define GDT_ENTRY_KERNEL_DS	    3
#define GDT_ENTRY_DEFAULT_USER32_CS 4
#define GDT_ENTRY_DEFAULT_USER_DS   5
#define GDT_ENTRY_DEFAULT_USER_CS   6
#define GDT_ENTRY_TSS		    8
#define GDT_ENTRY_LDT		    10
#define GDT_ENTRY_TLS_MIN	    12
#define GDT_ENTRY_TLS_MAX	    14
#define GDT_ENTRY_TLS_ENTRIES	    3
#define GDT_ENTRY_CPUNODE	    15
#define GDT_ENTRIES		    16

#define KERNEL32_CS 0x08
#define KERNEL_CS   0x10
#define KERNEL_DS   0x18
#define USER32_CS   0x23
#define USER_DS	    0x2b
#define USER_CS	    0x33
#define TSS_SEL	    0x40
#define CPUNODE_SEL 0x7b

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
	uint64_t gdt[GDT_ENTRIES];
	struct tss tss;
};

void gdt_init(void); /* the boot CPU's */
/* Fills g (IST1 = the double-fault stack's top) and loads it on this CPU. */
void gdt_init_cpu(struct cpu_gdt *g, uint64_t ist1_top, uint32_t cpu);
void tss_set_rsp0(uint64_t rsp0); /* this CPU's TSS */
/*
 * load_TLS: a task's three TLS descriptors (set_thread_area) into this
 * CPU's GDT, before its selectors are loaded.
 */
void gdt_load_tls(const uint64_t tls[GDT_ENTRY_TLS_ENTRIES]);
/* This CPU's GDT entry idx (0 past the end): what a selector would load. */
uint64_t gdt_entry(unsigned idx);

#endif
