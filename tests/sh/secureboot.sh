#!/usr/bin/env bash
# TAP: the host half of Secure Boot (docs/secure-boot.md), no QEMU: the
# loader's .sbat section, scripts/seal-loader.py's record, mkimage.sh's
# sealing, signing and shim layout, scripts/ovmf-vars.py's MokList record.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
export MTOOLS_SKIP_CHECK=1 SOURCE_DATE_EPOCH=0

efi=$root/build/boot/BOOTX64.EFI
if [ ! -s "$efi" ] || ! command -v sbsign >/dev/null; then
	echo "1..0 # SKIP build/boot/BOOTX64.EFI not built or sbsigntool missing"
	exit 0
fi
# The seal record after its magic: sealed, has_initrd, two SHA-256 (hex).
seal() { python3 -c 'import sys
b=open(sys.argv[1],"rb").read(); i=b.index(b"ASLRBENCH-SEAL-1")+16
print(b[i:i+8].hex(), b[i+8:i+40].hex(), b[i+40:i+72].hex())' "$1"; }

tap_run ".sbat carries the sbat and aslrbench generation lines" \
	bash -c "objcopy -O binary --only-section=.sbat '$efi' '$tmp/sbat' && grep -q '^sbat,1,' '$tmp/sbat' && grep -q '^aslrbench,1,' '$tmp/sbat'"
tap_run "the built loader is unsealed" eq "$(seal "$efi")" "$(printf '%0144d' 0 | sed 's/\(.\{16\}\)\(.\{64\}\)/\1 \2 /')"

head -c 5000 /dev/urandom >"$tmp/kernel.elf"
head -c 3000 /dev/urandom >"$tmp/initrd.cpio"
echo "mode=test" >"$tmp/cmdline.txt"
k=$(sha256sum "$tmp/kernel.elf" | cut -d' ' -f1)
i=$(sha256sum "$tmp/initrd.cpio" | cut -d' ' -f1)
cp "$efi" "$tmp/l.efi"
"$root/scripts/seal-loader.py" "$tmp/l.efi" --kernel "$tmp/kernel.elf" --initrd "$tmp/initrd.cpio"
tap_run "seal-loader.py writes both hashes" eq "$(seal "$tmp/l.efi")" "0100000001000000 $k $i"
tap_run "the seal changes only its record" \
	eq "$(cmp -l "$efi" "$tmp/l.efi" | awk 'NR == 1 { a = $1 } END { print ($1 - a < 72) }')" 1

"$root/scripts/keys.sh" "$tmp/keys" >/dev/null
export SIGN_KEY=$tmp/keys/aslrbench.key SIGN_CERT=$tmp/keys/aslrbench.crt
"$root/iso/mkimage.sh" esp "$tmp/esp.img" --efi "$efi" --kernel "$tmp/kernel.elf" \
	--initrd "$tmp/initrd.cpio" --cmdline-file "$tmp/cmdline.txt" --shim
mcopy -n -i "$tmp/esp.img" ::/EFI/BOOT/grubx64.efi ::/EFI/BOOT/BOOTX64.EFI ::/EFI/BOOT/mmx64.efi \
	::/aslrbench-MOK.cer "$tmp/" 2>/dev/null
tap_run "shim layout: shim is BOOTX64.EFI" cmp -s "$tmp/BOOTX64.EFI" /usr/lib/shim/shimx64.efi.signed
tap_run "shim layout: MokManager and the MOK in DER" \
	cmp -s "$tmp/aslrbench-MOK.cer" "$tmp/keys/aslrbench.cer"
tap_run "grubx64.efi is signed with the MOK" sbverify --cert "$SIGN_CERT" "$tmp/grubx64.efi"
tap_run "grubx64.efi is sealed for the ESP's files" eq "$(seal "$tmp/grubx64.efi")" "0100000001000000 $k $i"

# A new initramfs: reseal and re-sign (what run-qemu.sh --add does).
head -c 4000 /dev/urandom >"$tmp/initrd2.cpio"
"$root/iso/mkimage.sh" set-initrd "$tmp/esp.img" "$tmp/initrd2.cpio"
mcopy -o -n -i "$tmp/esp.img" ::/EFI/BOOT/grubx64.efi "$tmp/" 2>/dev/null
tap_run "set-initrd reseals" eq "$(seal "$tmp/grubx64.efi")" \
	"0100000001000000 $k $(sha256sum "$tmp/initrd2.cpio" | cut -d' ' -f1)"
tap_run "set-initrd re-signs" sbverify --cert "$SIGN_CERT" "$tmp/grubx64.efi"
tap_run "the signature list holds one signature" eq "$(sbverify --list "$tmp/grubx64.efi" 2>/dev/null | grep -c '^signature')" 1

vars=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
if [ -r "$vars" ]; then
	"$root/scripts/ovmf-vars.py" "$vars" "$tmp/vars.fd" --mok "$tmp/keys/aslrbench.cer"
	tap_run "ovmf-vars.py keeps the file size" eq "$(stat -c %s "$tmp/vars.fd")" "$(stat -c %s "$vars")"
	tap_run "MokList is the store's last variable, NV|BS, shim's GUID" eq \
		"$("$root/scripts/ovmf-vars.py" "$tmp/vars.fd" --list | tail -1 | cut -d' ' -f2-4)" \
		"state=0x3f attr=0x3 605dab50-e046-4300-abb6-3dd810dd8b23"
	tap_run "the original variables are unchanged" eq \
		"$("$root/scripts/ovmf-vars.py" "$tmp/vars.fd" --list | head -n -1)" \
		"$("$root/scripts/ovmf-vars.py" "$vars" --list)"
else
	tap_skip "ovmf-vars.py" "no $vars"
fi
tap_done
