#ifndef KERNEL_FS_INITRAMFS_H
#define KERNEL_FS_INITRAMFS_H

#include <stddef.h>

/*
 * Unpacks a newc cpio archive (may be NULL) into the ramfs root and adds
 * /dev, /tmp and /proc.  Entries unpacked, or -1 after printing the error.
 */
long initramfs_unpack(const void *archive, size_t len);

#endif
