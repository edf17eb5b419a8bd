#ifndef KERNEL_ARCH_IDT_H
#define KERNEL_ARCH_IDT_H

void idt_init(void);

#endif
