/*
 * The host test's kernel/arch/cpu.h (tests/arch/test_lapic.c): found before
 * the real one by the test's -I order, so the real kernel/arch/lapic.c runs
 * on the host with its MSRs, CPUID and TSC served by the test instead of by
 * instructions a user process may not execute.  Only what lapic.c uses.
 */
#ifndef KERNEL_ARCH_CPU_H
#define KERNEL_ARCH_CPU_H

#include <stdint.h>

#define MSR_APIC_BASE 0x1b

uint64_t rdmsr(uint32_t msr);
void wrmsr(uint32_t msr, uint64_t v);
void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t r[4]);
uint64_t rdtsc(void);
void cpu_relax(void);

#endif
