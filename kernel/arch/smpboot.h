#ifndef KERNEL_ARCH_SMPBOOT_H
#define KERNEL_ARCH_SMPBOOT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Contiguous, zeroed or not, kernel-virtual memory of `pages` 4 KiB pages,
 * or NULL: the memory manager's, passed down by the caller (arch/ sits
 * below mm/).
 */
typedef void *(*smp_alloc_fn)(unsigned pages);

/*
 * Starts the APs the MADT lists (at most cpus=/nr_cpus= CPUs in all),
 * checks each one's TSC against the boot CPU's and parks it.  Needs the
 * TSC's rate (tsc_init) and the kernel's page tables.  Returns
 * smp_cpus_online.
 */
unsigned smp_boot_cpus(smp_alloc_fn alloc);

/*
 * Starts one more AP after boot (a CPU cpus= held back), by APIC id, the
 * same way; true when it checked in.  false for a CPU already online, and
 * when it did not start (reported, counted in smp_cpus_failed).
 */
bool smp_boot_apic(uint32_t apicid, smp_alloc_fn alloc);
bool smp_apic_online(uint32_t apicid);
uint32_t smp_cpu_apicid(unsigned int cpu); /* CPU number (0: the boot CPU) to APIC id */
struct percpu;
struct percpu *smp_percpu(unsigned int cpu); /* an online CPU's block, NULL for another */

extern unsigned smp_cpus_online;  /* the boot CPU and every AP that checked in */
extern unsigned smp_cpus_failed;  /* APs that were to start and did not */
extern bool smp_tsc_checked;	  /* at least one AP ran the warp test */
extern uint64_t smp_tsc_max_warp; /* the largest warp seen, TSC cycles */

#endif
