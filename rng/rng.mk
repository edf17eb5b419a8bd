# rng/rng.mk - every RNG variant, its host tool and its tests.
# Included by the top-level Makefile (BUILD, HOST, Q, HOST_CC, HOST_CFLAGS).

# Freestanding sources: these compile unchanged into the kernel.
RNG_SRCS := rng/platform.c rng/halfmd4.c rng/md4.c rng/md5.c rng/md_le.c rng/sha1.c \
	rng/chacha20.c rng/pool.c rng/keydata.c rng/prandom.c rng/ipid_2629.c \
	rng/md4_2630.c rng/sha1_mackall.c rng/urandom_2629.c rng/md5_3x.c \
	rng/blake2s.c rng/input_pool.c rng/chacha20_batched.c rng/chacha20_wide.c \
	rng/chacha20_avx.c rng/chacha20_cpu.c rng/rdrand.c rng/registry.c rng/spinlock.c rng/lockdep.c
RNG_HDRS := $(wildcard rng/*.h)

RNG_HOST_OBJS := $(patsubst rng/%.c,$(HOST)/rng/%.o,$(RNG_SRCS))
RNG_HOST_LIB  := $(HOST)/librng.a
# The debug build (RNG_LOCKDEP: rng/lockdep.h), for the SMP tests only: the
# release library's draws are what bench-host times.
RNG_LOCKDEP_OBJS := $(patsubst rng/%.c,$(HOST)/rng-lockdep/%.o,$(RNG_SRCS))
RNG_LOCKDEP_LIB  := $(HOST)/librng-lockdep.a

# rng-kernel-check builds every file with the kernel's own flags (kernel/flags.mk).
RNG_KERNEL_OBJS   := $(patsubst rng/%.c,$(BUILD)/rngk/%.o,$(RNG_SRCS))

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

RNG_TESTS := $(HOST)/test_rng_primitives $(HOST)/test_rng_variants $(HOST)/test_rng_crng \
	$(HOST)/test_rng_chacha_impls $(HOST)/test_rng_smp
HOST_TESTS += $(RNG_TESTS)
# scripts/test.sh also runs every executable tests/sh/*.sh: rngtool.sh (the
# rngtool contract) and rng-quality.sh (no arguments: the quick dieharder/ent
# subset, ~20 s); both need $(HOST)/rngtool, built by host-all.
HOST_TOOLS += $(HOST)/rngtool

.PHONY: rng-kernel-check rng-quality rng-quality-quick rng-bench

$(HOST)/rng/%.o: rng/%.c $(RNG_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -c -o $@ $<

$(RNG_HOST_LIB): $(RNG_HOST_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST)/rng-lockdep/%.o: rng/%.c $(RNG_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -DRNG_LOCKDEP -c -o $@ $<

$(RNG_LOCKDEP_LIB): $(RNG_LOCKDEP_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST)/test_rng_smp: tests/rng/test_rng_smp.c tests/lib/tap_check.h tests/rng/fake_platform.h $(RNG_LOCKDEP_LIB) $(RNG_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -DRNG_LOCKDEP $(CHECK_CFLAGS) -o $@ $< $(RNG_LOCKDEP_LIB) $(CHECK_LIBS)

$(HOST)/rngtool: rng/host/rngtool.c rng/host/replay_crng.c rng/host/replay_crng.h \
		$(RNG_HOST_LIB) $(RNG_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ rng/host/rngtool.c rng/host/replay_crng.c $(RNG_HOST_LIB)

$(HOST)/test_rng_%: tests/rng/test_rng_%.c tests/lib/tap_check.h tests/rng/fake_platform.h $(RNG_HOST_LIB) $(RNG_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(RNG_HOST_LIB) $(CHECK_LIBS)

$(BUILD)/rngk/%.o: rng/%.c $(RNG_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(KCC) $(KCFLAGS) -c -o $@ $<

rng-kernel-check: $(RNG_KERNEL_OBJS)
	@echo "rng-kernel-check: $(words $(RNG_KERNEL_OBJS)) files build with kernel flags"

# Quick cycles/u32 per variant on this host (rdtsc loop, not the bench/ harness).
rng-bench: $(HOST)/rngtool
	$(Q)$(HOST)/rngtool bench

# Full statistical run: dieharder battery + ent for every available variant,
# RNG_QUALITY_JOBS variants at a time (GNU parallel; default one per core),
# with "[k/N] variant ok (elapsed, ETA)" as each ends.
RNG_QUALITY_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
rng-quality: $(HOST)/rngtool
	$(Q)tests/sh/rng-quality.sh --full --jobs $(RNG_QUALITY_JOBS) --out $(BUILD)/rng-quality.md

# The subset run by `make test` (tests/sh/rng-quality.sh --quick prints TAP).
rng-quality-quick: $(HOST)/rngtool
	$(Q)tests/sh/rng-quality.sh --quick --out $(BUILD)/rng-quality-quick.md
