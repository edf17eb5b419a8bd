# userland/: every ring-3 program of the project, static musl executables
# in the initramfs.  The kernel embeds no program: it runs files.
#   src/     the programs: /sbin/init, the attack lab's lab_attacker, the
#            b_proc benchmark, and the shell's commands (below)
#   test/    the ring-3 halves of the in-kernel tests (t_*, spawned by
#            kernel/test/) and the syscall fuzzer (mode=fuzz)
#   lib/     what they share: aslrbench_user.h (the kernel's own calls
#            through musl's syscall(2)) and cmd.h (the shell commands')
#   rootfs/  files copied as they are (/etc/profile, ...)
# The Linux test programs (tests/linux/linux.mk, LINUX_PROGS) are installed
# next to the project's programs.
#
# The project's programs run by the kernel's jobs and tests: static PIE
# (ASLRBENCH_PROGS, below), installed as /sbin/init and /bin/NAME.
ASLRBENCH_PROGS := init t_nop t_sleep t_park t_canary t_fault t_layout t_sched t_fork t_efault \
	b_proc t_procfs lab_attacker t_reliab fuzz t_failnth t_vfs t_int80 t_spin b_scale t_stress

# The shell of mode=shell.  Debian's busybox-static as
# /bin/busybox with a link per applet (sh, ls, cat, ps, ...; `busybox
# --list` of the build machine's copy), the project's shell commands as
# static musl programs in /bin (they replace busybox's applets of the same
# name: su, poweroff), and /etc/profile (prompt, `help`).  Everything goes
# to the staging directory $(INITRD_USERLAND), one of iso/iso.mk's INITRD_DIRS.
USERLAND_CMDS := su rng attack aslr poweroff bench run qr
USERLAND_BINS := $(USERLAND_CMDS:%=$(BUILD)/userland/%)
USERLAND_CFLAGS := -std=gnu11 -O2 -s -Wall -Wextra -Werror -D_GNU_SOURCE -isystem .
USERLAND_FILES := $(shell find userland/rootfs -print 2>/dev/null)
INITRD_USERLAND := $(BUILD)/initrd-userland
BUSYBOX := /bin/busybox

$(BUILD)/userland/%: userland/src/%.c userland/lib/cmd.h kernel/uapi/aslrbench.h
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -static $(USERLAND_CFLAGS) -o $@ $<

# Applet links point at /bin/busybox (as busybox --install -s makes them); a
# project command of the same name is a file and replaces the link.  No
# init or linuxrc link: /sbin/init is the project's init (userland/src/init.c).
$(INITRD_USERLAND).stamp: $(USERLAND_BINS) $(USERLAND_FILES) $(BUSYBOX) userland/userland.mk
	@echo "  INSTALL $(INITRD_USERLAND)"
	$(Q)rm -rf $(INITRD_USERLAND) && mkdir -p $(INITRD_USERLAND)/bin
	$(Q)cp -a userland/rootfs/. $(INITRD_USERLAND)/
	$(Q)cp $(BUSYBOX) $(INITRD_USERLAND)/bin/busybox
	$(Q)for a in $$($(BUSYBOX) --list-full); do \
	  case $$a in sbin/init | linuxrc) continue ;; esac; \
	  d=$(INITRD_USERLAND)/$$(dirname $$a); mkdir -p $$d; \
	  [ -e $(INITRD_USERLAND)/$$a ] || ln -s /bin/busybox $(INITRD_USERLAND)/$$a; done
	$(Q)for c in $(USERLAND_CMDS); do rm -f $(INITRD_USERLAND)/*/$$c $(INITRD_USERLAND)/usr/*/$$c; \
	  cp $(BUILD)/userland/$$c $(INITRD_USERLAND)/bin/$$c; done
	$(Q)touch $@

$(BUILD)/initrd.cpio: $(INITRD_USERLAND).stamp

# The fuzzer is two files: its generator links into it.
$(BUILD)/user/musl/fuzz: userland/test/fuzz_gen.c userland/test/fuzz.h
$(BUILD)/user/musl/b_proc: common/tsc.h

# The project's programs on musl: static PIE (the ASLR suites draw an
# exe base only for ET_DYN programs), linked by hand as lx_musl_pie is.
# They include userland/lib/aslrbench_user.h (musl's headers, the kernel's
# own calls through syscall(2)); stripped, no hand-written code beneath.
ASLRBENCH_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -I. -fPIE
ASLRBENCH_LINK = musl-gcc -static-pie -nostartfiles -s $(ASLRBENCH_CFLAGS) \
	  -Wl,-static,-pie,--no-dynamic-linker,-z,text,-z,noexecstack -o $@ $(MUSL_LIB)/rcrt1.o \
	  $(MUSL_LIB)/crti.o $$(gcc -print-file-name=crtbeginS.o) $(filter %.c,$^) \
	  $$(gcc -print-file-name=crtendS.o) $(MUSL_LIB)/crtn.o
$(BUILD)/user/musl/%: userland/src/%.c userland/lib/aslrbench_user.h kernel/uapi/aslrbench.h
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)$(ASLRBENCH_LINK)
$(BUILD)/user/musl/%: userland/test/%.c userland/lib/aslrbench_user.h kernel/uapi/aslrbench.h
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)$(ASLRBENCH_LINK)

# Their staging directory, packed into the initramfs (iso/iso.mk INITRD_DIRS):
# /sbin/init (where Linux looks for init first) and /bin/NAME for the others;
# the kernel's jobs spawn them by these paths (aslrbench_prog_path).
ASLRBENCH_INITRD := $(BUILD)/initrd-aslrbench
# The Linux programs (LINUX_PROGS, NAME=FILE) go there too, as /bin/NAME.
$(ASLRBENCH_INITRD).stamp: $(ASLRBENCH_PROGS:%=$(BUILD)/user/musl/%) $(LINUX_FILES) userland/userland.mk
	@echo "  INSTALL $(ASLRBENCH_INITRD)"
	$(Q)rm -rf $(ASLRBENCH_INITRD) && mkdir -p $(ASLRBENCH_INITRD)/bin $(ASLRBENCH_INITRD)/sbin
	$(Q)for p in $(ASLRBENCH_PROGS); do \
	  d=bin; [ $$p = init ] && d=sbin; install -m 755 $(BUILD)/user/musl/$$p $(ASLRBENCH_INITRD)/$$d/$$p; done
	$(Q)for np in $(LINUX_PROGS); do install -m 755 $${np#*=} $(ASLRBENCH_INITRD)/bin/$${np%%=*}; done
	$(Q)touch $@
$(BUILD)/initrd.cpio: $(ASLRBENCH_INITRD).stamp
