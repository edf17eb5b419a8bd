# kernel/params: the boot parameters' table, exported for the host.
#
# build/params.bin is the kernel's ".kparams" section, byte for byte;
# build/host/params runs kernel/params/params.c over it (run-qemu.sh checks
# --cmdline with it before QEMU starts).
HOST_TOOLS += $(HOST)/params
PARAMS_TABLE := $(BUILD)/params.bin

# The image and its table are built together: run-qemu.sh reads both.
iso img: $(PARAMS_TABLE) $(HOST)/params

$(PARAMS_TABLE): $(BUILD)/kernel.elf
	@echo "  PARAMS  $@"
	$(Q)objcopy --dump-section .kparams=$@ $< /dev/null 2>/dev/null || \
		objcopy -O binary --only-section=.kparams $< $@

$(HOST)/params: kernel/params/host/params.c kernel/params/params.c kernel/params/param.h \
		$(RNG_HOST_LIB) $(RNG_HDRS)
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ kernel/params/host/params.c kernel/params/params.c \
		$(RNG_HOST_LIB)

# The parser's host unit test (Check).
HOST_TESTS += $(HOST)/test_params
$(HOST)/test_params: tests/params/test_params.c kernel/params/params.c kernel/params/param.h \
		$(RNG_HOST_LIB) $(RNG_HDRS)
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/params/test_params.c \
		kernel/params/params.c $(RNG_HOST_LIB) $(CHECK_LIBS)
