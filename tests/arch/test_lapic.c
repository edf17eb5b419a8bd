/*
 * Host unit test of kernel/arch/lapic.c in both of the local APIC's modes.
 *
 * Why: QEMU 7.2's TCG has no x2APIC, so no boot of make test takes the
 * x2APIC paths, yet real PCs whose firmware left x2APIC on (many with more
 * than 255 CPUs or with VT-d interrupt remapping) boot only through them:
 * a wrong MSR number or ICR layout there would stop every AP.  The real
 * lapic.c is linked against tests/arch/shim/kernel/arch/cpu.h, whose
 * rdmsr/wrmsr/cpuid are this file's: an MSR file, and a 4 KiB xAPIC page
 * for phys_to_virt.  Each test runs in its own process (Check's fork
 * mode), so lapic.c's mode starts unset every time.
 *
 * The expected values are the Intel SDM's (vol. 3A, 11.12 "Extended XAPIC
 * (x2APIC)"): register R at MSR 0x800 + R/16, the ICR one 64-bit MSR 0x830
 * with the destination in bits 63:32, a 32-bit APIC id at MSR 0x802, no
 * delivery-status bit, a nonzero EOI or ESR write a #GP; and in xAPIC mode
 * the id in bits 31:24 and the destination in the ICR's high word, bits
 * 31:24.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernel/arch/cpu.h" /* the shim */
#include "kernel/arch/lapic.h"
#include "kernel/arch/page.h"
#include "kernel/arch/tsc.h"
#include "tests/lib/tap_check.h"

#define APIC_PHYS 0xfee00000ULL
#define BASE_EN	  (1ULL << 11)
#define BASE_EXTD (1ULL << 10)

/* ---- the machine the shim serves ---- */

#define NR_MSRS 0x900
static uint64_t msrs[NR_MSRS];
static bool msr_written[NR_MSRS];
static unsigned nr_wrmsr;
static uint32_t xapic_page[1024]; /* the MMIO page, 32-bit registers */
static unsigned nr_phys_to_virt;
static bool has_lapic = true;
static uint64_t tsc;

uint64_t rdmsr(uint32_t msr)
{
	ck_assert_uint_lt(msr, NR_MSRS);
	return msrs[msr];
}

void wrmsr(uint32_t msr, uint64_t v)
{
	ck_assert_uint_lt(msr, NR_MSRS);
	msrs[msr] = v;
	msr_written[msr] = true;
	nr_wrmsr++;
}

void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	(void)sub;
	memset(r, 0, 4 * sizeof(r[0]));
	if (leaf == 1 && has_lapic)
		r[3] = 1u << 9; /* EDX.APIC */
}

uint64_t rdtsc(void)
{
	return tsc += 10;
}

void cpu_relax(void)
{
}

void *phys_to_virt(uint64_t phys)
{
	ck_assert_uint_eq(phys, APIC_PHYS);
	nr_phys_to_virt++;
	return xapic_page;
}

uint64_t tsc_hz(void)
{
	return 1000000; /* lapic_wait_icr_idle's 100 ms: 100,000 ticks */
}

static uint64_t x2apic_reg(unsigned reg)
{
	ck_assert_msg(msr_written[0x800 + reg / 16], "x2APIC register %#x never written", reg);
	return msrs[0x800 + reg / 16];
}

/* ---- the firmware left x2APIC on ---- */

START_TEST(x2apic_boot_cpu)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN | BASE_EXTD;
	msrs[0x803] = 5u << 16; /* version: max LVT 5 */
	lapic_init();
	ck_assert(lapic_present());
	ck_assert(lapic_x2apic());
	ck_assert_uint_eq(nr_phys_to_virt, 0); /* no MMIO in x2APIC mode: it would fault */
	ck_assert_uint_eq(x2apic_reg(0x0f0), 0x100 | LAPIC_SPURIOUS_VECTOR); /* SVR: enabled */
	ck_assert_uint_eq(x2apic_reg(0x320) & (1u << 16), 1u << 16);	     /* timer masked */
	ck_assert_uint_eq(x2apic_reg(0x350), 0x700);			     /* LINT0 ExtINT */
	ck_assert_uint_eq(x2apic_reg(0x360), 0x400);			     /* LINT1 NMI */
	ck_assert_uint_eq(msrs[MSR_APIC_BASE], APIC_PHYS | BASE_EN | BASE_EXTD);
}
END_TEST

START_TEST(x2apic_id_is_32_bits)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN | BASE_EXTD;
	msrs[0x802] = 0x12345; /* past the xAPIC's 8 bits */
	lapic_init();
	ck_assert_uint_eq(lapic_id(), 0x12345);
}
END_TEST

START_TEST(x2apic_ipi_eoi_esr)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN | BASE_EXTD;
	msrs[0x803] = 5u << 16;
	lapic_init();
	nr_wrmsr = 0;
	lapic_icr_write(APIC_DM_INIT | APIC_INT_ASSERT | APIC_INT_LEVELTRIG, 0x12345);
	ck_assert_uint_eq(nr_wrmsr, 1); /* one write is the send */
	ck_assert_uint_eq(msrs[0x830], (0x12345ULL << 32) | 0xc500);
	msrs[0x830] = 1u << 12; /* a stray busy bit: x2APIC has none to wait for */
	ck_assert_uint_eq(lapic_wait_icr_idle(), 0);
	lapic_eoi();
	ck_assert(msr_written[0x80b]);
	ck_assert_uint_eq(msrs[0x80b], 0); /* a nonzero EOI write is a #GP in x2APIC mode */
	msrs[0x828] = 0x40;
	ck_assert_uint_eq(lapic_esr(), 0); /* written with 0 (clears it), then read */
	ck_assert(msr_written[0x828]);
}
END_TEST

/* An AP still in xAPIC mode after INIT while the boot CPU is in x2APIC: it switches. */
START_TEST(x2apic_ap_follows_boot_cpu)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN | BASE_EXTD;
	lapic_init();
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN; /* the AP's own MSR */
	msrs[0x803] = 5u << 16;
	lapic_init_secondary();
	ck_assert_uint_eq(msrs[MSR_APIC_BASE], APIC_PHYS | BASE_EN | BASE_EXTD);
	ck_assert_uint_eq(nr_phys_to_virt, 0);
	ck_assert_uint_eq(x2apic_reg(0x350), 1u << 16); /* an AP's LINT0 masked */
	ck_assert_uint_eq(x2apic_reg(0x360), 1u << 16);
	ck_assert_uint_eq(x2apic_reg(0x370), 1u << 16);
	ck_assert_uint_eq(x2apic_reg(0x340), 1u << 16); /* max LVT 5: the perf LVT exists */
}
END_TEST

/* ---- xAPIC, as QEMU and most firmware leave it ---- */

START_TEST(xapic_boot_cpu)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN;
	xapic_page[0x20 / 4] = 3u << 24;
	lapic_init();
	ck_assert(lapic_present());
	ck_assert(!lapic_x2apic());
	ck_assert_uint_eq(nr_phys_to_virt, 1);
	ck_assert_uint_eq(nr_wrmsr, 0);
	ck_assert_uint_eq(xapic_page[0xf0 / 4], 0x100 | LAPIC_SPURIOUS_VECTOR);
	ck_assert_uint_eq(xapic_page[0x350 / 4], 0x700);
	ck_assert_uint_eq(lapic_id(), 3);
}
END_TEST

START_TEST(xapic_ipi)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN;
	lapic_init();
	lapic_icr_write(APIC_DM_STARTUP | 0x08, 7);
	ck_assert_uint_eq(xapic_page[0x310 / 4], 7u << 24);
	ck_assert_uint_eq(xapic_page[0x300 / 4], APIC_DM_STARTUP | 0x08);
	ck_assert_uint_eq(nr_wrmsr, 0);
}
END_TEST

/* A busy bit that never clears: the wait gives up after 100 ms of TSC and says so. */
START_TEST(xapic_icr_stuck)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN;
	lapic_init();
	xapic_page[0x300 / 4] = 1u << 12;
	ck_assert_uint_eq(lapic_wait_icr_idle(), 1u << 12);
	ck_assert_uint_ge(tsc, tsc_hz() / 10);
	xapic_page[0x300 / 4] = 0;
	ck_assert_uint_eq(lapic_wait_icr_idle(), 0);
}
END_TEST

/* ---- no usable LAPIC: nothing is touched ---- */

START_TEST(disabled_by_firmware)
{
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EXTD; /* EN clear */
	lapic_init();
	ck_assert(!lapic_present());
	ck_assert(!lapic_x2apic());
	ck_assert_uint_eq(nr_wrmsr + nr_phys_to_virt, 0);
	lapic_eoi();
	lapic_icr_write(APIC_DM_INIT, 1);
	ck_assert_uint_eq(nr_wrmsr, 0);
	ck_assert_uint_eq(lapic_timer_calibrate(1000), 0);
}
END_TEST

START_TEST(no_lapic_in_cpuid)
{
	has_lapic = false;
	msrs[MSR_APIC_BASE] = APIC_PHYS | BASE_EN | BASE_EXTD;
	lapic_init();
	ck_assert(!lapic_present());
	ck_assert_uint_eq(nr_wrmsr + nr_phys_to_virt, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lapic");
	TCase *tc = tcase_create("modes");

	tcase_add_test(tc, x2apic_boot_cpu);
	tcase_add_test(tc, x2apic_id_is_32_bits);
	tcase_add_test(tc, x2apic_ipi_eoi_esr);
	tcase_add_test(tc, x2apic_ap_follows_boot_cpu);
	tcase_add_test(tc, xapic_boot_cpu);
	tcase_add_test(tc, xapic_ipi);
	tcase_add_test(tc, xapic_icr_stuck);
	tcase_add_test(tc, disabled_by_firmware);
	tcase_add_test(tc, no_lapic_in_cpuid);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
