# tests/linux/: Linux programs, unchanged: the same test program built as
# static musl, static-pie musl, static glibc and static-pie glibc, and
# Debian's busybox (busybox-static), installed in the initramfs as /bin/NAME
# (userland/userland.mk's staging directory).  The kernel loads them as
# Linux does (no relocation by the kernel).  More prebuilt static ELFs can be added:
#   make EXTRA_ELF="name=/path/to/static-elf ..."
LINUX_CFLAGS := -O2 -s -Wall -Wextra -Werror
LINUX_PROGS := lx_musl=$(BUILD)/user/linux/lx_musl lx_musl_pie=$(BUILD)/user/linux/lx_musl_pie \
	lx_musl_dyn=$(BUILD)/user/linux/lx_musl_dyn \
	lx_glibc=$(BUILD)/user/linux/lx_glibc lx_glibc_pie=$(BUILD)/user/linux/lx_glibc_pie \
	busybox=/bin/busybox $(EXTRA_ELF)
# filemap: tests/linux/lx_mmap.c (file-backed mmap, munmap/mprotect of any range)
LINUX_PROGS += lx_mmap_musl=$(BUILD)/user/linux/lx_mmap_musl \
	lx_mmap_glibc=$(BUILD)/user/linux/lx_mmap_glibc
# The vDSO's test: static musl and static glibc.
LINUX_PROGS += lx_vdso_musl=$(BUILD)/user/linux/lx_vdso_musl \
	lx_vdso_glibc=$(BUILD)/user/linux/lx_vdso_glibc
# poll/select/waitid (tests/linux/lx_poll.c) and the bad-input program (lx_bad.c: oom, forkbomb).
LINUX_PROGS += lx_poll_musl=$(BUILD)/user/linux/lx_poll_musl \
	lx_poll_glibc=$(BUILD)/user/linux/lx_poll_glibc lx_bad=$(BUILD)/user/linux/lx_bad
# Signals: within a process (tests/linux/lx_signal.c) and between processes
# (lx_sigproc.c), static musl and static glibc.
LINUX_PROGS += lx_signal_musl=$(BUILD)/user/linux/lx_signal_musl \
	lx_signal_glibc=$(BUILD)/user/linux/lx_signal_glibc \
	lx_sigproc_musl=$(BUILD)/user/linux/lx_sigproc_musl \
	lx_sigproc_glibc=$(BUILD)/user/linux/lx_sigproc_glibc
# /proc/PID/maps whole past a page (tests/linux/lx_maps.c, static musl; it runs busybox cat).
LINUX_PROGS += lx_maps=$(BUILD)/user/linux/lx_maps
# SSE and AVX registers kept across system calls, switches and signals (tests/linux/lx_fpu.c, static musl).
LINUX_PROGS += lx_fpu=$(BUILD)/user/linux/lx_fpu
# Creates in a removed directory (tests/linux/lx_deaddir.c, static musl).
LINUX_PROGS += lx_deaddir=$(BUILD)/user/linux/lx_deaddir
# Error numbers at Linux's limits (tests/linux/lx_errno.c, static musl).
LINUX_PROGS += lx_errno=$(BUILD)/user/linux/lx_errno
# /proc/1 read with the reader's credentials, wchan per rule set (tests/linux/lx_procread.c).
LINUX_PROGS += lx_procread=$(BUILD)/user/linux/lx_procread
# What uid 1000 reads in /proc, compared with Linux 6.12's (tests/linux/lx_procfid.c).
LINUX_PROGS += lx_procfid=$(BUILD)/user/linux/lx_procfid
# getrandom(2) on every path, compared with Linux 6.12's (tests/linux/lx_getrandom.c).
LINUX_PROGS += lx_getrandom=$(BUILD)/user/linux/lx_getrandom
# Linux 6.12's __vdso_getrandom and MAP_DROPPABLE, also run under Linux 6.12 (tests/linux/lx_vgetrandom.c).
LINUX_PROGS += lx_vgetrandom=$(BUILD)/user/linux/lx_vgetrandom
# Pids that must not come back, and /proc files kept across a pid's reuse (tests/linux/lx_pidreuse.c).
LINUX_PROGS += lx_pidreuse=$(BUILD)/user/linux/lx_pidreuse
# clone, vfork, exit_group and futex at their edges (tests/linux/lx_reliab.c).
LINUX_PROGS += lx_reliab=$(BUILD)/user/linux/lx_reliab
# Pinned processes at a sched_yield barrier, then getrandom: none starved (tests/linux/lx_starve.c).
LINUX_PROGS += lx_starve=$(BUILD)/user/linux/lx_starve
# Files grown to a full ramfs in bounded time (tests/linux/lx_bigwrite.c, kernel only).
LINUX_PROGS += lx_bigwrite=$(BUILD)/user/linux/lx_bigwrite
# A rename the sticky bit refuses, 1,100 times (tests/linux/lx_sticky.c).
LINUX_PROGS += lx_sticky=$(BUILD)/user/linux/lx_sticky
# Long reads and writes yield and keep the position (tests/linux/lx_rwyield.c, kernel only).
LINUX_PROGS += lx_rwyield=$(BUILD)/user/linux/lx_rwyield
# futex(2) between processes on a MAP_SHARED page (tests/linux/lx_futex.c), static musl and glibc.
LINUX_PROGS += lx_futex_musl=$(BUILD)/user/linux/lx_futex_musl \
	lx_futex_glibc=$(BUILD)/user/linux/lx_futex_glibc
# Where a static PIE and its brk land, per rule set (tests/linux/lx_layout.c, gcc -static-pie).
LINUX_PROGS += lx_layout=$(BUILD)/user/linux/lx_layout
# Threads (tests/linux/lx_thread.c): static musl and static glibc here, the
# dynamic glibc build from the initramfs (lx_thread_glibc_dyn, iso/iso.mk).
LINUX_PROGS += lx_thread_musl=$(BUILD)/user/linux/lx_thread_musl \
	lx_thread_glibc=$(BUILD)/user/linux/lx_thread_glibc
# Job control and CPU times (tests/linux/lx_jobctl.c): static musl and static glibc.
LINUX_PROGS += lx_jobctl_musl=$(BUILD)/user/linux/lx_jobctl_musl \
	lx_jobctl_glibc=$(BUILD)/user/linux/lx_jobctl_glibc
# Nice levels (tests/linux/lx_nice.c): static musl and static glibc.
LINUX_PROGS += lx_nice_musl=$(BUILD)/user/linux/lx_nice_musl \
	lx_nice_glibc=$(BUILD)/user/linux/lx_nice_glibc
# What common operations cost, the same probe under aslrbench and Linux 6.12
# (tests/linux/lx_costprobe.c, scripts/linux-cost.sh): static glibc and static musl.
LINUX_PROGS += lx_costprobe_glibc=$(BUILD)/user/linux/lx_costprobe_glibc \
	lx_costprobe_musl=$(BUILD)/user/linux/lx_costprobe_musl lx_nop=$(BUILD)/user/linux/lx_nop
# An IA-32 program (tests/linux/lx_ia32.c, gcc -m32 -static: gcc-multilib).
LINUX_PROGS += lx_ia32=$(BUILD)/user/linux/lx_ia32
LINUX_FILES := $(foreach p,$(LINUX_PROGS),$(lastword $(subst =, ,$(p))))

$(BUILD)/user/linux/lx_musl: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -static $(LINUX_CFLAGS) -o $@ $<

# Debian's musl-gcc has no -static-pie spec: rcrt1.o (the self-relocating
# start) and the static-pie link options are given by hand.
MUSL_LIB := /usr/lib/x86_64-linux-musl
$(BUILD)/user/linux/lx_musl_pie: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -fPIE -static-pie -nostartfiles $(LINUX_CFLAGS) \
	  -Wl,-static,-pie,--no-dynamic-linker,-z,text -o $@ $(MUSL_LIB)/rcrt1.o $(MUSL_LIB)/crti.o \
	  $$(gcc -print-file-name=crtbeginS.o) $< $$(gcc -print-file-name=crtendS.o) $(MUSL_LIB)/crtn.o

# A dynamic PIE (PT_INTERP /lib/ld-musl-x86_64.so.1): refused until exec from files.
$(BUILD)/user/linux/lx_musl_dyn: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -fPIE -pie $(LINUX_CFLAGS) -o $@ $<

$(BUILD)/user/linux/lx_glibc: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -static $(LINUX_CFLAGS) -o $@ $<

$(BUILD)/user/linux/lx_glibc_pie: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -static-pie -fPIE $(LINUX_CFLAGS) -o $@ $<

# Every other test program of tests/linux/: NAME_musl (static musl) and
# NAME_glibc (static glibc) from tests/linux/NAME.c.
$(BUILD)/user/linux/%_musl: tests/linux/%.c
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -static $(LINUX_CFLAGS) -o $@ $<

$(BUILD)/user/linux/%_glibc: tests/linux/%.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -static $(LINUX_CFLAGS) -o $@ $<

# The programs built once, as static musl, from tests/linux/NAME.c (lx_exec,
# execve from files, #! scripts and the exec errors, runs from the initramfs:
# its checks exec its own file, see iso/iso.mk).
LX_MUSL_ONLY := lx_maps lx_fpu lx_deaddir lx_errno lx_errsweep lx_procread lx_procfid lx_getrandom \
	lx_vgetrandom lx_pidreuse lx_reliab lx_starve lx_bigwrite lx_rwyield lx_sticky \
	lx_bad lx_exec
$(addprefix $(BUILD)/user/linux/,$(LX_MUSL_ONLY)): $(BUILD)/user/linux/%: tests/linux/%.c
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -static $(LINUX_CFLAGS) -o $@ $<

# Dynamic glibc, run against Debian 13's glibc 2.41 by tests/sh/vgetrandom.sh
# (not in the initramfs: Debian 12's 2.36 makes every getrandom a system call).
$(BUILD)/user/linux/lx_vgr_glibc: tests/linux/lx_vgr_glibc.c tests/linux/lx_check.h
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc $(LINUX_CFLAGS) -o $@ $<

# What the probe's exec and spawn rows run: an entry point that exits.
$(BUILD)/user/linux/lx_nop: tests/linux/lx_nop.c
	@mkdir -p $(@D)
	@echo "  GCC     $@"
	$(Q)gcc -static -nostdlib -fno-stack-protector $(LINUX_CFLAGS) -o $@ $<

# The same probe dynamic, run against Debian 13's glibc 2.41 by
# scripts/linux-cost.sh for its vgetrandom rows (the vDSO's getrandom).
$(BUILD)/user/linux/lx_costprobe_dyn: tests/linux/lx_costprobe.c tests/linux/lx_check.h
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc $(LINUX_CFLAGS) -o $@ $<

# Every test program of tests/linux/ prints its check and summary lines through lx_check.h.
$(filter-out %/lx_bad,$(filter $(BUILD)/user/linux/%,$(LINUX_FILES))) $(BUILD)/user/linux/lx_exec \
	$(BUILD)/user/linux/lx_badinterp $(BUILD)/user/linux/lx_glibc_dyn \
	$(BUILD)/user/linux/lx_thread_glibc_dyn: tests/linux/lx_check.h
$(foreach p,lx_signal lx_sigproc,$(BUILD)/user/linux/$(p)_musl $(BUILD)/user/linux/$(p)_glibc): \
	tests/linux/lx_sig.h

$(BUILD)/user/linux/lx_layout: tests/linux/lx_layout.c tests/linux/lx_check.h
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -static-pie -fPIE $(LINUX_CFLAGS) -o $@ $<

# lx_badinterp: a dynamic musl PIE whose PT_INTERP names a file that does
# not exist (exec gives ENOENT, as Linux); installed as /bin/lx_badinterp.
$(BUILD)/user/linux/lx_badinterp: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -fPIE -pie $(LINUX_CFLAGS) -Wl,--dynamic-linker=/lib/ld-lx-missing.so.1 -o $@ $<

# lx_glibc_dyn: lx_test as a dynamic glibc PIE (PT_INTERP
# /lib64/ld-linux-x86-64.so.2, libc.so.6 mapped by ld.so with mmap of the
# file); installed as /bin/lx_glibc_dyn with glibc's runtime (iso/iso.mk).
$(BUILD)/user/linux/lx_glibc_dyn: tests/linux/lx_test.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -fPIE -pie $(LINUX_CFLAGS) -o $@ $<

# lx_thread_glibc_dyn: lx_thread as a dynamic glibc PIE (libc.so.6 holds
# pthreads since glibc 2.34); installed as /bin/lx_thread_glibc_dyn.
$(BUILD)/user/linux/lx_thread_glibc_dyn: tests/linux/lx_thread.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -fPIE -pie $(LINUX_CFLAGS) -o $@ $<

# IA-32: ELFCLASS32 EM_386, run in compatibility mode (docs/linux-abi.md, "IA-32 programs").
$(BUILD)/user/linux/lx_ia32: tests/linux/lx_ia32.c tests/linux/lx_check.h
	@mkdir -p $(@D)
	@echo "  GCC -m32 $@"
	$(Q)gcc -m32 -static $(LINUX_CFLAGS) -o $@ $<

# Where each region lands, one line per exec (tests/linux/lx_layoutprobe.c),
# for tests/sh/linux-ref.sh's comparison of aslrbench with Linux 6.12:
# non-PIE static, static PIE, dynamic glibc PIE and IA-32 static.  Not
# embedded: the test adds them with --add.
LX_LAYOUTPROBES := $(addprefix $(BUILD)/user/linux/lx_layoutprobe_,static spie dyn m32)
$(BUILD)/user/linux/lx_layoutprobe_static: tests/linux/lx_layoutprobe.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -static -no-pie $(LINUX_CFLAGS) -o $@ $<
$(BUILD)/user/linux/lx_layoutprobe_spie: tests/linux/lx_layoutprobe.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -static-pie -fPIE $(LINUX_CFLAGS) -o $@ $<
$(BUILD)/user/linux/lx_layoutprobe_dyn: tests/linux/lx_layoutprobe.c
	@mkdir -p $(@D)
	@echo "  GLIBCC  $@"
	$(Q)gcc -fPIE -pie $(LINUX_CFLAGS) -o $@ $<
$(BUILD)/user/linux/lx_layoutprobe_m32: tests/linux/lx_layoutprobe.c
	@mkdir -p $(@D)
	@echo "  GCC -m32 $@"
	$(Q)gcc -m32 -static $(LINUX_CFLAGS) -o $@ $<
