/*
 * The local APIC, only as far as we need it: the timer comes from the PIT
 * through the 8259 (virtual-wire mode, LINT0 = ExtINT), so the LAPIC timer
 * the firmware may have left armed is masked, and LINT0/LINT1 are set the
 * way the legacy path requires.  xAPIC (MMIO) and x2APIC (MSR) both work.
 */
#include <stdbool.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/page.h"
#include "kernel/params/param.h"

/* Linux's maxcpus=; stored: this kernel starts the boot CPU only. */
uint32_t setup_max_cpus;
param_uint(cpus, setup_max_cpus, 1, 4096, "",
	   "at most N CPUs (none: no limit); this kernel starts one");

#define REG_EOI	      0x0b0
#define REG_SVR	      0x0f0
#define REG_LVT_TMR   0x320
#define REG_LVT_LINT0 0x350
#define REG_LVT_LINT1 0x360
#define LVT_MASKED    (1u << 16)

static volatile uint32_t *mmio;
static bool x2apic;

static void lapic_write(unsigned reg, uint32_t v)
{
	if (x2apic)
		wrmsr(0x800 + (reg >> 4), v);
	else if (mmio)
		mmio[reg / 4] = v;
}

void lapic_init(void)
{
	uint32_t r[4];
	uint64_t base;

	cpuid_count(1, 0, r);
	if (!(r[3] & (1u << 9)))
		return; /* no LAPIC: the 8259 drives the CPU directly */
	base = rdmsr(MSR_APIC_BASE);
	if (!(base & (1ULL << 11)))
		return; /* globally disabled by firmware: same as above */
	x2apic = base & (1ULL << 10);
	if (!x2apic)
		mmio = phys_to_virt(base & 0xfffff000ULL);
	lapic_write(REG_SVR, 0x100 | LAPIC_SPURIOUS_VECTOR);
	lapic_write(REG_LVT_TMR, LVT_MASKED);
	lapic_write(REG_LVT_LINT0, 0x700); /* ExtINT: the 8259's interrupts */
	lapic_write(REG_LVT_LINT1, 0x400); /* NMI */
}

void lapic_eoi(void)
{
	lapic_write(REG_EOI, 0);
}
