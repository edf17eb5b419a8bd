# kernel/: the freestanding kernel, linked with rng/ and bench/ into build/kernel.elf.
#
# Compiler flags: kernel/flags.mk (KCC, KCFLAGS), shared with the checks.
NASM     ?= nasm
KLDFLAGS   := -nostdlib -static -no-pie -z max-page-size=4096 -z noexecstack -T kernel/kernel.ld

# Every kernel source, listed: a new file is built only when it is named here,
# so a stray or half-moved file cannot slip into (or out of) the image.
KERNEL_C := \
	kernel/arch/acpi.c kernel/arch/fw_cfg.c kernel/arch/gdt.c kernel/arch/idt.c kernel/arch/lapic.c \
	kernel/arch/machine_exit.c kernel/arch/page.c kernel/arch/pat.c kernel/arch/timer.c \
	kernel/arch/traps.c kernel/arch/tsc.c \
	kernel/aslr/stats.c kernel/aslr/suite.c \
	kernel/attack/lab.c \
	kernel/bench/job.c kernel/bench/platform.c kernel/bench/summary_screen.c \
	kernel/params/params.c kernel/run/run.c \
	kernel/console/fbcon.c kernel/console/fbcon_draw.c kernel/console/fbcon_vt.c \
	kernel/console/keyboard.c kernel/console/psf.c kernel/console/serial.c \
	kernel/fs/cpio.c kernel/fs/file.c kernel/fs/initramfs.c kernel/fs/inode.c kernel/fs/namei.c \
	kernel/fs/open.c kernel/fs/pipe.c kernel/fs/tty.c \
	kernel/fs/proc/array.c kernel/fs/proc/base.c kernel/fs/proc/fd.c kernel/fs/proc/inode.c kernel/fs/proc/path.c kernel/fs/proc/root.c \
	kernel/fs/proc/stat_format.c kernel/fs/proc/task_mmu.c \
	kernel/init/boot_record.c kernel/init/jobs.c kernel/init/main.c \
	kernel/lib/panic.c kernel/lib/printk.c kernel/lib/string.c kernel/lib/vsprintf.c \
	kernel/mm/ioremap.c kernel/mm/layout.c kernel/mm/mm.c kernel/mm/pmm.c kernel/mm/uaccess.c \
	kernel/mm/vmm.c \
	kernel/random/random.c \
	kernel/security/ptrace.c kernel/security/ptrace_rules.c \
	kernel/syscall/sys_attr.c kernel/syscall/sys_cred.c kernel/syscall/sys_file.c \
	kernel/syscall/sys_misc.c kernel/syscall/sys_mm.c kernel/syscall/sys_namei.c \
	kernel/syscall/sys_proc.c kernel/syscall/sys_stat.c kernel/syscall/syscall.c \
	kernel/task/exec.c kernel/task/exit.c kernel/task/fail_nth.c kernel/task/fault.c \
	kernel/task/fork.c kernel/task/sched.c kernel/task/task.c \
	kernel/task/signal.c kernel/task/signal_deliver.c \
	kernel/test/ktest.c kernel/test/test_arch.c kernel/test/test_aslr.c \
	kernel/test/test_attack.c kernel/test/test_ioremap.c kernel/test/test_mm.c \
	kernel/test/test_process.c kernel/test/test_procfs.c kernel/test/test_reliab.c \
	kernel/test/test_vfs.c kernel/test/test_aslr_draws.c kernel/test/fuzz_job.c \
	kernel/test/test_exec_stack.c
# The Linux process ABI (issue 14).
KERNEL_C += kernel/mm/mprotect.c kernel/task/binfmt_elf.c \
	kernel/syscall/sys_linux.c kernel/syscall/sys_signal.c kernel/syscall/syscall_names.c \
	kernel/test/test_linux.c
# filemap: file-backed mmap and the region list (issue 14).
KERNEL_C += kernel/mm/mmap.c kernel/mm/mremap.c kernel/fs/filemap.c kernel/test/test_linux_mmap.c
# exec from the file system (issue 14, branch exec).
KERNEL_C += kernel/syscall/exec_file.c kernel/fs/proc/exe.c kernel/test/test_exec.c \
	kernel/init/init_path.c
# The vDSO (issue 14): its image is built by kernel/arch/vdso/vdso.mk.
KERNEL_C += kernel/mm/vdso.c kernel/test/test_vdso.c
# poll/select, waitid and the bad-input tests (issue 14, branch poll).
KERNEL_C += kernel/fs/poll.c kernel/syscall/sys_poll.c kernel/syscall/sys_select.c \
	kernel/syscall/sys_waitid.c kernel/task/wait.c \
	kernel/test/test_poll.c
KERNEL_ASM := \
	kernel/arch/entry.asm kernel/arch/isr.asm kernel/arch/probe.asm kernel/arch/switch.asm
KERNEL_OBJS := $(patsubst %.c,$(BUILD)/k/%.o,$(KERNEL_C) $(BENCH_SRCS) $(COMMON_SRCS)) \
	$(patsubst %.c,$(BUILD)/k/%.o,$(RNG_SRCS)) \
	$(patsubst %.asm,$(BUILD)/k/%.o,$(KERNEL_ASM))

include kernel/console/font.mk
include kernel/version.mk
include kernel/arch/vdso/vdso.mk

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

include kernel/user/user.mk
-include $(KERNEL_OBJS:.o=.d)
