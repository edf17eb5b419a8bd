#ifndef KERNEL_ARCH_LAPIC_H
#define KERNEL_ARCH_LAPIC_H

#include <stdbool.h>
#include <stdint.h>

#define LAPIC_SPURIOUS_VECTOR 0xff
/* Linux's vectors (arch/x86/include/asm/irq_vectors.h) */
#define LOCAL_TIMER_VECTOR 0xec
#define RESCHEDULE_VECTOR  0xfd

/* ICR low-word fields (SDM vol. 3, "Interrupt Command Register"). */
#define APIC_DM_INIT	   0x00500
#define APIC_DM_STARTUP	   0x00600
#define APIC_INT_ASSERT	   0x04000
#define APIC_INT_LEVELTRIG 0x08000

void lapic_init(void);		 /* the boot CPU's */
void lapic_init_secondary(void); /* an AP's, on that AP */
void lapic_eoi(void);
bool lapic_present(void);
bool lapic_x2apic(void);
uint32_t lapic_id(void); /* this CPU's APIC id */
unsigned lapic_max_lvt(void);
uint32_t lapic_esr(void);
void lapic_icr_write(uint32_t low, uint32_t dest);
uint32_t lapic_wait_icr_idle(void); /* 0 once the xAPIC took the IPI */

/*
 * The APs' tick: the count per tick at `hz`, measured on the boot CPU
 * (0: no LAPIC timer), then started (periodic) or stopped on this CPU.
 */
uint32_t lapic_timer_calibrate(unsigned hz);
void lapic_timer_start(void);
void lapic_timer_stop(void);

#endif
