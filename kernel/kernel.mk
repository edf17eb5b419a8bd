# kernel/: the freestanding kernel, linked with rng/ and bench/ into build/kernel.elf.
#
# Compiler flags: kernel/flags.mk (KCC, KCFLAGS), shared with the checks.
NASM     ?= nasm
KLDFLAGS   := -nostdlib -static -no-pie -z max-page-size=4096 -z noexecstack -T kernel/kernel.ld

# Every kernel source, listed by directory: a new file is built only when it
# is named here, so a stray or half-moved file cannot slip into (or out of)
# the image.  The vDSO is ring-3 code: kernel/arch/vdso/vdso.mk builds it.
KERNEL_C :=
# kernel/arch/: x86_64: descriptors, interrupts, the local APIC, timers, page tables
KERNEL_C += kernel/arch/acpi.c kernel/arch/fpu.c kernel/arch/fw_cfg.c kernel/arch/gdt.c kernel/arch/idt.c \
	kernel/arch/lapic.c kernel/arch/machine_exit.c kernel/arch/page.c kernel/arch/pat.c \
	kernel/arch/rtc.c kernel/arch/smp.c kernel/arch/smpboot.c kernel/arch/timer.c kernel/arch/traps.c kernel/arch/tsc.c \
	kernel/arch/tsc_sync.c kernel/arch/kernel_lock.c kernel/arch/tlb.c kernel/arch/xstate.c
KERNEL_C += kernel/arch/clear_page.c
# kernel/aslr/: the ASLR rules, one file per Linux version
KERNEL_C += kernel/aslr/linux_2_6_29.c kernel/aslr/linux_6_x.c
# kernel/attack/: the attack lab (mode=attack)
KERNEL_C += kernel/attack/lab.c
# kernel/measure/: the benchmark job, the ASLR suite, the experiment policy
KERNEL_C += kernel/measure/aslr_stats.c kernel/measure/aslr_suite.c kernel/measure/job.c kernel/measure/scale.c \
	kernel/measure/platform.c kernel/measure/policy.c kernel/measure/summary_screen.c
# kernel/params/: the boot parameters' table and its one parser (lib layer)
KERNEL_C += kernel/params/params.c
# kernel/char/: get_random_int(): the kernel side of rng/
KERNEL_C += kernel/char/random.c
# kernel/console/: framebuffer console, keyboard, serial, the QR screen
KERNEL_C += kernel/console/fbcon.c kernel/console/fbcon_draw.c kernel/console/fbcon_vt.c \
	kernel/console/keyboard.c kernel/console/psf.c kernel/console/serial.c \
	kernel/console/qr_pages.c kernel/console/qr_screen.c
# kernel/fs/: files, the initramfs, pipes, the tty, poll
KERNEL_C += kernel/fs/cpio.c kernel/fs/file.c kernel/fs/filemap.c kernel/fs/initramfs.c \
	kernel/fs/inode.c kernel/fs/namei.c kernel/fs/names.c kernel/fs/open.c kernel/fs/pipe.c kernel/fs/poll.c \
	kernel/fs/tty.c
# kernel/fs/proc/: /proc
KERNEL_C += kernel/fs/proc/array.c kernel/fs/proc/base.c kernel/fs/proc/exe.c kernel/fs/proc/fd.c kernel/fs/proc/task.c \
	kernel/fs/proc/inode.c kernel/fs/proc/path.c kernel/fs/proc/root.c kernel/fs/proc/stat_format.c \
	kernel/fs/proc/task_mmu.c
# kernel/init/: start_kernel and the jobs a boot runs
KERNEL_C += kernel/init/boot_record.c kernel/init/init_path.c kernel/init/jobs.c kernel/init/main.c
# kernel/lib/: printk, panic, strings, formatting, the records kept for the QR screen
KERNEL_C += kernel/lib/panic.c kernel/lib/printk.c kernel/lib/records.c kernel/lib/spinlock.c \
	kernel/lib/string.c kernel/lib/vsprintf.c
# kernel/mm/: physical and virtual memory, mappings, the layout, the vDSO mapping
KERNEL_C += kernel/mm/ioremap.c kernel/mm/layout.c kernel/mm/mm.c kernel/mm/mmap.c \
	kernel/mm/mprotect.c kernel/mm/mremap.c kernel/mm/pmm.c kernel/mm/pmm_cpu.c \
	kernel/mm/uaccess.c kernel/mm/vdso.c \
	kernel/mm/vmm.c
# kernel/run/: what this run does (mode=, suite=, samples=, variants=)
KERNEL_C += kernel/run/run.c
# kernel/security/: the ptrace access rules
KERNEL_C += kernel/security/ptrace.c kernel/security/ptrace_rules.c
# kernel/syscall/: the system calls
KERNEL_C += kernel/syscall/exec_file.c kernel/syscall/sys_attr.c kernel/syscall/sys_cred.c \
	kernel/syscall/sys_file.c kernel/syscall/sys_futex.c kernel/syscall/sys_linux.c kernel/syscall/sys_misc.c \
	kernel/syscall/sys_mm.c kernel/syscall/sys_namei.c kernel/syscall/sys_poll.c kernel/syscall/sys_qr.c \
	kernel/syscall/sys_prio.c kernel/syscall/sys_proc.c kernel/syscall/sys_select.c kernel/syscall/sys_signal.c \
	kernel/syscall/sys_stat.c kernel/syscall/sys_syslog.c kernel/syscall/sys_rusage.c kernel/syscall/sys_waitid.c kernel/syscall/syscall.c \
	kernel/syscall/syscall_names.c kernel/syscall/sys_ia32.c kernel/syscall/syscall_32.c
# kernel/task/: processes: exec, fork, exit, wait, signals, the scheduler
KERNEL_C += kernel/task/binfmt_elf.c kernel/task/exec.c kernel/task/exit.c kernel/task/fail_nth.c kernel/task/fdtable.c \
	kernel/task/fault.c kernel/task/fork.c kernel/task/futex.c kernel/task/futex_exit.c kernel/task/sched.c kernel/task/rq.c kernel/task/signal.c \
	kernel/task/jobctl.c kernel/task/signal_deliver.c kernel/task/signal_32.c kernel/task/signal_fpu.c kernel/task/signal_struct.c \
	kernel/task/task.c kernel/task/pidmap.c kernel/task/loadavg.c kernel/task/nice.c \
	kernel/task/tls.c kernel/task/wait.c
# kernel/test/: the in-kernel tests (mode=test) and the fuzzer's kernel side.
# In run order: KTEST() entries sit in .ktests in link order.
KERNEL_C += kernel/test/ktest.c kernel/test/test_arch.c kernel/test/test_aslr.c \
	kernel/test/test_attack.c kernel/test/test_ioremap.c kernel/test/test_mm.c \
	kernel/test/test_jobctl.c kernel/test/test_process.c kernel/test/test_thread.c kernel/test/test_procfs.c kernel/test/test_reliab.c \
	kernel/test/test_vfs.c kernel/test/test_aslr_draws.c kernel/test/fuzz_job.c \
	kernel/test/test_exec_stack.c kernel/test/test_linux.c kernel/test/test_linux_mmap.c \
	kernel/test/test_exec.c kernel/test/test_exec_layout.c kernel/test/test_ia32.c kernel/test/test_futex.c kernel/test/test_vdso.c kernel/test/test_poll.c \
	kernel/test/test_crng.c \
	kernel/test/test_rng_simd.c \
	kernel/test/test_smp.c kernel/test/test_smp_pmm.c kernel/test/test_smp_sched.c \
	kernel/test/test_smp_stress.c
KERNEL_ASM := \
	kernel/arch/entry.asm kernel/arch/isr.asm kernel/arch/probe.asm kernel/arch/switch.asm \
	kernel/arch/trampoline.asm
KERNEL_OBJS := $(patsubst %.c,$(BUILD)/k/%.o,$(KERNEL_C) $(BENCH_SRCS) $(COMMON_SRCS) $(QR_SRCS)) \
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
	$(Q)scripts/check-simd.py $@ || { rm -f $@; exit 1; }

# The ESP copy: no debug info (build/kernel.elf keeps it for addr2line).
$(BUILD)/kernel.esp.elf: $(BUILD)/kernel.elf
	$(Q)objcopy --strip-debug $< $@

-include $(KERNEL_OBJS:.o=.d)
