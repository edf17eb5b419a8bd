# tests/: host tests of kernel code that runs unchanged on the host (the /proc
# path parser, the stat formatter, the ptrace rule) and their fuzz targets.
PROC_HOST_SRCS := kernel/fs/proc/path.c kernel/fs/proc/stat_format.c kernel/lib/vsprintf.c
FUZZ_CC     ?= clang
FUZZ_FLAGS  := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I.
FUZZ_TARGETS := $(HOST)/fuzz_proc_path $(HOST)/fuzz_stat_format
FUZZ_SECONDS ?= 60

HOST_TESTS += $(HOST)/test_ptrace
HOST_TOOLS += $(FUZZ_TARGETS)

$(HOST)/test_ptrace: tests/security/test_ptrace.c kernel/security/ptrace_rules.c \
		kernel/security/ptrace_rules.h kernel/security/ptrace_cases.h \
		kernel/task/cred.h kernel/uapi/aslrbench.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/security/test_ptrace.c \
		kernel/security/ptrace_rules.c $(CHECK_LIBS)

$(HOST)/fuzz_%: tests/fuzz/fuzz_%.c $(PROC_HOST_SRCS)
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(PROC_HOST_SRCS)

.PHONY: fuzz
fuzz: $(FUZZ_TARGETS)
	$(Q)for f in $(FUZZ_TARGETS); do \
		mkdir -p $(BUILD)/fuzz-corpus/$$(basename $$f); \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$(BUILD)/fuzz-corpus/$$(basename $$f) || exit 1; done

# pmm_init against hostile firmware maps: the real pmm.c, host stubs in the test.
HOST_TESTS += $(HOST)/test_pmm_map

$(HOST)/test_pmm_map: tests/mm/test_pmm_map.c kernel/mm/pmm.c kernel/mm/pmm.h \
		kernel/mm/vmm.h kernel/arch/page.h kernel/lib/panic.h kernel/lib/spinlock.h boot/boot_info.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/mm/test_pmm_map.c \
		kernel/mm/pmm.c $(CHECK_LIBS)

# The local APIC in xAPIC and x2APIC modes: the real lapic.c, its MSRs and
# CPUID from the test (tests/arch/shim/ comes first in the include path).
HOST_TESTS += $(HOST)/test_lapic

$(HOST)/test_lapic: tests/arch/test_lapic.c tests/arch/shim/kernel/arch/cpu.h kernel/arch/lapic.c \
		kernel/arch/lapic.h kernel/arch/page.h kernel/arch/tsc.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) -Itests/arch/shim $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/arch/test_lapic.c \
		kernel/arch/lapic.c $(CHECK_LIBS)

# The initramfs parser against truncated and corrupt archives: the real
# kernel/fs/cpio.c with ASan and UBSan, so a read past the archive fails.
HOST_TESTS += $(HOST)/test_cpio
CPIO_HOST_SRCS := kernel/fs/cpio.c kernel/lib/vsprintf.c
CPIO_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all

$(HOST)/test_cpio: tests/fs/test_cpio.c $(CPIO_HOST_SRCS) kernel/fs/cpio.h kernel/lib/errno.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CPIO_SAN) $(CHECK_CFLAGS) -o $@ tests/fs/test_cpio.c \
		$(CPIO_HOST_SRCS) $(CHECK_LIBS)

# libFuzzer on the same parser (make fuzz).
FUZZ_TARGETS += $(HOST)/fuzz_cpio
$(HOST)/fuzz_cpio: tests/fuzz/fuzz_cpio.c $(CPIO_HOST_SRCS)
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(CPIO_HOST_SRCS)

# The kernel's string functions and clear_page/copy_page, the very files it
# links, with its freestanding flags (no builtin, no loop turned into a libc
# call) and the names renamed k_* so libc's stay the test's own.
HOST_TESTS += $(HOST)/test_string
KSTRING_NAMES := memcpy memmove memset memcmp strlen strnlen strcmp strncmp strlcpy strstr
KSTRING_FLAGS := -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
	-mgeneral-regs-only $(foreach f,$(KSTRING_NAMES),-D$(f)=k_$(f))

$(HOST)/kstring.o: kernel/lib/string.c kernel/lib/string.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(KSTRING_FLAGS) -c -o $@ $<

$(HOST)/test_string: tests/lib/test_string.c $(HOST)/kstring.o kernel/arch/clear_page.c \
		kernel/arch/page.h kernel/arch/cpu.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/lib/test_string.c \
		$(HOST)/kstring.o kernel/arch/clear_page.c $(CHECK_LIBS)

# pid allocation: order, skipping, the wrap to RESERVED_PIDS, a full map.
HOST_TESTS += $(HOST)/test_pidmap
$(HOST)/test_pidmap: tests/task/test_pidmap.c kernel/task/pidmap.c kernel/task/pidmap.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/task/test_pidmap.c \
		kernel/task/pidmap.c $(CHECK_LIBS)

# The kernel's lists against a model of what each should hold.
HOST_TESTS += $(HOST)/test_list
$(HOST)/test_list: tests/lib/test_list.c kernel/lib/list.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/lib/test_list.c $(CHECK_LIBS)

# The record keeper behind the QR screen, full buffer included.
HOST_TESTS += $(HOST)/test_records
$(HOST)/test_records: tests/lib/test_records.c kernel/lib/records.c kernel/lib/records.h \
		kernel/lib/vsprintf.c kernel/lib/vsprintf.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -fsanitize=address,undefined -o $@ \
		tests/lib/test_records.c kernel/lib/records.c kernel/lib/vsprintf.c $(CHECK_LIBS)

# The kernel's printf formatter against the C library's snprintf.
HOST_TESTS += $(HOST)/test_vsprintf
$(HOST)/test_vsprintf: tests/lib/test_vsprintf.c kernel/lib/vsprintf.c kernel/lib/vsprintf.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -Wno-format-truncation -o $@ \
		tests/lib/test_vsprintf.c kernel/lib/vsprintf.c $(CHECK_LIBS)
