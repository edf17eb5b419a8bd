#ifndef KERNEL_ARCH_IDT_H
#define KERNEL_ARCH_IDT_H

void idt_init(void);
void idt_load(void); /* on an AP: the IDT idt_init built */

#endif
