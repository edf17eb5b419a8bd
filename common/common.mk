# common/: freestanding code both the kernel and bench/ (its host and kernel
# builds) use: CPUID facts (cpu.c), the TSC reads that bracket timed code
# (tsc.h) and the "@@ {...}" JSON record writer (jrec.c).  Like rng/, it
# never includes kernel headers, so it builds for the host unchanged.
COMMON_SRCS := common/cpu.c common/jrec.c
COMMON_HDRS := common/cpu.h common/jrec.h common/tsc.h common/xfeatures.h

# The QR encoder and the zlib compressor behind the kernel's QR screen
# (kernel/console/qr_screen.c); only the kernel and their host test link them.
QR_SRCS := common/qr.c common/deflate.c common/huffman.c
HOST_TESTS += $(HOST)/test_qr

# zbarimg reads the test's symbols back; zlib inflates the compressor's streams.
$(HOST)/test_qr: tests/lib/test_qr.c $(QR_SRCS) common/qr.h common/deflate.h common/huffman.h tests/lib/tap_check.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ tests/lib/test_qr.c $(QR_SRCS) $$(pkg-config --cflags --libs check) -lz
