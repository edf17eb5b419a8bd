# paxtest/: Debian's paxtest (issue 15), unchanged, in the initramfs, and the
# runs that turn its lines into `@@ {"type":"paxtest",...}` records.
#
# $(PAXTEST_ROOT) is this fragment's staging directory (one of iso/iso.mk's
# INITRD_DIRS): /usr/bin/paxtest and /usr/lib/paxtest/* as Debian installs
# them, the glibc libraries its programs need beyond iso/iso.mk's ld-linux and
# libc.so.6 (libdl.so.2, libpthread.so.0), and busybox with the applets
# /usr/bin/paxtest and popen(3) use (sh, tee, uname, cat, echo, touch), at
# the paths the `userland` branch gives them (and awk, cut for
# /bin/paxtest-records, this directory's runner).
PAXTEST_ROOT := $(BUILD)/paxtest-root
PAXTEST_LIBS := /lib/x86_64-linux-gnu/libdl.so.2 /lib/x86_64-linux-gnu/libpthread.so.0
PAXTEST_APPLETS := sh tee uname cat echo touch awk cut
PAXTEST_FILES := /usr/bin/paxtest $(wildcard /usr/lib/paxtest/*)

$(PAXTEST_ROOT).stamp: $(PAXTEST_FILES) $(PAXTEST_LIBS) /bin/busybox paxtest/paxtest.mk \
		paxtest/paxtest-records
	@echo "  INSTALL $(PAXTEST_ROOT)"
	$(Q)test -x /usr/bin/paxtest || { echo "paxtest is not installed: run scripts/deps.sh" >&2; exit 1; }
	$(Q)rm -rf $(PAXTEST_ROOT) && mkdir -p $(PAXTEST_ROOT)/usr/bin $(PAXTEST_ROOT)/usr/lib/paxtest \
		$(PAXTEST_ROOT)/lib/x86_64-linux-gnu $(PAXTEST_ROOT)/bin
	$(Q)cp /usr/bin/paxtest $(PAXTEST_ROOT)/usr/bin/
	$(Q)cp /usr/lib/paxtest/* $(PAXTEST_ROOT)/usr/lib/paxtest/
	$(Q)cp -L $(PAXTEST_LIBS) $(PAXTEST_ROOT)/lib/x86_64-linux-gnu/
	$(Q)cp /bin/busybox paxtest/paxtest-records $(PAXTEST_ROOT)/bin/
	$(Q)for a in $(PAXTEST_APPLETS); do ln -s busybox $(PAXTEST_ROOT)/bin/$$a; done
	$(Q)touch $@

$(BUILD)/initrd.cpio: $(PAXTEST_ROOT).stamp
