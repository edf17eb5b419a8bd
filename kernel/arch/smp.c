/*
 * Cross-CPU calls: one mailbox per CPU and an IPI to wake it.
 *
 * Why this shape: an AP idles in "sti; hlt" (Linux's safe_halt), so it
 * costs the host nothing while there is no work, and an IPI on
 * CALL_FUNCTION_SINGLE_VECTOR wakes it.  The handler only acknowledges the
 * interrupt; the AP's idle loop then finds the function in its mailbox
 * and runs it with interrupts off, outside interrupt context, so a long
 * benchmark loop is not a handler.  Linux 6.6 (kernel/smp.c) queues
 * call_single_data on a per-CPU llist and runs it from the IPI handler;
 * one slot per CPU is enough here, as each CPU gets one call at a time.
 */
#include <stddef.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/traps.h"
#include "kernel/lib/errno.h"

static struct call_single_data {
	smp_call_func_t func; /* set by the caller, cleared by the CPU when func returned */
	void *info;
} __attribute__((aligned(64))) csd[NR_CPUS];

static void call_function_single_interrupt(struct trap_frame *f)
{
	(void)f;
	lapic_eoi(); /* the idle loop does the work */
}

void smp_call_init(void)
{
	irq_register(CALL_FUNCTION_SINGLE_VECTOR, call_function_single_interrupt);
}

int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info)
{
	struct call_single_data *c;

	if (!func || cpu == 0 || cpu >= smp_cpus_online || cpu >= NR_CPUS)
		return -EINVAL;
	c = &csd[cpu];
	if (__atomic_load_n(&c->func, __ATOMIC_ACQUIRE))
		return -EBUSY;
	c->info = info;
	__atomic_store_n(&c->func, func, __ATOMIC_RELEASE);
	lapic_icr_write(CALL_FUNCTION_SINGLE_VECTOR, smp_cpu_apicid(cpu)); /* fixed, physical */
	return 0;
}

bool smp_call_wait(unsigned int cpu, uint64_t cycles)
{
	uint64_t start = rdtsc();

	if (cpu >= NR_CPUS)
		return false;
	while (__atomic_load_n(&csd[cpu].func, __ATOMIC_ACQUIRE)) {
		if (rdtsc() - start > cycles)
			return false;
		cpu_relax();
	}
	return true;
}

void smp_ap_idle(unsigned int cpu)
{
	struct call_single_data *c = &csd[cpu];

	for (;;) {
		smp_call_func_t func;

		irq_disable();
		func = __atomic_load_n(&c->func, __ATOMIC_ACQUIRE);
		if (func) {
			func(c->info);
			__atomic_store_n(&c->func, (smp_call_func_t)0, __ATOMIC_RELEASE);
			continue;
		}
		/* an IPI that came after the load is taken right after sti and ends the hlt */
		__asm__ volatile("sti\n\thlt" ::: "memory");
	}
}
