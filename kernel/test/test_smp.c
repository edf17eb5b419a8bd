/*
 * SMP: cross-CPU calls (kernel/arch/smp.c) on every AP, and bring-up's
 * failure path and a late start (kernel/arch/smpboot.c).  The latter is
 * explicit only (suite=smp_cpu_up, the smp-cpu-up boot): the absent CPU
 * costs the 10 s wait for an AP that never answers.
 */
#include "kernel/arch/acpi.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/page.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/smp.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/pmm.h"
#include "kernel/test/ktest.h"

static void *alloc_pages(unsigned pages)
{
	uint64_t p = pmm_alloc_pages(pages);

	return p ? phys_to_virt(p) : 0;
}

/*
 * An APIC id no CPU has: the STARTUP IPI reaches nobody, so the wait for
 * the AP times out, it is reported and skipped, and the kernel goes on
 * with cpus_online as it was.  Then a CPU the MADT lists that cpus= held
 * back starts now as it would have at boot (checked, parked).
 */
/* ---- cross-CPU calls ---------------------------------------------------------- */
static uint32_t ran_on[NR_CPUS];
static uint32_t release;

static void note_cpu(void *info)
{
	uint32_t *slot = info;

	*slot = smp_processor_id() + 1;
}

static void hold_until_released(void *info)
{
	(void)info;
	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
		cpu_relax();
}

/* Every AP runs the call it is sent, on itself; CPU numbers out of range are refused. */
static enum ktest_result call_on_cpu(struct ktest_ctx *t, unsigned int cpu)
{
	ran_on[cpu] = 0;
	if (smp_call_function_single(cpu, note_cpu, &ran_on[cpu]))
		return ktest_fail(t, "CPU %u refused the call", cpu);
	if (!smp_call_wait(cpu, tsc_hz() * 5))
		return ktest_fail(t, "CPU %u did not run the call in 5 s", cpu);
	if (ran_on[cpu] != cpu + 1)
		return ktest_fail(t, "the call for CPU %u ran on CPU %d", cpu,
				  (int)ran_on[cpu] - 1);
	return KTEST_PASS;
}

static enum ktest_result smp_call_function(struct ktest_ctx *t)
{
	if (smp_call_function_single(0, note_cpu, &ran_on[0]) != -EINVAL ||
	    smp_call_function_single(smp_cpus_online, note_cpu, &ran_on[0]) != -EINVAL ||
	    smp_call_function_single(NR_CPUS + 5, note_cpu, &ran_on[0]) != -EINVAL)
		return ktest_fail(t, "a call for CPU 0 or past the online CPUs was accepted");
	if (smp_cpus_online < 2)
		return ktest_skip(t, "one CPU online: boot with --smp 2 or more");
	if (smp_call_function_single(1, 0, 0) != -EINVAL)
		return ktest_fail(t, "a call without a function was accepted");
	for (unsigned int cpu = 1; cpu < smp_cpus_online; cpu++)
		if (call_on_cpu(t, cpu) != KTEST_PASS)
			return KTEST_FAIL;
	/* a CPU still running a call takes no other */
	release = 0;
	if (smp_call_function_single(1, hold_until_released, 0))
		return ktest_fail(t, "CPU 1 refused the holding call");
	if (smp_call_function_single(1, note_cpu, &ran_on[1]) != -EBUSY) {
		__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
		return ktest_fail(t, "a second call for a busy CPU was not refused with EBUSY");
	}
	if (smp_call_wait(1, tsc_hz() / 100))
		return ktest_fail(t, "the holding call returned before it was released");
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	if (!smp_call_wait(1, tsc_hz() * 5))
		return ktest_fail(t, "CPU 1 did not return from the released call");
	return call_on_cpu(t, 1);
}
KTEST(smp_call_function);

static enum ktest_result smp_cpu_up(struct ktest_ctx *t)
{
	uint32_t absent = 0, held = 0xffffffff, online = smp_cpus_online, failed = smp_cpus_failed;
	uint64_t t0;

	if (acpi_facts.nr_apic_ids < 2)
		return ktest_skip(t, "one CPU in the MADT");
	for (uint32_t i = 0; i < acpi_facts.nr_apic_ids; i++) {
		uint32_t id = acpi_facts.apic_ids[i];

		if (id >= absent)
			absent = id + 1;
		if (held == 0xffffffff && !smp_apic_online(id))
			held = id;
	}
	if (absent > 0xfe)
		return ktest_skip(t, "no free xAPIC id below 0xff");
	t0 = rdtsc();
	if (smp_boot_apic(absent, alloc_pages))
		return ktest_fail(t, "APIC id %u, which no CPU has, checked in", absent);
	if (rdtsc() - t0 < tsc_hz() * 9)
		return ktest_fail(t, "gave up on APIC id %u after %lu cycles, before the 10 s wait",
				  absent, rdtsc() - t0);
	if (smp_cpus_online != online || smp_cpus_failed != failed + 1)
		return ktest_fail(t, "online %u -> %u, failed %u -> %u", online, smp_cpus_online,
				  failed, smp_cpus_failed);
	if (held == 0xffffffff)
		return ktest_skip(t, "every CPU is online: boot with cpus=N to hold one back");
	if (!smp_boot_apic(held, alloc_pages) || smp_cpus_online != online + 1 ||
	    !smp_apic_online(held))
		return ktest_fail(t, "APIC id %u, held back by cpus=, did not start (online %u)",
				  held, smp_cpus_online);
	if (smp_boot_apic(held, alloc_pages))
		return ktest_fail(t, "APIC id %u started twice", held);
	return call_on_cpu(t, smp_cpus_online - 1); /* the late CPU idles as the others */
}
KTEST_EXPLICIT(smp_cpu_up);
