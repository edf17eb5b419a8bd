/*
 * The boot ABI: the one structure the UEFI loader hands to the kernel.
 *
 * Why versioned: the loader and the kernel are built together today, but a
 * stick written last year must fail loudly with a newer kernel rather than
 * misread fields.  The kernel checks magic, version and size before use.
 * Only fixed-width types, so both sides agree byte for byte.
 */
#ifndef BOOT_BOOT_INFO_H
#define BOOT_BOOT_INFO_H

#include <stdint.h>

#define BOOT_INFO_MAGIC	  0x544f4f42524c5341ULL /* "ASLRBOOT" little-endian */
#define BOOT_INFO_VERSION 4 /* 2: kernel_sha256, firmware identity; 3: initrd; 4: Secure Boot */

/* The kernel is linked here; the loader maps nothing, the entry stub does. */
#define KERNEL_VBASE	0xffffffff80000000ULL
#define KERNEL_MAX_SPAN (64ULL << 20) /* a sane upper bound for the image */
#define KERNEL_ALIGN	(2ULL << 20)  /* the entry stub maps 2 MiB pages */

#define BOOT_CMDLINE_MAX   1024
#define BOOT_SEED_MAX	   64
#define BOOT_FW_VENDOR_MAX 64

/* Memory types the kernel cares about (values of the UEFI spec). */
enum boot_mem_type {
	BOOT_MEM_RESERVED = 0,
	BOOT_MEM_LOADER_CODE = 1,
	BOOT_MEM_LOADER_DATA = 2,
	BOOT_MEM_BOOT_CODE = 3,
	BOOT_MEM_BOOT_DATA = 4,
	BOOT_MEM_RUNTIME_CODE = 5,
	BOOT_MEM_RUNTIME_DATA = 6,
	BOOT_MEM_CONVENTIONAL = 7,
	BOOT_MEM_UNUSABLE = 8,
	BOOT_MEM_ACPI_RECLAIM = 9,
	BOOT_MEM_ACPI_NVS = 10,
	BOOT_MEM_MMIO = 11,
	BOOT_MEM_MMIO_PORT = 12,
	BOOT_MEM_PAL_CODE = 13,
	BOOT_MEM_PERSISTENT = 14,
};

struct boot_mmap_entry {
	uint32_t type; /* enum boot_mem_type, or any other firmware value */
	uint32_t pad;
	uint64_t phys;
	uint64_t pages; /* 4 KiB pages */
	uint64_t attr;
};

enum boot_fb_format {
	BOOT_FB_NONE = 0, /* no linear framebuffer (BltOnly or no GOP) */
	BOOT_FB_RGBX = 1, /* byte 0 red */
	BOOT_FB_BGRX = 2, /* byte 0 blue */
	BOOT_FB_BITMASK = 3,
};

struct boot_framebuffer {
	uint64_t base; /* physical */
	uint64_t size;
	uint32_t width;
	uint32_t height;
	uint32_t pitch; /* pixels per scan line */
	uint32_t format;
	uint32_t red_mask, green_mask, blue_mask, reserved_mask;
};

struct boot_info {
	uint64_t magic;
	uint32_t version;
	uint32_t size; /* sizeof(struct boot_info) as the loader saw it */

	uint64_t kernel_phys; /* where the image was copied (KERNEL_ALIGN aligned) */
	uint64_t kernel_span; /* bytes from KERNEL_VBASE to the end of the last segment */

	uint64_t mmap; /* physical address of boot_mmap_entry[mmap_count] */
	uint32_t mmap_count;
	uint32_t mmap_entry_size;

	struct boot_framebuffer fb;

	uint64_t rsdp; /* physical, 0 when absent */
	uint32_t rsdp_revision;

	uint32_t seed_len; /* bytes from EFI_RNG_PROTOCOL, 0 when absent */
	uint8_t seed[BOOT_SEED_MAX];

	uint32_t exit_retries;	    /* ExitBootServices attempts beyond the first */
	uint32_t cmdline_from_file; /* 1 when cmdline.txt was read */
	char cmdline[BOOT_CMDLINE_MAX];

	/* Provenance for the boot record (version 2). */
	uint8_t kernel_sha256[32];	    /* SHA-256 of kernel.elf as the loader read it */
	uint32_t fw_revision;		    /* EFI_SYSTEM_TABLE.FirmwareRevision */
	uint32_t uefi_revision;		    /* EFI_SYSTEM_TABLE.Hdr.Revision: major << 16 | minor */
	char fw_vendor[BOOT_FW_VENDOR_MAX]; /* FirmwareVendor, non-ASCII as '?' */

	/* Version 3: \aslrbench\initrd.cpio (newc), in loader-data pages below 4 GiB; 0/0 when
	 * absent. */
	uint64_t initrd_phys;
	uint64_t initrd_size;

	/* Version 4: Secure Boot state and the loader's check of the files it read. */
	uint32_t secure_boot; /* EFI variable SecureBoot: 1 on, 0 off or absent */
	uint32_t setup_mode;  /* EFI variable SetupMode: 1 when no platform key is enrolled */
	uint32_t boot_path;   /* enum boot_path */
	uint32_t image_check; /* enum boot_image_check bits; 0: both files as sealed */
};

/* Who started the loader: the firmware itself, or shim (its ShimLock protocol is installed). */
enum boot_path {
	BOOT_PATH_LOADER = 0,
	BOOT_PATH_SHIM = 1,
};

/* The loader's comparison of kernel.elf and initrd.cpio with the hashes sealed into it. */
enum boot_image_check {
	BOOT_CHECK_UNSEALED = 1,	/* the loader carries no hashes (not built by mkimage.sh) */
	BOOT_CHECK_KERNEL_MISMATCH = 2, /* kernel.elf differs from the sealed one */
	BOOT_CHECK_INITRD_MISMATCH = 4, /* initrd.cpio differs (or is missing or added) */
};

#endif
