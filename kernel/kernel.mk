# kernel/: the freestanding kernel, linked with rng/ and bench/ into build/kernel.elf.
#
# Everything in the kernel, rng/ and bench/ included, is built
# -mgeneral-regs-only: no float, no SIMD, so no kernel path can clobber a user
# task's SIMD registers and only the context switch saves them.  (Linux's own
# random.c is scalar C too; the host build of rng/ may vectorise.)

KCC      ?= gcc
NASM     ?= nasm
KBASE_CFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdlib -nostdinc \
	-isystem $(shell $(KCC) -print-file-name=include) \
	-mno-red-zone -mcmodel=kernel -fno-pic -fno-pie -fno-omit-frame-pointer \
	-fstack-protector-strong -fno-strict-aliasing -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror -I.
KCFLAGS    := $(KBASE_CFLAGS) -mgeneral-regs-only
KRNG_CFLAGS := $(KCFLAGS)
KLDFLAGS   := -nostdlib -static -no-pie -z max-page-size=4096 -z noexecstack -T kernel/kernel.ld

KERNEL_C   := $(shell find kernel -name '*.c' -not -path 'kernel/user/*' | LC_ALL=C sort)
KERNEL_ASM := $(shell find kernel -name '*.asm' -not -path 'kernel/user/*' | LC_ALL=C sort)
KERNEL_OBJS := $(patsubst %.c,$(BUILD)/k/%.o,$(KERNEL_C) $(BENCH_SRCS)) \
	$(patsubst %.c,$(BUILD)/k/%.o,$(RNG_SRCS)) \
	$(patsubst %.asm,$(BUILD)/k/%.o,$(KERNEL_ASM)) $(BUILD)/user/progtab.o

-include kernel/console/font.mk
-include kernel/version.mk

$(BUILD)/k/rng/%.o: rng/%.c
	@mkdir -p $(@D)
	@echo "  KCC     $@"
	$(Q)$(KCC) $(KRNG_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/k/%.o: %.c
	@mkdir -p $(@D)
	@echo "  KCC     $@"
	$(Q)$(KCC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/k/%.o: %.asm
	@mkdir -p $(@D)
	@echo "  NASM    $@"
	$(Q)$(NASM) -f elf64 -g -MD $(@:.o=.d) -o $@ $<

$(BUILD)/kernel.elf: $(KERNEL_OBJS) $(KERNEL_EXTRA_OBJS) kernel/kernel.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KERNEL_OBJS) $(KERNEL_EXTRA_OBJS) $(shell $(KCC) -print-libgcc-file-name)

# The ESP copy: no debug info (build/kernel.elf keeps it for addr2line).
$(BUILD)/kernel.esp.elf: $(BUILD)/kernel.elf
	$(Q)objcopy --strip-debug $< $@

-include kernel/user/user.mk
-include $(KERNEL_OBJS:.o=.d)
