# bench/: the timing harness and suites (freestanding, linked into the kernel
# as BENCH_SRCS) and bench-host, the same code as a Linux program.

BENCH_SRCS := bench/stats.c bench/harness.c bench/text.c \
	bench/run.c bench/suite_timer.c bench/suite_rng.c
BENCH_HDRS := $(wildcard bench/*.h)
BENCH_HOST_SRCS := bench/host/main.c bench/host/platform_linux.c bench/host/peers.c \
	bench/host/crng_impls.c
BENCH_HOST_LIBS := -lssl -lcrypto -lsodium

# bench-kernel-check compiles with the kernel's own flags (kernel/flags.mk).
BENCHK := $(BUILD)/benchk

HOST_TOOLS += $(HOST)/bench-host
# tests/sh/bench-host.sh runs from scripts/test.sh, which runs every tests/sh/*.sh.
HOST_TESTS += $(HOST)/test_bench

.PHONY: bench-kernel-check

# rng/ comes as rng/rng.mk's host library, built with the same HOST_CFLAGS.
$(HOST)/bench-host: $(COMMON_SRCS) $(BENCH_SRCS) $(BENCH_HOST_SRCS) $(RNG_HOST_LIB) $(BENCH_HDRS) \
		$(COMMON_HDRS) $(wildcard bench/host/*.h rng/*.h)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $(filter %.c %.a,$^) $(BENCH_HOST_LIBS)

# Host tests: the freestanding code (no rng/, no suites) with fake platform hooks.
BENCH_TEST_SRCS := tests/bench/test_bench.c $(COMMON_SRCS) bench/stats.c \
	bench/harness.c bench/text.c bench/run.c
$(HOST)/test_bench: $(BENCH_TEST_SRCS) $(BENCH_HDRS) $(COMMON_HDRS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^) $$(pkg-config --libs check)

# Every BENCH_SRCS file compiled as the kernel will, with only the symbols
# the kernel provides left undefined (no libgcc helpers, no libc).
BENCH_KOBJS := $(patsubst %.c,$(BENCHK)/%.o,$(COMMON_SRCS) $(BENCH_SRCS))
BENCH_KERNEL_SYMS := bench_emit|bench_irq_save|bench_irq_restore|bench_scratch|__stack_chk_fail|__stack_chk_guard|memcpy|memset|memcmp|rng_[a-z_]+

$(BENCHK)/%.o: %.c $(BENCH_HDRS) $(COMMON_HDRS) $(wildcard rng/*.h)
	@mkdir -p $(@D)
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@

bench-kernel-check: $(BENCH_KOBJS)
	$(Q)ld -r -o $(BENCHK)/bench.o $(BENCH_KOBJS)
	$(Q)bad=$$(nm -u $(BENCHK)/bench.o | awk '{print $$2}' | grep -Ev '^($(BENCH_KERNEL_SYMS))$$' || true); \
	if [ -n "$$bad" ]; then echo "bench: unexpected undefined symbols: $$bad"; exit 1; fi
	@echo "bench-kernel-check: $(words $(BENCH_KOBJS)) files OK"

bench-host: $(HOST)/bench-host
	$(Q)$(HOST)/bench-host --log $(BUILD)/bench-host.log
	$(Q)if test -x scripts/report.py; then \
		scripts/report.py $(BUILD)/bench-host.log --out $(BUILD)/report-host; fi
