# kernel/flags.mk: the one definition of how kernel-side C is compiled.
# Included by the top-level Makefile before every fragment that builds
# kernel code: kernel/kernel.mk (the kernel, with rng/, bench/ and common/
# linked in), rng-kernel-check (rng/rng.mk) and bench-kernel-check
# (bench/bench.mk), so the checks test exactly the flags the kernel uses.
#
# Everything in the kernel, rng/ and bench/ included, is built
# -mgeneral-regs-only: no float, no SIMD, so no kernel path can clobber a user
# task's SIMD registers and only the context switch saves them.  (Linux's own
# random.c is scalar C too; the host build of rng/ may vectorise.)
# -nostdinc with gcc's own include directory: only the freestanding headers
# (stdint.h, stddef.h, stdarg.h, stdbool.h, cpuid.h), never the host libc's.
# -fno-omit-frame-pointer: panic's backtrace walks %rbp.

KCC     ?= gcc
KCFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdlib -nostdinc \
	-isystem $(shell $(KCC) -print-file-name=include) \
	-mno-red-zone -mcmodel=kernel -fno-pic -fno-pie -fno-omit-frame-pointer \
	-mgeneral-regs-only -fstack-protector-strong -fno-strict-aliasing \
	-fno-tree-loop-distribute-patterns -Wall -Wextra -Werror -I.

# A debug build: `make LOCKDEP=1 ...` checks the order in which every CPU
# takes the kernel's locks (rng/lockdep.h).  Not for measuring: the checks
# add to the draws the benchmarks count.  Rebuild from clean when switching.
ifeq ($(LOCKDEP),1)
KCFLAGS += -DRNG_LOCKDEP
endif
