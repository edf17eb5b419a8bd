#ifndef KERNEL_ARCH_GDT_H
#define KERNEL_ARCH_GDT_H

#include <stdint.h>

/* Selector order is fixed by syscall/sysret (STAR): kernel CS, kernel SS, user SS, user CS. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_DS	  0x1b
#define USER_CS	  0x23
#define TSS_SEL	  0x28

void gdt_init(void);
void tss_set_rsp0(uint64_t rsp0);

#endif
