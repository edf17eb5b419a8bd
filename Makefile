# aslrbench: every entry point of the project.  `make V=1` shows commands.
#
# Fragments included below each own one directory: rng/rng.mk, bench/bench.mk,
# kernel/kernel.mk, boot/boot.mk, iso/iso.mk.  They append to HOST_TESTS (host
# programs that print TAP: "ok N - name" / "not ok N - name") and HOST_TOOLS.

BUILD      := build
HOST       := $(BUILD)/host
V          ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif

HOST_CC     ?= cc
HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I.
HOST_TESTS  :=
HOST_TOOLS  :=

.SECONDARY:

.PHONY: baseline all iso img run test test-host test-qemu bench-host deps clean fuzz fuzz-kernel \
	rng-quality rng-quality-quick usb format

all: host-all iso img

-include rng/rng.mk
-include bench/bench.mk
-include kernel/kernel.mk
-include boot/boot.mk
-include iso/iso.mk
-include tests/tests.mk

host-all: $(HOST_TOOLS) $(HOST_TESTS)

deps:
	$(Q)scripts/deps.sh

run: deps
	$(Q)$(MAKE) --no-print-directory iso
	$(Q)scripts/run-qemu.sh --iso $(BUILD)/aslrbench.iso --timeout 120

# deps first, then a fresh make: fragments query pkg-config at parse time.
test: deps
	$(Q)$(MAKE) --no-print-directory all $(BUILD)/nokernel.iso
	$(Q)HOST_TESTS="$(HOST_TESTS)" scripts/test.sh

test-host: host-all
	$(Q)HOST_TESTS="$(HOST_TESTS)" scripts/test.sh --host-only

test-qemu: iso $(BUILD)/nokernel.iso
	$(Q)scripts/test.sh --qemu-only

# Re-record the deterministic instruction counts the regression test compares with.
baseline: iso
	$(Q)scripts/run-qemu.sh --deterministic --cmdline "mode=bench suite=rng samples=200 ensembles=5" \
		--log $(BUILD)/baseline.log >/dev/null
	$(Q)scripts/baseline.py write $(BUILD)/baseline.log bench/baseline/deterministic-rng.tsv

# The in-kernel syscall fuzzer for SECONDS (default 300); SEED=<16 hex digits> replays.
SECONDS ?= 300
fuzz-kernel: iso
	$(Q)scripts/run-qemu.sh --iso $(BUILD)/aslrbench.iso --timeout $$(( $(SECONDS) + 400 )) \
		--cmdline "mode=fuzz seconds=$(SECONDS)$(if $(SEED), seed=$(SEED))"

usb: iso
	$(Q)scripts/write-usb.sh $(BUILD)/aslrbench.iso $(DEV)

format:
	$(Q)clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)
