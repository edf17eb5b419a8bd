/*
 * The loader's half of Secure Boot: what the firmware says, who started us,
 * and whether the files we read are the ones this signed image was sealed with.
 */
#include <efi.h>
#include <efilib.h>

#include "boot/secure.h"
#include "boot/sha256.h"

/*
 * Filled in after the link by scripts/seal-loader.py, which finds the magic in
 * the PE file and overwrites the rest.  volatile: the compiler must read the
 * patched bytes, not fold the all-zero initialiser into the comparisons.
 * Lives in .data, one of the sections the objcopy to PE keeps.
 */
struct loader_seal {
	char magic[16];
	uint32_t sealed;     /* 1 once the hashes below are real */
	uint32_t has_initrd; /* 0: the image was sealed without an initramfs */
	uint8_t kernel_sha256[SHA256_DIGEST_SIZE];
	uint8_t initrd_sha256[SHA256_DIGEST_SIZE];
};

static volatile struct loader_seal seal __attribute__((used)) = {
	.magic = "ASLRBENCH-SEAL-1",
};

/* shim's protocol (rhboot/shim shim.h SHIM_LOCK_GUID); its presence means shim started us. */
static EFI_GUID shim_lock_guid = {
	0x605dab50, 0xe046, 0x4300, {0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23}};

static UINT32 global_var_u8(CHAR16 *name)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT8 v = 0;
	UINTN size = sizeof(v);

	if (EFI_ERROR(uefi_call_wrapper(RT->GetVariable, 5, name, &global, NULL, &size, &v)) ||
	    size != sizeof(v))
		return 0;
	return v;
}

void secure_boot_state(struct boot_info *bi)
{
	void *shim_lock = NULL;

	bi->secure_boot = global_var_u8(L"SecureBoot") == 1;
	bi->setup_mode = global_var_u8(L"SetupMode") == 1;
	bi->boot_path = !EFI_ERROR(LibLocateProtocol(&shim_lock_guid, &shim_lock)) && shim_lock
				? BOOT_PATH_SHIM
				: BOOT_PATH_LOADER;
}

static int same(const volatile uint8_t *sealed, const uint8_t *got)
{
	uint8_t diff = 0;

	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		diff |= sealed[i] ^ got[i];
	return diff == 0;
}

const CHAR16 *secure_check_images(struct boot_info *bi)
{
	uint8_t initrd[SHA256_DIGEST_SIZE];

	if (!seal.sealed) {
		bi->image_check = BOOT_CHECK_UNSEALED;
		return bi->secure_boot ? L"Secure Boot is on but this loader carries no kernel "
					 L"and initramfs hashes (not sealed by iso/mkimage.sh)"
				       : NULL;
	}
	if (!same(seal.kernel_sha256, bi->kernel_sha256))
		bi->image_check |= BOOT_CHECK_KERNEL_MISMATCH;
	if (seal.has_initrd != (bi->initrd_size != 0))
		bi->image_check |= BOOT_CHECK_INITRD_MISMATCH;
	else if (bi->initrd_size) {
		sha256((const void *)bi->initrd_phys, bi->initrd_size, initrd);
		if (!same(seal.initrd_sha256, initrd))
			bi->image_check |= BOOT_CHECK_INITRD_MISMATCH;
	}
	if (!bi->image_check)
		return NULL;
	if (!bi->secure_boot) {
		Print(L"aslrbench loader: warning: %s differs from the one this loader was sealed "
		      L"with (Secure Boot is off: booting anyway)\r\n",
		      bi->image_check & BOOT_CHECK_KERNEL_MISMATCH ? L"kernel.elf"
								   : L"initrd.cpio");
		return NULL;
	}
	return bi->image_check & BOOT_CHECK_KERNEL_MISMATCH
		       ? L"Secure Boot: \\aslrbench\\kernel.elf is not the kernel this signed "
			 L"loader was sealed with; refusing to start it"
		       : L"Secure Boot: \\aslrbench\\initrd.cpio is not the initramfs this signed "
			 L"loader was sealed with; refusing to start it";
}
