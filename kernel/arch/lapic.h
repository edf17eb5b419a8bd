#ifndef KERNEL_ARCH_LAPIC_H
#define KERNEL_ARCH_LAPIC_H

#define LAPIC_SPURIOUS_VECTOR 0xff

void lapic_init(void);
void lapic_eoi(void);

#endif
