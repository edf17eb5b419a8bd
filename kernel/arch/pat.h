#ifndef KERNEL_ARCH_PAT_H
#define KERNEL_ARCH_PAT_H

#include <stdbool.h>
#include <stdint.h>

#define MSR_IA32_PAT 0x277
#define PAT_UC	     0x00
#define PAT_WC	     0x01
#define PAT_WB	     0x06
#define PAT_UC_MINUS 0x07

void pat_init(void);
void pat_init_secondary(void); /* on an AP, after pat_init on the boot CPU */
bool pat_enabled(void);	       /* false on CPUs without PAT */
uint64_t pat_wc_flags(void);   /* PTE bits for write-combining (4 KiB pages) */

#endif
