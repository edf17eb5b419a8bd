#ifndef KERNEL_INIT_BOOT_RECORD_H
#define KERNEL_INIT_BOOT_RECORD_H

/* Prints the "@@ {"type":"boot",...}" record: the machine and the settings of this run. */
void emit_boot_record(void);

#endif
