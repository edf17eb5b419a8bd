/*
 * QEMU's firmware configuration device (fw_cfg, I/O ports 0x510/0x511):
 * how the host hands the guest a named file, e.g. run-qemu.sh's
 * "opt/aslrbench/screen-hold-ms".  QEMU's qemu/docs/specs/fw_cfg.rst.
 */
#ifndef KERNEL_ARCH_FW_CFG_H
#define KERNEL_ARCH_FW_CFG_H

#include <stddef.h>

/*
 * Reads up to cap bytes of the named file into buf: the bytes read, or -1
 * when there is no fw_cfg (probed only under a hypervisor, never on a real
 * PC's ports) or no such file.
 */
long fw_cfg_read_file(const char *name, void *buf, size_t cap);

#endif
