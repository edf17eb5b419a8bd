# aslrbench: every entry point of the project.  `make V=1` shows commands.
#
# Fragments included below each own one directory: common/common.mk,
# rng/rng.mk, bench/bench.mk, kernel/kernel.mk, boot/boot.mk,
# tests/linux/linux.mk, userland/userland.mk, iso/iso.mk, tests/tests.mk;
# kernel/flags.mk holds the kernel's compiler flags, for every kernel-side
# build and check.  `include`, not `-include`: a missing fragment
# is an error, not a silently smaller build.  They append to HOST_TESTS (host
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

.PHONY: baseline all iso img lockdep-iso run test test-host test-qemu bench-host deps clean fuzz fuzz-kernel \
	rng-quality rng-quality-quick usb format help sign ltp

all: host-all iso img

# One line per target; tests/sh/cli.sh fails when a .PHONY target is missing.
help:
	@echo 'make [V=1] TARGET   (V=1 shows the commands)'
	@echo '  all                build everything: host tools and tests, the ISO and the disk image (default)'
	@echo '  host-all           only the host tools and host tests (build/host/)'
	@echo '  iso                build/aslrbench.iso, the hybrid ISO (CD or USB stick)'
	@echo '  lockdep-iso        build/lockdep/aslrbench.iso, a LOCKDEP=1 build (lock contract and lock order checked)'
	@echo '  img                build/aslrbench.img, the raw GPT disk image'
	@echo '  run                build the ISO and boot it in QEMU with its default command line, or ARGS="k=v ..." (ARGS=help lists the keys); the log in build/run-DATE.log'
	@echo '  test               every test: host suites and QEMU boots; TAP on stdout and in build/test.tap, JUnit in build/test-results.xml'
	@echo '  test-host          only the host suites (no QEMU boot of the test table)'
	@echo '  ltp                LTP tests (tests/ltp/tests.txt) under Linux 6.12 and aslrbench, as TAP: LTP_SRC=an LTP tarball or checkout, LTP_SMP=N CPUs (2)'
	@echo '  test-qemu          only the QEMU boots; T=NAME one boot, G=GROUP a group (scripts/test.sh --list)'
	@echo '  baseline           re-record the deterministic instruction counts (bench/baseline/)'
	@echo '  bench-host         build/host/bench-host, the benchmark harness as a Linux program'
	@echo '  bench-kernel-check compile bench/ with the kernel flags (a freestanding check)'
	@echo '  rng-kernel-check   compile rng/ with the kernel flags (a freestanding check)'
	@echo '  rng-bench          quick cycles per u32 of every RNG variant on this host (build/host/rngtool bench)'
	@echo '  rng-quality        dieharder and ent over every RNG variant (long: rng/quality.md)'
	@echo '  rng-quality-quick  the short rng-quality subset make test runs'
	@echo '  fuzz               run the libFuzzer targets for FUZZ_SECONDS (default 60) each'
	@echo '  fuzz-kernel        the in-kernel syscall fuzzer for SECONDS (default 300); SEED=16 hex digits replays'
	@echo '  usb                write the ISO to a USB stick: make usb DEV=/dev/sdX (asks first)'
	@echo '  sign               the ISO and image with the loader signed (SIGN_KEY/SIGN_CERT, scripts/keys.sh; SB=shim: docs/secure-boot.md)'
	@echo '  deps               install the Debian packages the project needs (scripts/deps.sh; make run: only --run)'
	@echo '  format             clang-format every C source and header'
	@echo '  clean              remove build/'
	@echo '  report             the results store as one HTML comparison (build/report/compare.html)'
	@echo '  paxtest            Debian'"'"'s paxtest in the kernel: anonymous mappings, rva 2/0, both profiles (~10 min; build/paxtest/paxtest.md)'
	@echo '  paxtest-full       paxtest blackhat for every variant, profile and rva (a day under TCG; build/paxtest-full/)'
	@echo '  paxtest-ia32       Debian'"'"'s i386 paxtest (apt-get download paxtest:i386) as IA-32 programs: randamap, 2.6.29 and 6.x (~4 min)'
	@echo '  help               this list'

include kernel/flags.mk
include common/common.mk
include rng/rng.mk
include bench/bench.mk
include kernel/kernel.mk
include kernel/params/params.mk
include boot/boot.mk
include tests/linux/linux.mk
include userland/userland.mk
include paxtest/paxtest.mk
include iso/iso.mk
include tests/tests.mk

host-all: $(HOST_TOOLS) $(HOST_TESTS)

deps:
	$(Q)scripts/deps.sh

# make run and make test build with one compiler per CPU (BUILD_JOBS): a
# fresh build took 76 s alone and 38 to 45 s with -j2 on the 2-core build
# machine, half a minute of make test's time.
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

# Only what building and booting need; the serial log, every @@ record in
# it, is kept in a file named at the end (on a terminal the console shows
# the human view without the records).
# Debian 13's OVMF, unpacked under build/ovmf (scripts/ovmf-fetch.sh): it
# boots twice as fast as Debian 12's; without it run-qemu.sh uses Debian 12's.
FETCH_OVMF = scripts/ovmf-fetch.sh >/dev/null || echo "make $@: booting with Debian 12's OVMF" >&2

run:
	$(Q)scripts/deps.sh --run
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) iso
	$(Q)$(FETCH_OVMF)
	$(Q)log=$(BUILD)/run-$$(date +%Y%m%d-%H%M%S).log; st=0; \
	scripts/run-qemu.sh --iso $(BUILD)/aslrbench.iso --timeout 120 --log $$log \
		$(if $(ARGS),--cmdline '$(ARGS)') || st=$$?; \
	echo "make run: the serial log, every record: $$log (scripts/report.py $$log)" >&2; \
	exit $$st

# deps first, then a fresh make: fragments query pkg-config at parse time.
# The build's lines go to stderr: stdout is TAP (and the summary line) only.
# QEMU 10 from bookworm-backports, unpacked under build/ for the x2apic boot
# alone (scripts/qemu-backport.sh); without it that boot is a SKIP.
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) all $(BUILD)/nokernel.iso >&2
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) lockdep-iso >&2
	$(Q)scripts/qemu-backport.sh >/dev/null || echo "make test: no QEMU with x2APIC here; the x2apic boot is skipped" >&2
	$(Q)$(FETCH_OVMF)
	$(Q)HOST_TESTS="$(HOST_TESTS)" scripts/test.sh

test-host: host-all
	$(Q)HOST_TESTS="$(HOST_TESTS)" scripts/test.sh --host-only

# T=NAME runs one boot of tests/qemu/boots.conf, G=GROUP a group (both may
# be lists: T="cd usb"); `scripts/test.sh --list` shows them.
test-qemu: iso img $(BUILD)/nokernel.iso lockdep-iso
	$(Q)$(FETCH_OVMF)
	$(Q)scripts/test.sh --qemu-only $(foreach t,$(T),--boot $(t)) $(foreach g,$(G),--group $(g))

# The LOCKDEP=1 build beside the normal one, for the lockdep-smp4 boot
# (tests/qemu/boots.conf): its own build directory, so neither rebuilds the other.
lockdep-iso:
	$(Q)$(MAKE) --no-print-directory BUILD=$(BUILD)/lockdep LOCKDEP=1 $(BUILD)/lockdep/aslrbench.iso

# LTP as a peer suite (tests/sh/ltp.sh, which make test runs too): the tests
# of tests/ltp/tests.txt from the LTP source in LTP_SRC (a tarball or a
# checkout), built static and cached in build/ltp/, under Linux 6.12 and
# aslrbench with LTP_SMP CPUs (default 2).  Without LTP_SRC it says how to
# get one and skips.
ltp: deps
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) all >&2
	$(Q)$(FETCH_OVMF)
	$(Q)LTP_SRC="$(LTP_SRC)" tests/sh/ltp.sh

# Re-record the deterministic instruction counts the regression test compares with.
baseline: iso
	$(Q)$(FETCH_OVMF)
	$(Q)scripts/run-qemu.sh --deterministic --cmdline "mode=bench suite=rng samples=200 ensembles=5" \
		--log $(BUILD)/baseline.log >/dev/null
	$(Q)scripts/baseline.py write $(BUILD)/baseline.log bench/baseline/deterministic-rng.tsv

# The results store as one HTML comparison: build/report/compare.html.
.PHONY: report
RESULTS_DB ?= results/aslrbench.sqlite
report:
	$(Q)scripts/report.py --db $(RESULTS_DB) --compare --html --out $(BUILD)/report >/dev/null

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
