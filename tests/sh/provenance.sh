#!/usr/bin/env bash
# TAP: the boot record's provenance (kernel/version.mk, boot/loader.c,
# kernel/init/boot_record.c, scripts/run-qemu.sh's fw_cfg "host" string).
# One short QEMU boot of build/aslrbench.iso, with QEMU wrapped so that it
# names a made-up version, which must come back in the boot record.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
matches() { [[ $1 =~ $2 ]] || { echo "'$1' does not match $2"; return 1; }; }
field() { python3 -c 'import json,sys
for l in open(sys.argv[1], errors="replace"):
    if l.startswith("@@ ") and "\"boot\"" in l:
        print(json.loads(l[3:]).get(sys.argv[2], "<absent>")); break' "$tmp/boot.log" "$1"; }

iso=$root/build/aslrbench.iso
elf=$root/build/kernel.esp.elf
if [ ! -s "$iso" ] || [ ! -s "$elf" ]; then
	echo "1..0 # SKIP build/aslrbench.iso not built (make iso)"
	exit 0
fi
cat >"$tmp/qemu" <<'WRAP'
#!/bin/sh
if [ "$1" = --version ]; then
	echo "QEMU emulator version test-1.2"
	exit 0
fi
exec qemu-system-x86_64 "$@"
WRAP
chmod +x "$tmp/qemu"
started=$(date -u +%s)
QEMU=$tmp/qemu "$root/scripts/run-qemu.sh" --iso "$iso" --timeout 120 \
	--cmdline "mode=bench suite=timer samples=20" --log "$tmp/boot.log" >/dev/null 2>&1
tap_run "boot with provenance ran" grep -q '^@@ {"type":"boot"' "$tmp/boot.log"
tap_run "kernel_sha256 is sha256sum of the ESP's kernel.elf" \
	eq "$(field kernel_sha256)" "$(sha256sum "$elf" | cut -d' ' -f1)"
# What the build baked into the image (kernel/version.mk: git describe and
# SOURCE_DATE_EPOCH at build time) must come back through the boot record.
# The tree, and build/gen/version.c, may have moved on since the image was
# built, so the value is looked up in the image's own kernel.
in_image() {
	if [ -z "$1" ] || ! strings -a -n 4 "$elf" | grep -xF -- "$1" >/dev/null; then
		echo "'$1' is not a string of $elf"
		return 1
	fi
}
v=$(field version)
tap_run "version is a git describe baked into the image" eval "in_image '$v' && matches '$v' '^[0-9A-Za-z._+-]+$'"
d=$(field build_date)
tap_run "build_date is baked into the image, not now" \
	eval "in_image '$d' && matches '$d' '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'"
# The RTC's wall clock (QEMU's is UTC): the boot began after $started and
# within the boot's own time limit.
near_start() {
	local t
	t=$(date -u -d "$1" +%s 2>/dev/null) || { echo "'$1' is not a date"; return 1; }
	if [ "$t" -lt $((started - 5)) ] || [ "$t" -gt $((started + 130)) ]; then
		echo "'$1' is not between the boot's start and its time limit"
		return 1
	fi
}
t=$(field time)
tap_run "time is the RTC's, ISO 8601, when the boot ran" \
	eval "matches '$t' '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$' && near_start '$t'"
# "EDK II" (Debian 12's OVMF) or "Debian distribution of EDK II" (Debian 13's)
tap_run "fw_vendor from the UEFI system table" matches "$(field fw_vendor)" '^(.* )?EDK II$'
tap_run "uefi_revision major.minor" matches "$(field uefi_revision)" '^2\.[0-9]+(\.[0-9])?$'
# run-qemu.sh's firmware: scripts/ovmf-fetch.sh's when it is there, else Debian 12's package
if [ -r "$root/build/ovmf/root/usr/share/OVMF/OVMF_CODE_4M.fd" ]; then
	ovmf=$(cat "$root/build/ovmf/VERSION")
else
	ovmf=$(dpkg-query -W -f='${Version}' ovmf 2>/dev/null || echo unknown)
fi
tap_run "host string from run-qemu.sh's fw_cfg (comma escaped by QEMU's ,,)" \
	eq "$(field host)" "qemu=test-1.2,ovmf=${ovmf:-unknown}"
tap_done
