# iso/: the ESP image and the hybrid ISO (CD and USB stick from one file).
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH

# The initramfs: iso/rootfs/ plus `make iso EXTRA=DIR` (DIR's tree at /, later wins).
# The stamp is touched whenever EXTRA is given or differs from the last build, so
# EXTRA's contents (which have no rule here) are always repacked, and a build
# without EXTRA after one with it drops them; an unchanged archive keeps its
# date, so the ESP is not rebuilt for nothing.
#
# Between the two, the build installs Linux test programs (exec from
# files): /bin/lx_exec, /bin/lx_musl, /bin/lx_glibc (static glibc),
# /bin/lx_musl_dyn (a dynamic musl PIE), /bin/lx_glibc_dyn (a dynamic glibc
# PIE), /bin/lx_thread_glibc_dyn (tests/linux/lx_thread.c, the same), /bin/lx_badinterp (its
# PT_INTERP is missing); musl's dynamic linker /lib/ld-musl-x86_64.so.1
# (Debian's musl, its own libc) and glibc's runtime as Debian lays it out:
# /lib64/ld-linux-x86-64.so.2 -> /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
# and /lib/x86_64-linux-gnu/libc.so.6, libgcc_s.so.1 (the host's, copied at build time).
INITRD_PROGS := $(BUILD)/initrd-progs
INITRD_DIRS := iso/rootfs $(INITRD_PROGS) $(PAXTEST_ROOT) $(INITRD_USERLAND) \
	$(BUILD)/initrd-aslrbench $(EXTRA)
# libgcc_s.so.1: glibc dlopens it for pthread_exit's and pthread_cancel's unwinding.
INITRD_GLIBC := /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6 \
	/lib/x86_64-linux-gnu/libgcc_s.so.1
INITRD_FILES := $(shell find iso/rootfs -print 2>/dev/null)
INITRD_STAMP := $(BUILD)/initrd.extra
$(shell mkdir -p $(BUILD); if [ -n "$(EXTRA)" ] || [ ! -e $(INITRD_STAMP) ] || \
	[ "$$(cat $(INITRD_STAMP) 2>/dev/null)" != "$(EXTRA)" ]; then \
	echo "$(EXTRA)" >$(INITRD_STAMP); fi)

$(INITRD_PROGS).stamp: $(BUILD)/user/linux/lx_exec $(BUILD)/user/linux/lx_musl \
		$(BUILD)/user/linux/lx_musl_dyn $(BUILD)/user/linux/lx_glibc_dyn \
		$(BUILD)/user/linux/lx_badinterp $(BUILD)/user/linux/lx_glibc \
		$(BUILD)/user/linux/lx_thread_glibc_dyn \
		/lib/ld-musl-x86_64.so.1 $(INITRD_GLIBC) iso/iso.mk
	@echo "  INSTALL $(INITRD_PROGS)"
	$(Q)rm -rf $(INITRD_PROGS) && mkdir -p $(INITRD_PROGS)/bin $(INITRD_PROGS)/lib64 \
		$(INITRD_PROGS)/lib/x86_64-linux-gnu
	$(Q)cp $(filter $(BUILD)/%,$^) $(INITRD_PROGS)/bin/
	$(Q)cp -L /lib/ld-musl-x86_64.so.1 $(INITRD_PROGS)/lib/
	$(Q)cp -L $(INITRD_GLIBC) $(INITRD_PROGS)/lib/x86_64-linux-gnu/
	$(Q)ln -s /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 $(INITRD_PROGS)/lib64/
	$(Q)touch $@

$(BUILD)/initrd.cpio: scripts/mkcpio.py $(INITRD_FILES) $(INITRD_STAMP) $(INITRD_PROGS).stamp
	@mkdir -p $(@D)
	@echo "  CPIO    $@"
	$(Q)$(if $(EXTRA),test -d "$(EXTRA)" || { echo "EXTRA=$(EXTRA): not a directory" >&2; exit 1; })
	$(Q)scripts/mkcpio.py $@.tmp $(foreach d,$(INITRD_DIRS),--dir $(d))
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; touch -r $@ $(INITRD_STAMP); \
		else mv $@.tmp $@; fi

# Secure Boot (docs/secure-boot.md): the loader on the ESP is always sealed with
# the hashes of kernel and initramfs; SIGN_KEY/SIGN_CERT sign it (sbsign), and
# SB=shim lays out the shim path with that key as the MOK.  The stamp rebuilds
# the ESP whenever these change.
SB ?=
SIGN_STAMP := $(BUILD)/sign.stamp
$(shell mkdir -p $(BUILD); s="$(SB) $(SIGN_KEY) $(SIGN_CERT)"; \
	[ -e $(SIGN_STAMP) ] && [ "$$(cat $(SIGN_STAMP))" = "$$s" ] || echo "$$s" >$(SIGN_STAMP))

$(BUILD)/esp.img: $(BUILD)/boot/BOOTX64.EFI $(BUILD)/kernel.esp.elf iso/cmdline.txt iso/mkimage.sh \
		$(BUILD)/initrd.cpio scripts/seal-loader.py $(SIGN_STAMP) $(SIGN_KEY) $(SIGN_CERT)
	@echo "  ESP     $@$(if $(SIGN_KEY), (signed$(if $(filter shim,$(SB)), for shim)))"
	$(Q)$(if $(filter-out shim,$(SB)),echo "SB=$(SB): only SB=shim (or none) is known" >&2; exit 1;)
	$(Q)SIGN_KEY="$(SIGN_KEY)" SIGN_CERT="$(SIGN_CERT)" iso/mkimage.sh esp $@ \
		--efi $(BUILD)/boot/BOOTX64.EFI --kernel $(BUILD)/kernel.esp.elf \
		--cmdline-file iso/cmdline.txt --initrd $(BUILD)/initrd.cpio $(if $(SB),--shim)

# make sign: the ISO and disk image with the loader signed by the key pair of
# scripts/keys.sh (its default directory unless SIGN_KEY/SIGN_CERT are given).
SIGN_DIR ?= $(HOME)/.aslrbench-keys
sign:
	$(Q)test -r "$(or $(SIGN_KEY),$(SIGN_DIR)/aslrbench.key)" || \
		{ echo "sign: no key $(or $(SIGN_KEY),$(SIGN_DIR)/aslrbench.key): run scripts/keys.sh first" >&2; exit 1; }
	$(Q)$(MAKE) --no-print-directory iso img SIGN_KEY=$(or $(SIGN_KEY),$(SIGN_DIR)/aslrbench.key) \
		SIGN_CERT=$(or $(SIGN_CERT),$(SIGN_DIR)/aslrbench.crt)

$(BUILD)/aslrbench.iso: $(BUILD)/esp.img
	@echo "  ISO     $@"
	$(Q)iso/mkimage.sh iso $@ $<

# For the boot test of a missing kernel: a loader with nothing to load.
$(BUILD)/nokernel.iso: $(BUILD)/boot/BOOTX64.EFI iso/cmdline.txt iso/mkimage.sh
	$(Q)iso/mkimage.sh esp $(BUILD)/nokernel.img --efi $(BUILD)/boot/BOOTX64.EFI \
		--cmdline-file iso/cmdline.txt
	$(Q)iso/mkimage.sh iso $@ $(BUILD)/nokernel.img

$(BUILD)/aslrbench.img: $(BUILD)/esp.img iso/mkimage.sh
	@echo "  IMG     $@"
	$(Q)iso/mkimage.sh img $@ $<

iso: $(BUILD)/aslrbench.iso
img: $(BUILD)/aslrbench.img
