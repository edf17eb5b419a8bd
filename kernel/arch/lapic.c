/*
 * The local APIC, only as far as we need it: the timer comes from the PIT
 * through the 8259 (virtual-wire mode, LINT0 = ExtINT), so the LAPIC timer
 * the firmware may have left armed is masked, and LINT0/LINT1 are set the
 * way the legacy path requires.  xAPIC (MMIO) and x2APIC (MSR) both work.
 *
 * The APs' ticks: each AP's LAPIC timer, periodic at HZ, its period
 * measured once against the TSC on the boot CPU (Linux's
 * calibrate_APIC_clock, and lapic_timer_period shared by every CPU).  The
 * boot CPU keeps the PIT.
 *
 * The other CPUs: interprocessor interrupts through the ICR (INIT and
 * STARTUP for smpboot.c), and each AP's own LAPIC set up with every local
 * interrupt masked, so that the PIT's ticks and the NMI line reach the boot
 * CPU only (Linux 6.6's setup_local_APIC masks LINT0/LINT1 on APs too).
 */
#include <stdbool.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/lapic.h"
#include "kernel/arch/page.h"
#include "kernel/arch/tsc.h"

#define REG_ID	      0x020
#define REG_VERSION   0x030
#define REG_EOI	      0x0b0
#define REG_SVR	      0x0f0
#define REG_ESR	      0x280
#define REG_ICR_LOW   0x300
#define REG_ICR_HIGH  0x310
#define REG_LVT_TMR   0x320
#define REG_LVT_PERF  0x340
#define REG_LVT_LINT0 0x350
#define REG_LVT_LINT1 0x360
#define REG_LVT_ERROR 0x370
#define REG_TMICT     0x380 /* the timer's initial count */
#define REG_TMCCT     0x390 /* its current count */
#define REG_TDCR      0x3e0 /* its divide configuration */
#define TDCR_DIV_16   0x3
#define LVT_PERIODIC  (1u << 17)
#define LVT_MASKED    (1u << 16)
#define ICR_BUSY      (1u << 12) /* xAPIC delivery status; x2APIC has none */

#define APIC_BASE_EXTD (1ULL << 10) /* x2APIC mode */
#define APIC_BASE_EN   (1ULL << 11)

static volatile uint32_t *mmio;
static bool x2apic, present;
static uint32_t timer_period; /* bus clocks / 16 per tick, 0 until calibrated */

static void lapic_write(unsigned reg, uint32_t v)
{
	if (x2apic)
		wrmsr(0x800 + (reg >> 4), v);
	else if (mmio)
		mmio[reg / 4] = v;
}

static uint32_t lapic_read(unsigned reg)
{
	if (x2apic)
		return (uint32_t)rdmsr(0x800 + (reg >> 4));
	return mmio ? mmio[reg / 4] : 0;
}

void lapic_init(void)
{
	uint32_t r[4];
	uint64_t base;

	cpuid_count(1, 0, r);
	if (!(r[3] & (1u << 9)))
		return; /* no LAPIC: the 8259 drives the CPU directly */
	base = rdmsr(MSR_APIC_BASE);
	if (!(base & APIC_BASE_EN))
		return; /* globally disabled by firmware: same as above */
	x2apic = base & APIC_BASE_EXTD;
	if (!x2apic)
		mmio = phys_to_virt(base & 0xfffff000ULL);
	present = true;
	lapic_write(REG_SVR, 0x100 | LAPIC_SPURIOUS_VECTOR);
	lapic_write(REG_LVT_TMR, LVT_MASKED);
	lapic_write(REG_LVT_LINT0, 0x700); /* ExtINT: the 8259's interrupts */
	lapic_write(REG_LVT_LINT1, 0x400); /* NMI */
}

/*
 * An AP's LAPIC: in the boot CPU's mode (an AP of a firmware that left
 * x2APIC on may still be in xAPIC mode after INIT; one ICR format must
 * reach every CPU), software-enabled, every local interrupt masked.
 */
void lapic_init_secondary(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	if (x2apic && (base & (APIC_BASE_EN | APIC_BASE_EXTD)) != (APIC_BASE_EN | APIC_BASE_EXTD))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
	lapic_write(REG_SVR, 0x100 | LAPIC_SPURIOUS_VECTOR);
	lapic_write(REG_LVT_TMR, LVT_MASKED);
	lapic_write(REG_LVT_LINT0, LVT_MASKED);
	lapic_write(REG_LVT_LINT1, LVT_MASKED);
	lapic_write(REG_LVT_ERROR, LVT_MASKED);
	if (lapic_max_lvt() >= 4)
		lapic_write(REG_LVT_PERF, LVT_MASKED);
}

void lapic_eoi(void)
{
	lapic_write(REG_EOI, 0);
}

bool lapic_present(void)
{
	return present;
}

bool lapic_x2apic(void)
{
	return x2apic;
}

uint32_t lapic_id(void)
{
	return x2apic ? lapic_read(REG_ID) : lapic_read(REG_ID) >> 24;
}

unsigned lapic_max_lvt(void)
{
	return (lapic_read(REG_VERSION) >> 16) & 0xff;
}

/* Linux's "be paranoid about clearing APIC errors": write, then read, the ESR. */
uint32_t lapic_esr(void)
{
	if (lapic_max_lvt() > 3) /* Pentium erratum 3AP */
		lapic_write(REG_ESR, 0);
	return lapic_read(REG_ESR);
}

/* Linux's apic_icr_write: an IPI with ICR low word `low` to APIC id `dest`. */
void lapic_icr_write(uint32_t low, uint32_t dest)
{
	if (x2apic)
		wrmsr(0x830, ((uint64_t)dest << 32) | low); /* one 64-bit ICR */
	else if (mmio) {
		lapic_write(REG_ICR_HIGH, dest << 24);
		lapic_write(REG_ICR_LOW, low);
	}
}

/*
 * Linux's safe_apic_wait_icr_idle: waits (at most 100 ms) for the xAPIC
 * to take the last IPI for delivery.  0, or the ICR's busy bit when it
 * stayed set.  An x2APIC has no busy bit: its ICR write is the send.
 */
uint32_t lapic_wait_icr_idle(void)
{
	uint64_t start = rdtsc(), limit = tsc_hz() / 10;

	if (x2apic || !mmio)
		return 0;
	while (lapic_read(REG_ICR_LOW) & ICR_BUSY) {
		if (rdtsc() - start > limit)
			return ICR_BUSY;
		cpu_relax();
	}
	return 0;
}

/* The LAPIC timer's count per tick at `hz`, measured over 5 ms of TSC; 0 if none. */
uint32_t lapic_timer_calibrate(unsigned hz)
{
	uint64_t start, wait = tsc_hz() / 200, counted;

	if (!present || !hz || !wait)
		return 0;
	lapic_write(REG_LVT_TMR, LVT_MASKED);
	lapic_write(REG_TDCR, TDCR_DIV_16);
	lapic_write(REG_TMICT, 0xffffffffu);
	start = rdtsc();
	while (rdtsc() - start < wait)
		cpu_relax();
	counted = 0xffffffffu - lapic_read(REG_TMCCT);
	lapic_write(REG_TMICT, 0);
	timer_period = (uint32_t)(counted * 200 / hz);
	return timer_period;
}

void lapic_timer_start(void)
{
	if (!timer_period)
		return;
	lapic_write(REG_TDCR, TDCR_DIV_16);
	lapic_write(REG_LVT_TMR, LOCAL_TIMER_VECTOR | LVT_PERIODIC);
	lapic_write(REG_TMICT, timer_period);
}

void lapic_timer_stop(void)
{
	lapic_write(REG_LVT_TMR, LVT_MASKED);
	lapic_write(REG_TMICT, 0);
}
