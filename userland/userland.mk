# userland/: the shell of mode=shell (issue 15).  Debian's busybox-static as
# /bin/busybox with a link per applet (sh, ls, cat, ps, ...; `busybox
# --list` of the build machine's copy), the project's shell commands as
# static musl programs in /bin (they replace busybox's applets of the same
# name: su, poweroff), and /etc/profile (prompt, `help`).  Everything goes
# to the staging directory $(INITRD_USERLAND), one of iso/iso.mk's INITRD_DIRS.
USERLAND_CMDS := su rng attack aslr poweroff bench run
USERLAND_BINS := $(USERLAND_CMDS:%=$(BUILD)/userland/%)
USERLAND_CFLAGS := -std=gnu11 -O2 -s -Wall -Wextra -Werror -D_GNU_SOURCE -isystem .
USERLAND_FILES := $(shell find userland/rootfs -print 2>/dev/null)
INITRD_USERLAND := $(BUILD)/initrd-userland
BUSYBOX := /bin/busybox

$(BUILD)/userland/%: userland/src/%.c userland/src/cmd.h kernel/uapi/aslrbench.h
	@mkdir -p $(@D)
	@echo "  MUSLCC  $@"
	$(Q)musl-gcc -static $(USERLAND_CFLAGS) -o $@ $<

# Applet links point at /bin/busybox (as busybox --install -s makes them); a
# project command of the same name is a file and replaces the link.  No
# init or linuxrc link: /sbin/init is the project's init (kernel/user/init.c).
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
