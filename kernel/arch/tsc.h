#ifndef KERNEL_ARCH_TSC_H
#define KERNEL_ARCH_TSC_H

#include <stdint.h>

/* Frequency from CPUID 15h/16h when it says, else measured against the PIT. */
void tsc_init(void);
uint64_t tsc_hz(void);
const char *tsc_source(void); /* "cpuid15", "cpuid16", "hypervisor" or "pit" */
uint64_t tsc_to_ns(uint64_t cycles);
/* The clock of the time system calls and the vDSO (kernel/uapi/vvar.h's formula). */
uint64_t ktime_get_ns(void);
void tsc_clock_params(uint64_t *mult, uint32_t *shift);

#endif
