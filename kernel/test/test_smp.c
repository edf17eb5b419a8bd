/*
 * SMP bring-up's failure path and a late start (kernel/arch/smpboot.c).
 * Explicit only (suite=smp_cpu_up, the smp-cpu-up boot): the absent CPU
 * costs the 10 s wait for an AP that never answers.
 */
#include "kernel/arch/acpi.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/page.h"
#include "kernel/arch/smpboot.h"
#include "kernel/arch/tsc.h"
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
	return KTEST_PASS;
}
KTEST_EXPLICIT(smp_cpu_up);
