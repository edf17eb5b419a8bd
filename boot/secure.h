/*
 * Secure Boot in the loader: the firmware (or shim) verified only this
 * image, so the kernel and initramfs it reads from the ESP are checked
 * against SHA-256 hashes sealed into it after the link (scripts/seal-loader.py).
 */
#ifndef BOOT_SECURE_H
#define BOOT_SECURE_H

#include <efi.h>

#include "boot/boot_info.h"

/* SecureBoot, SetupMode and the boot path, into bi. */
void secure_boot_state(struct boot_info *bi);

/*
 * Compares the kernel (its hash already in bi->kernel_sha256) and the
 * initramfs in memory with the sealed hashes; sets bi->image_check.
 * Returns a reason to refuse the boot (Secure Boot on and a mismatch), or NULL.
 */
const CHAR16 *secure_check_images(struct boot_info *bi);

#endif
