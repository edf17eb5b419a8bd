# boot/: the GNU-EFI loader, BOOTX64.EFI.
EFI_INC    := /usr/include/efi
EFI_LIB    := /usr/lib
EFI_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -I. -I$(EFI_INC) -I$(EFI_INC)/x86_64 \
	-fpic -fshort-wchar -mno-red-zone -fno-stack-protector -ffreestanding \
	-DEFI_FUNCTION_WRAPPER -Wno-unused-parameter
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T $(EFI_LIB)/elf_x86_64_efi.lds \
	-L$(EFI_LIB)

$(BUILD)/boot/loader.o: boot/loader.c boot/boot_info.h boot/elf64.h boot/sha256.h boot/secure.h
$(BUILD)/boot/secure.o: boot/secure.c boot/secure.h boot/boot_info.h boot/sha256.h
$(BUILD)/boot/sha256.o: boot/sha256.c boot/sha256.h
$(BUILD)/boot/%.o:
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/boot/loader.so: $(BUILD)/boot/loader.o $(BUILD)/boot/secure.o $(BUILD)/boot/sha256.o
	@echo "  LD      $@"
	$(Q)$(LD) $(EFI_LDFLAGS) $(EFI_LIB)/crt0-efi-x86_64.o $^ -o $@ -lefi -lgnuefi

# The .sbat section (shim refuses an image without one) goes after the last
# section, page-aligned; the hashes of kernel and initramfs are sealed into the
# copy on each ESP (iso/mkimage.sh), and signing comes after that.
$(BUILD)/boot/BOOTX64.EFI: $(BUILD)/boot/loader.so boot/sbat.csv
	@echo "  OBJCOPY $@"
	$(Q)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
		-j .reloc --target=efi-app-x86_64 $< $@.tmp
	$(Q)end=0; for e in $$(objdump -h $@.tmp | awk '$$1 ~ /^[0-9]+$$/ { print "$$((0x" $$3 "+0x" $$4 "))" }'); do \
		e=$$(eval "echo $$e"); [ "$$e" -le "$$end" ] || end=$$e; done; \
	objcopy --add-section .sbat=boot/sbat.csv --set-section-flags .sbat=contents,alloc,load,readonly,data \
		--change-section-vma .sbat=$$(( (end + 4095) / 4096 * 4096 )) $@.tmp $@
	$(Q)rm -f $@.tmp

# The loader's SHA-256 against the FIPS 180-4 examples and sha256sum.
HOST_TESTS += $(HOST)/test_sha256

$(HOST)/test_sha256: tests/boot/test_sha256.c boot/sha256.c boot/sha256.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ tests/boot/test_sha256.c boot/sha256.c
