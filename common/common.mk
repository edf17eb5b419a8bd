# common/: freestanding code both the kernel and bench/ (its host and kernel
# builds) use: CPUID facts (cpu.c), the TSC reads that bracket timed code
# (tsc.h) and the "@@ {...}" JSON record writer (jrec.c).  Like rng/, it
# never includes kernel headers, so it builds for the host unchanged.
COMMON_SRCS := common/cpu.c common/jrec.c
COMMON_HDRS := common/cpu.h common/jrec.h common/tsc.h common/xfeatures.h
