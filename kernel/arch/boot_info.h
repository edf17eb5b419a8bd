#ifndef KERNEL_ARCH_BOOT_INFO_H
#define KERNEL_ARCH_BOOT_INFO_H

#include "boot/boot_info.h"

/* The loader's boot_info, copied into the kernel before the identity map goes. */
extern struct boot_info boot_info_copy;

#endif
