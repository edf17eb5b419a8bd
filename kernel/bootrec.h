#ifndef KERNEL_BOOTREC_H
#define KERNEL_BOOTREC_H

/* Prints the "@@ {"type":"boot",...}" record: the machine and the settings of this run. */
void emit_boot_record(void);

#endif
