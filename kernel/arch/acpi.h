#ifndef KERNEL_ARCH_ACPI_H
#define KERNEL_ARCH_ACPI_H

#include <stdint.h>

#include "kernel/arch/percpu.h"

/*
 * What the firmware's ACPI tables say that the benchmark reports or uses:
 * how many CPUs exist and their APIC ids (MADT) and where the serial
 * console is (SPCR).  All fields stay 0 when a table is absent or fails its
 * checks.
 */
#define ACPI_MAX_CPUS NR_CPUS /* the MADT entries kept: as many as may start */

struct acpi_facts {
	uint32_t cpus_present; /* enabled or online-capable local (x2)APICs */
	uint32_t nr_apic_ids;  /* the enabled ones, listed below (boot CPU included) */
	uint32_t apic_ids[ACPI_MAX_CPUS];
	uint16_t spcr_port; /* an I/O-port 16550 named by SPCR */
	uint8_t spcr_found;
};

void acpi_init(uint64_t rsdp_phys);
extern struct acpi_facts acpi_facts;

#endif
