/*
 * BOOTX64.EFI: load \aslrbench\kernel.elf and \aslrbench\cmdline.txt from
 * the ESP we were started from, gather what the kernel cannot ask the
 * firmware for once boot services are gone, and jump.
 *
 * Every failure before ExitBootServices prints one line starting with
 * "aslrbench loader: error:" (the run script watches for it), waits a few
 * seconds so a human can read it, and returns to the firmware.  After
 * ExitBootServices nothing can be printed, so all checks happen before.
 */
#include <efi.h>
#include <efilib.h>

#include "boot/boot_info.h"
#include "boot/elf64.h"
#include "boot/secure.h"
#include "boot/sha256.h"

#define KERNEL_PATH  L"\\aslrbench\\kernel.elf"
#define CMDLINE_PATH L"\\aslrbench\\cmdline.txt"
#define INITRD_PATH  L"\\aslrbench\\initrd.cpio"
#define INITRD_MAX   (512ULL << 20)
#define FILE_MAX     (32ULL << 20)
#define MAX_4G	     0xffffffffULL

static EFI_HANDLE image_handle;

static EFI_STATUS fail(const CHAR16 *what, EFI_STATUS st)
{
	Print(L"aslrbench loader: error: %s (%r)\r\n", what, st);
	Print(L"aslrbench loader: returning to the firmware\r\n");
	uefi_call_wrapper(BS->Stall, 1, 3 * 1000 * 1000);
	return EFI_ERROR(st) ? st : EFI_LOAD_ERROR;
}

/* Pages below 4 GiB: the entry stub identity-maps only the first 4 GiB. */
static EFI_STATUS alloc_low(UINTN pages, EFI_PHYSICAL_ADDRESS *out)
{
	*out = MAX_4G;
	return uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EfiLoaderData, pages,
				 out);
}

/* ---- files on our own ESP ---- */

static EFI_STATUS open_root(EFI_FILE_HANDLE *root)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, image_handle, &LoadedImageProtocol,
			       (void **)&li);
	if (EFI_ERROR(st))
		return st;
	*root = LibOpenRoot(li->DeviceHandle);
	return *root ? EFI_SUCCESS : EFI_NOT_FOUND;
}

/* Reads a whole file into pool memory; *size gets its length. */
static EFI_STATUS read_file(EFI_FILE_HANDLE root, CHAR16 *path, void **data, UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS st;
	UINTN len;

	st = uefi_call_wrapper(root->Open, 5, root, &f, path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(f);
	if (!info) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_DEVICE_ERROR;
	}
	len = info->FileSize;
	FreePool(info);
	if (len > FILE_MAX) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_BAD_BUFFER_SIZE;
	}
	*data = AllocatePool(len + 1);
	if (!*data) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_OUT_OF_RESOURCES;
	}
	*size = len;
	st = uefi_call_wrapper(f->Read, 3, f, size, *data);
	uefi_call_wrapper(f->Close, 1, f);
	if (!EFI_ERROR(st) && *size != len)
		st = EFI_END_OF_FILE;
	return st;
}

/*
 * The initramfs, straight into loader-data pages below 4 GiB: the kernel
 * never frees those, and reads them through its physical map.  Absent is
 * fine (the kernel starts with an empty root).
 */
static EFI_STATUS read_initrd(EFI_FILE_HANDLE root, struct boot_info *bi)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_PHYSICAL_ADDRESS phys;
	EFI_STATUS st;
	UINTN len, got;

	st = uefi_call_wrapper(root->Open, 5, root, &f, INITRD_PATH, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(f);
	if (!info) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_DEVICE_ERROR;
	}
	len = info->FileSize;
	FreePool(info);
	if (len == 0 || len > INITRD_MAX) {
		uefi_call_wrapper(f->Close, 1, f);
		return len ? EFI_BAD_BUFFER_SIZE : EFI_SUCCESS;
	}
	st = alloc_low(EFI_SIZE_TO_PAGES(len), &phys);
	if (EFI_ERROR(st)) {
		uefi_call_wrapper(f->Close, 1, f);
		return st;
	}
	got = len;
	st = uefi_call_wrapper(f->Read, 3, f, &got, (void *)phys);
	uefi_call_wrapper(f->Close, 1, f);
	if (!EFI_ERROR(st) && got != len)
		st = EFI_END_OF_FILE;
	if (EFI_ERROR(st))
		return st;
	bi->initrd_phys = phys;
	bi->initrd_size = len;
	return EFI_SUCCESS;
}

/*
 * cmdline.txt: '#' starts a comment line, line breaks become spaces, runs
 * of blanks collapse.  The kernel validates the keys themselves.
 */
static EFI_STATUS parse_cmdline(const char *txt, UINTN len, char *out)
{
	UINTN i, n = 0;
	int comment = 0, at_line_start = 1;

	for (i = 0; i < len; i++) {
		char c = txt[i];

		if (c == '\n' || c == '\r') {
			comment = 0;
			at_line_start = 1;
			c = ' ';
		} else if (at_line_start && c == '#') {
			comment = 1;
		} else if (c != ' ' && c != '\t') {
			at_line_start = 0;
		}
		if (comment)
			continue;
		if (c == '\t')
			c = ' ';
		if (c == '\0' || (unsigned char)c < 0x20 || (unsigned char)c > 0x7e)
			return EFI_INVALID_PARAMETER;
		if (c == ' ' && (n == 0 || out[n - 1] == ' '))
			continue;
		if (n + 1 >= BOOT_CMDLINE_MAX)
			return EFI_BUFFER_TOO_SMALL;
		out[n++] = c;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return EFI_SUCCESS;
}

/* ---- the kernel image ---- */

/* Checks everything load_kernel relies on; returns a reason or NULL. */
static const CHAR16 *check_elf(const UINT8 *img, UINTN size, UINT64 *span)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	UINT64 end = 0;
	int loads = 0, entry_ok = 0;

	if (size < sizeof(*eh) || eh->e_ident[0] != 0x7f || eh->e_ident[1] != 'E' ||
	    eh->e_ident[2] != 'L' || eh->e_ident[3] != 'F')
		return L"kernel.elf is not an ELF file";
	if (eh->e_ident[4] != ELFCLASS64 || eh->e_ident[5] != ELFDATA2LSB)
		return L"kernel.elf is not a little-endian ELF64 file";
	if (eh->e_machine != EM_X86_64 || eh->e_type != ET_EXEC)
		return L"kernel.elf is not an x86_64 executable";
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 || eh->e_phnum > 64 ||
	    eh->e_phoff > size || size - eh->e_phoff < (UINT64)eh->e_phnum * sizeof(Elf64_Phdr))
		return L"kernel.elf has a bad program header table";
	for (UINTN i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;

		if (ph->p_type != PT_LOAD)
			continue;
		loads++;
		if (ph->p_vaddr < KERNEL_VBASE || ph->p_memsz > KERNEL_MAX_SPAN ||
		    ph->p_vaddr - KERNEL_VBASE > KERNEL_MAX_SPAN - ph->p_memsz)
			return L"kernel.elf has a segment outside the kernel window";
		if (ph->p_filesz > ph->p_memsz || ph->p_offset > size ||
		    size - ph->p_offset < ph->p_filesz)
			return L"kernel.elf has a truncated segment";
		if (ph->p_vaddr + ph->p_memsz - KERNEL_VBASE > end)
			end = ph->p_vaddr + ph->p_memsz - KERNEL_VBASE;
		if (eh->e_entry >= ph->p_vaddr && eh->e_entry < ph->p_vaddr + ph->p_memsz &&
		    (ph->p_flags & PF_X))
			entry_ok = 1;
	}
	if (!loads)
		return L"kernel.elf has no loadable segment";
	if (!entry_ok)
		return L"kernel.elf entry point is not in an executable segment";
	*span = end;
	return NULL;
}

static EFI_STATUS load_kernel(const UINT8 *img, UINT64 span, UINT64 *phys)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	EFI_PHYSICAL_ADDRESS base;
	UINTN pages = (span + KERNEL_ALIGN + 4095) / 4096;
	EFI_STATUS st;

	st = alloc_low(pages, &base);
	if (EFI_ERROR(st))
		return st;
	*phys = (base + KERNEL_ALIGN - 1) & ~(KERNEL_ALIGN - 1);
	ZeroMem((void *)*phys, span);
	for (UINTN i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD)
			CopyMem((void *)(*phys + ph->p_vaddr - KERNEL_VBASE), img + ph->p_offset,
				ph->p_filesz);
	}
	return EFI_SUCCESS;
}

/* ---- what the firmware knows ---- */

static void get_framebuffer(struct boot_framebuffer *fb)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mi;

	if (EFI_ERROR(LibLocateProtocol(&GraphicsOutputProtocol, (void **)&gop)) || !gop ||
	    !gop->Mode || !gop->Mode->Info)
		return;
	mi = gop->Mode->Info;
	fb->base = gop->Mode->FrameBufferBase;
	fb->size = gop->Mode->FrameBufferSize;
	fb->width = mi->HorizontalResolution;
	fb->height = mi->VerticalResolution;
	fb->pitch = mi->PixelsPerScanLine;
	switch (mi->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		fb->format = BOOT_FB_RGBX;
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		fb->format = BOOT_FB_BGRX;
		break;
	case PixelBitMask:
		fb->format = BOOT_FB_BITMASK;
		fb->red_mask = mi->PixelInformation.RedMask;
		fb->green_mask = mi->PixelInformation.GreenMask;
		fb->blue_mask = mi->PixelInformation.BlueMask;
		fb->reserved_mask = mi->PixelInformation.ReservedMask;
		break;
	default:
		fb->format = BOOT_FB_NONE;
		fb->base = 0;
	}
}

static void get_rsdp(struct boot_info *bi)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;

	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];

		if (!CompareGuid(&t->VendorGuid, &acpi20)) {
			bi->rsdp = (UINT64)t->VendorTable;
			bi->rsdp_revision = 2;
			return;
		}
		if (!CompareGuid(&t->VendorGuid, &acpi10) && !bi->rsdp) {
			bi->rsdp = (UINT64)t->VendorTable;
			bi->rsdp_revision = 0;
		}
	}
}

static void get_seed(struct boot_info *bi)
{
	EFI_GUID guid = EFI_RNG_PROTOCOL_GUID;
	EFI_RNG_PROTOCOL *rng;

	if (EFI_ERROR(LibLocateProtocol(&guid, (void **)&rng)) || !rng)
		return;
	if (!EFI_ERROR(uefi_call_wrapper(rng->GetRNG, 4, rng, NULL, BOOT_SEED_MAX, bi->seed)))
		bi->seed_len = BOOT_SEED_MAX;
}

/*
 * ExitBootServices fails with EFI_INVALID_PARAMETER when the map changed
 * since GetMemoryMap; the spec's answer is to fetch the map again and retry.
 * The buffer is allocated up front with slack: after a failed exit we may
 * no longer allocate.
 */
static EFI_STATUS exit_boot(struct boot_info *bi, UINT8 *map, UINTN map_cap, UINTN *map_size,
			    UINTN *desc_size)
{
	UINTN key;
	UINT32 desc_ver;
	EFI_STATUS st;

	for (int tries = 0; tries < 8; tries++) {
		*map_size = map_cap;
		st = uefi_call_wrapper(BS->GetMemoryMap, 5, map_size, (EFI_MEMORY_DESCRIPTOR *)map,
				       &key, desc_size, &desc_ver);
		if (EFI_ERROR(st))
			return st;
		st = uefi_call_wrapper(BS->ExitBootServices, 2, image_handle, key);
		if (st != EFI_INVALID_PARAMETER)
			return st;
		bi->exit_retries++;
	}
	return EFI_ABORTED;
}

static void copy_map(struct boot_info *bi, const UINT8 *map, UINTN map_size, UINTN desc_size)
{
	struct boot_mmap_entry *out = (struct boot_mmap_entry *)bi->mmap;
	UINTN n = map_size / desc_size;

	for (UINTN i = 0; i < n; i++) {
		const EFI_MEMORY_DESCRIPTOR *d =
			(const EFI_MEMORY_DESCRIPTOR *)(map + i * desc_size);

		out[i].type = d->Type;
		out[i].pad = 0;
		out[i].phys = d->PhysicalStart;
		out[i].pages = d->NumberOfPages;
		out[i].attr = d->Attribute;
	}
	bi->mmap_count = (UINT32)n;
	bi->mmap_entry_size = sizeof(struct boot_mmap_entry);
}

/* Firmware vendor and revisions from the system table, for the boot record. */
static void get_firmware_id(struct boot_info *bi, const EFI_SYSTEM_TABLE *systab)
{
	const CHAR16 *v = systab->FirmwareVendor;
	UINTN i = 0;

	bi->fw_revision = systab->FirmwareRevision;
	bi->uefi_revision = systab->Hdr.Revision;
	for (; v && v[i] && i < BOOT_FW_VENDOR_MAX - 1; i++)
		bi->fw_vendor[i] = v[i] >= 0x20 && v[i] < 0x7f ? (char)v[i] : '?';
	bi->fw_vendor[i] = '\0';
}

typedef void (*kernel_entry_t)(struct boot_info *bi, UINT64 phys_base);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_FILE_HANDLE root;
	EFI_PHYSICAL_ADDRESS bi_phys, map_phys, out_phys;
	struct boot_info *bi;
	UINT8 *elf;
	void *txt;
	UINTN elf_size, txt_size, map_size = 0, desc_size = 0, key, map_cap, map_pages;
	UINT32 desc_ver;
	UINT64 span, kphys;
	const CHAR16 *why;
	EFI_STATUS st;

	image_handle = image;
	InitializeLib(image, systab);
	Print(L"aslrbench loader: starting\r\n");

	st = open_root(&root);
	if (EFI_ERROR(st))
		return fail(L"cannot open the boot volume", st);
	st = read_file(root, KERNEL_PATH, (void **)&elf, &elf_size);
	if (EFI_ERROR(st))
		return fail(L"cannot read \\aslrbench\\kernel.elf", st);
	why = check_elf(elf, elf_size, &span);
	if (why)
		return fail(why, EFI_LOAD_ERROR);

	st = alloc_low(EFI_SIZE_TO_PAGES(sizeof(*bi)), &bi_phys);
	if (EFI_ERROR(st))
		return fail(L"cannot allocate boot_info", st);
	bi = (struct boot_info *)bi_phys;
	ZeroMem(bi, sizeof(*bi));
	bi->magic = BOOT_INFO_MAGIC;
	bi->version = BOOT_INFO_VERSION;
	bi->size = sizeof(*bi);

	st = read_file(root, CMDLINE_PATH, &txt, &txt_size);
	if (!EFI_ERROR(st)) {
		st = parse_cmdline(txt, txt_size, bi->cmdline);
		if (EFI_ERROR(st))
			return fail(L"cmdline.txt is too long or holds non-ASCII bytes", st);
		bi->cmdline_from_file = 1;
	} else {
		Print(L"aslrbench loader: no cmdline.txt (%r), using the defaults\r\n", st);
	}

	/* Hash the file as read, so the record names the image that really ran. */
	sha256(elf, elf_size, bi->kernel_sha256);
	get_firmware_id(bi, systab);

	st = read_initrd(root, bi);
	if (EFI_ERROR(st) && st != EFI_NOT_FOUND)
		return fail(L"cannot read \\aslrbench\\initrd.cpio", st);
	if (bi->initrd_size)
		Print(L"aslrbench loader: initrd.cpio at 0x%lx (%ld bytes)\r\n", bi->initrd_phys,
		      bi->initrd_size);

	/* The firmware verified only this image: check what it read before starting it. */
	secure_boot_state(bi);
	Print(L"aslrbench loader: Secure Boot %s%s, started by %s\r\n",
	      bi->secure_boot ? L"on" : L"off", bi->setup_mode ? L" (setup mode)" : L"",
	      bi->boot_path == BOOT_PATH_SHIM ? L"shim" : L"the firmware");
	why = secure_check_images(bi);
	if (why)
		return fail(why, EFI_SECURITY_VIOLATION);

	st = load_kernel(elf, span, &kphys);
	if (EFI_ERROR(st))
		return fail(L"cannot allocate memory for the kernel below 4 GiB", st);
	bi->kernel_phys = kphys;
	bi->kernel_span = span;
	get_framebuffer(&bi->fb);
	get_rsdp(bi);
	get_seed(bi);

	/* Size the map, then leave room for the entries our allocations add. */
	st = uefi_call_wrapper(BS->GetMemoryMap, 5, &map_size, NULL, &key, &desc_size, &desc_ver);
	if (st != EFI_BUFFER_TOO_SMALL || desc_size < sizeof(EFI_MEMORY_DESCRIPTOR))
		return fail(L"GetMemoryMap did not report its size", st);
	map_cap = map_size + 16 * desc_size;
	map_pages = EFI_SIZE_TO_PAGES(map_cap);
	st = alloc_low(map_pages, &map_phys);
	if (EFI_ERROR(st))
		return fail(L"cannot allocate the memory map buffer", st);
	st = alloc_low(EFI_SIZE_TO_PAGES(map_cap / desc_size * sizeof(struct boot_mmap_entry)),
		       &out_phys);
	if (EFI_ERROR(st))
		return fail(L"cannot allocate the boot memory map", st);
	bi->mmap = out_phys;
	map_cap = map_pages * 4096;

	Print(L"aslrbench loader: kernel at 0x%lx (%ld KiB), cmdline \"%a\"\r\n", kphys,
	      span / 1024, bi->cmdline);
	st = exit_boot(bi, (UINT8 *)map_phys, map_cap, &map_size, &desc_size);
	if (EFI_ERROR(st))
		return fail(L"ExitBootServices failed", st);

	/* Boot services are gone: no Print, no allocation from here on. */
	copy_map(bi, (const UINT8 *)map_phys, map_size, desc_size);
	((kernel_entry_t)(kphys + ((const Elf64_Ehdr *)elf)->e_entry - KERNEL_VBASE))(bi, kphys);
	for (;;)
		__asm__ volatile("cli; hlt");
}
