# paxtest/: Debian's paxtest, unchanged, in the initramfs, and the
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

# make paxtest: the README's three paxtest figures, about 10 min under TCG: the
# anonymous-mapping test (randamap) with randomize_va_space 2 and 0 on the
# x86_64 profile and 2 on ia32, plus paxtest blackhat on this machine's Linux.
# make paxtest-full: paxtest blackhat, unchanged, for every RNG variant, both
# profiles and randomize_va_space 0/1/2 (54 boots of about 32 min each under
# TCG: a day; PAXTEST_ARGS narrows it, e.g. --variants chacha20-batched).
PAXTEST_VARIANTS := prandom,ipid-2.6.29,md4-2.6.30,sha1-mackall,urandom-2.6.29,md5-3.x,chacha20-batched,chacha20-wide,rdrand
PAXTEST_ARGS ?=

# make paxtest-ia32: Debian's i386 paxtest (fetched with apt-get download,
# paxtest/ia32.sh) as IA-32 programs in the kernel: randamap under the 2.6.29
# and 6.x rules (two boots of about 2 min under TCG).
PAXTEST_IA32_ARGS ?=

.PHONY: paxtest paxtest-full paxtest-ia32
paxtest-ia32: iso
	$(Q)paxtest/ia32.sh $(PAXTEST_IA32_ARGS)

paxtest: iso
	$(Q)paxtest/run.sh --tests randamap --profiles x86_64 --rva 2,0 --host $(PAXTEST_ARGS)
	$(Q)paxtest/run.sh --tests randamap --profiles ia32 --rva 2 $(PAXTEST_ARGS)
	$(Q)cat $(BUILD)/paxtest/paxtest.md

paxtest-full: iso
	$(Q)paxtest/run.sh --variants $(PAXTEST_VARIANTS) --profiles x86_64,ia32 --rva 2,1,0 \
		--host --out $(BUILD)/paxtest-full $(PAXTEST_ARGS)
	$(Q)cat $(BUILD)/paxtest-full/paxtest.md
