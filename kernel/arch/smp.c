/*
 * Cross-CPU calls: one mailbox per CPU and an IPI that runs it.
 *
 * As Linux 6.6 (linux/kernel/smp.c), the function runs from the IPI's handler,
 * with interrupts off, on whatever the CPU was doing: idle, or a task in
 * user or kernel mode.  Linux queues call_single_data on a per-CPU llist;
 * one slot per CPU is enough here, as each CPU gets one call at a time.
 * The caller waits without the kernel lock (smp_call_wait), because the
 * target may be spinning for it with interrupts off.
 *
 * Before the scheduler runs tasks on them, the APs wait here, halted
 * (smp_ap_idle), for calls and for the moment they join it.
 */
#include <stddef.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/kernel_lock.h"
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

static void (*ap_start_hook)(void);

static void call_function_single_interrupt(struct trap_frame *f)
{
	struct call_single_data *c = &csd[smp_processor_id()];
	smp_call_func_t func = __atomic_load_n(&c->func, __ATOMIC_ACQUIRE);

	(void)f;
	lapic_eoi();
	if (func) {
		func(c->info);
		__atomic_store_n(&c->func, (smp_call_func_t)0, __ATOMIC_RELEASE);
	}
}

void smp_call_init(void)
{
	irq_register_percpu(CALL_FUNCTION_SINGLE_VECTOR, call_function_single_interrupt);
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
	bool held, done = true;

	if (cpu >= NR_CPUS)
		return false;
	held = release_kernel_lock();
	while (__atomic_load_n(&csd[cpu].func, __ATOMIC_ACQUIRE)) {
		if (rdtsc() - start > cycles) {
			done = false;
			break;
		}
		cpu_relax();
	}
	reacquire_kernel_lock(held);
	return done;
}

void smp_start_aps(void (*start)(void))
{
	__atomic_store_n(&ap_start_hook, start, __ATOMIC_RELEASE);
	for (unsigned int cpu = 1; cpu < smp_cpus_online; cpu++)
		lapic_icr_write(CALL_FUNCTION_SINGLE_VECTOR, smp_cpu_apicid(cpu));
}

void smp_send_reschedule(unsigned int cpu)
{
	if (cpu < smp_cpus_online && cpu != smp_processor_id())
		lapic_icr_write(RESCHEDULE_VECTOR, smp_cpu_apicid(cpu));
}

void smp_ap_idle(void)
{
	for (;;) {
		void (*start)(void);

		irq_disable();
		start = __atomic_load_n(&ap_start_hook, __ATOMIC_ACQUIRE);
		if (start)
			start(); /* never returns: the scheduler's idle loop */
		/* an IPI that came after the load is taken right after sti and ends the hlt */
		__asm__ volatile("sti\n\thlt" ::: "memory");
	}
}
