#ifndef KERNEL_ARCH_FW_CFG_H
#define KERNEL_ARCH_FW_CFG_H

#include <stddef.h>

/*
 * Reads QEMU's fw_cfg file NAME (e.g. "opt/aslrbench/host", given with
 * `-fw_cfg name=...,string=...`) into buf as a NUL-terminated string, cut at
 * len - 1 bytes.  Returns the bytes stored, or -1 without a hypervisor, without
 * fw_cfg or without the file: ports 0x510/0x511 are never touched on bare metal.
 */
int fw_cfg_read_file(const char *name, char *buf, size_t len);

#endif
