/*
 * Work for the APs: a function run on one CPU at the caller's request, as
 * Linux's smp_call_function_single() (what the scale benchmark runs), the
 * reschedule IPI, and the APs' start in the scheduler.
 */
#ifndef KERNEL_ARCH_SMP_H
#define KERNEL_ARCH_SMP_H

#include <stdbool.h>
#include <stdint.h>

/* Linux's CALL_FUNCTION_SINGLE_VECTOR (arch/x86/include/asm/irq_vectors.h) */
#define CALL_FUNCTION_SINGLE_VECTOR 0xfb

typedef void (*smp_call_func_t)(void *info);

/* Installs the IPI's handler: once, on the boot CPU, before any AP starts. */
void smp_call_init(void);

/*
 * Runs func(info) on CPU `cpu` (1 .. smp_cpus_online - 1) with its
 * interrupts off, and returns at once: 0, -EINVAL for a CPU that is not an
 * online AP, -EBUSY when that CPU still runs an earlier call.
 */
int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info);

/*
 * Waits for CPU `cpu`'s call to return: true, or false after `cycles` TSC
 * cycles.  The kernel lock is given up while it waits.
 */
bool smp_call_wait(unsigned int cpu, uint64_t cycles);

/* Where an AP waits, halted, until smp_start_aps(); calls reach it meanwhile. */
__attribute__((noreturn)) void smp_ap_idle(void);
/* Every AP calls start() (which does not return): the scheduler takes them. */
void smp_start_aps(void (*start)(void));
/* Linux's smp_send_reschedule: an IPI that ends CPU `cpu`'s halt or user mode. */
void smp_send_reschedule(unsigned int cpu);

#endif
