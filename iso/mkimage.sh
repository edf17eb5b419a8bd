#!/usr/bin/env bash
# Builds the FAT ESP image and the hybrid ISO around it.
#
#   iso/mkimage.sh esp OUT.img --efi BOOTX64.EFI [--kernel kernel.elf] --cmdline-file FILE
#                  [--initrd initrd.cpio] [--shim]
#   iso/mkimage.sh reseal ESP.img [--shim]           (seals and signs the loader again for the
#                                                    kernel and initramfs on the ESP)
#
# The loader copied onto an ESP is sealed with the SHA-256 of its kernel and
# initramfs (scripts/seal-loader.py), then signed with sbsign when SIGN_KEY and
# SIGN_CERT (environment) name a key pair.  --shim lays out the shim path of
# docs/secure-boot.md: shim (SHIM, default Debian's Microsoft-signed one) as
# \EFI\BOOT\BOOTX64.EFI, MokManager beside it, the loader as grubx64.efi, and
# SIGN_CERT in DER form as \aslrbench-MOK.cer for MokManager's "Enroll key from disk".
#   iso/mkimage.sh set-initrd ESP.img initrd.cpio   (replaces initrd.cpio; a bare ESP image
#                                                    is rebuilt larger when it does not fit)
#   iso/mkimage.sh get-initrd ESP.img OUT.cpio       (copies initrd.cpio out; empty if none)
#   iso/mkimage.sh iso OUT.iso ESP.img
#   iso/mkimage.sh set-cmdline ESP.img "k=v ..."     (rewrites cmdline.txt in place)
#   iso/mkimage.sh get-cmdline ESP.img               (prints cmdline.txt)
#   iso/mkimage.sh extract-esp IN.iso OUT.img
#   iso/mkimage.sh img OUT.img ESP.img              (raw GPT disk: one ESP at 1 MiB)
#   iso/mkimage.sh esp-offset IMAGE                  (bytes to the ESP: 0 for an ESP, 1 MiB for img)
#
# mtools and xorriso only: no loop mounts, no root.  Timestamps, volume serial
# and GPT GUIDs derive from SOURCE_DATE_EPOCH so that two builds of the same
# tree give identical bytes.  Omitting --kernel builds a deliberately broken
# image (the loader must say so and return to the firmware; tests use it).
set -euo pipefail

die() { echo "mkimage: $*" >&2; exit 1; }
: "${SOURCE_DATE_EPOCH:=0}"
export SOURCE_DATE_EPOCH
export MTOOLS_SKIP_CHECK=1

stamp() { touch -h -d "@$SOURCE_DATE_EPOCH" "$@"; }

make_esp() {
	local out=$1 efi="" kernel="" cmdfile="" initrd="" shim=0
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		--efi) efi=$2; shift 2 ;;
		--initrd) initrd=$2; shift 2 ;;
		--kernel) kernel=$2; shift 2 ;;
		--cmdline-file) cmdfile=$2; shift 2 ;;
		--shim) shim=1; shift ;;
		*) die "esp: unknown option $1" ;;
		esac
	done
	[ -f "$efi" ] || die "esp: --efi FILE is required"
	[ -f "$cmdfile" ] || die "esp: --cmdline-file FILE is required"
	local stage
	stage=$(mktemp -d)
	trap 'rm -rf "$stage"' RETURN
	cp "$efi" "$stage/BOOTX64.EFI"
	cp "$cmdfile" "$stage/cmdline.txt"
	[ -z "$kernel" ] || cp "$kernel" "$stage/kernel.elf"
	[ -z "$initrd" ] || cp "$initrd" "$stage/initrd.cpio"
	seal_and_sign "$stage/BOOTX64.EFI" "$kernel" "$initrd"
	if [ "$shim" = 1 ]; then
		[ -n "${SIGN_CERT:-}" ] || die "esp: --shim needs SIGN_KEY and SIGN_CERT (the MOK)"
		mv "$stage/BOOTX64.EFI" "$stage/grubx64.efi"
		cp "${SHIM:-/usr/lib/shim/shimx64.efi.signed}" "$stage/BOOTX64.EFI" || die "esp: no shim"
		cp "${MOKMANAGER:-/usr/lib/shim/mmx64.efi.signed}" "$stage/mmx64.efi" || die "esp: no MokManager"
		openssl x509 -in "$SIGN_CERT" -outform der -out "$stage/aslrbench-MOK.cer" ||
			die "esp: cannot convert $SIGN_CERT to DER"
	fi
	stamp "$stage"/*
	# 2.88 MB FAT12 "floppy" geometry: small, and known to boot under OVMF and as a USB stick.
	# A larger initramfs gets a larger (FAT16) image: contents plus a quarter, plus 1 MiB.
	local kb=2880 need
	need=$(($(du -cb "$stage"/* | tail -1 | cut -f1) / 1024))
	if [ $((need + 400)) -gt "$kb" ]; then
		kb=$(((need + need / 4 + 1024 + 1023) / 1024 * 1024))
	fi
	rm -f "$out"
	if [ "$kb" = 2880 ]; then
		mformat -i "$out" -C -f "$kb" -N 41534c52 -v ASLRBENCH ::
	else
		mformat -i "$out" -C -T $((kb * 2)) -h 64 -s 32 -N 41534c52 -v ASLRBENCH ::
	fi
	mmd -i "$out" ::/EFI ::/EFI/BOOT ::/aslrbench
	mcopy -m -i "$out" "$stage/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI
	if [ "$shim" = 1 ]; then
		mcopy -m -i "$out" "$stage/grubx64.efi" "$stage/mmx64.efi" ::/EFI/BOOT/
		mcopy -m -i "$out" "$stage/aslrbench-MOK.cer" ::/aslrbench-MOK.cer
	fi
	mcopy -m -i "$out" "$stage/cmdline.txt" ::/aslrbench/cmdline.txt
	[ -z "$kernel" ] || mcopy -m -i "$out" "$stage/kernel.elf" ::/aslrbench/kernel.elf
	[ -z "$initrd" ] || mcopy -m -i "$out" "$stage/initrd.cpio" ::/aslrbench/initrd.cpio
}

# The loader's seal (the hashes of kernel and initramfs), then its signature
# when SIGN_KEY/SIGN_CERT are set.  An old signature goes first: the seal
# changes the signed bytes.
seal_and_sign() {
	local efi=$1 kernel=$2 initrd=$3
	if sbverify --list "$efi" 2>/dev/null | grep -q '^signature 1'; then
		sbattach --remove "$efi" >/dev/null || die "cannot remove the old signature of the loader"
	fi
	if [ -n "$kernel" ]; then
		"$(dirname "$0")/../scripts/seal-loader.py" "$efi" --kernel "$kernel" \
			${initrd:+--initrd "$initrd"} || die "cannot seal the loader"
	fi
	if [ -n "${SIGN_KEY:-}" ]; then
		if [ ! -r "$SIGN_KEY" ] || [ ! -r "${SIGN_CERT:-}" ]; then
			die "SIGN_KEY and SIGN_CERT must both name readable files"
		fi
		sbsign --key "$SIGN_KEY" --cert "$SIGN_CERT" --output "$efi.signed" "$efi" 2>/dev/null ||
			die "sbsign failed"
		mv "$efi.signed" "$efi"
	fi
}

# A bare ESP image rebuilt from its own files, with another initrd.cpio when
# given: it grows when the archive needs more room than the image has, and
# its loader is sealed (and signed with SIGN_KEY) again for what it now holds.
# A shim layout stays one (and wants the key).
rebuild_esp() {
	local esp=$1 cpio=$2 x args loader=::/EFI/BOOT/BOOTX64.EFI
	shift 2
	[ "$(esp_offset "$esp")" = 0 ] || die "$esp is not a bare ESP image"
	x=$(mktemp -d)
	args=(--efi "$x/loader.efi" --cmdline-file "$x/cmdline.txt")
	if mdir -i "$esp" ::/EFI/BOOT/grubx64.efi >/dev/null 2>&1; then
		loader=::/EFI/BOOT/grubx64.efi
		args+=(--shim)
	fi
	args+=("$@")
	if ! mcopy -n -m -i "$esp" "$loader" "$x/loader.efi" ||
		! mcopy -n -m -i "$esp" ::/aslrbench/cmdline.txt "$x/"; then
		rm -rf "$x"
		die "$esp has no loader or cmdline.txt"
	fi
	if [ -z "$cpio" ] && mcopy -n -m -i "$esp" ::/aslrbench/initrd.cpio "$x/" 2>/dev/null; then
		cpio=$x/initrd.cpio
	fi
	[ -z "$cpio" ] || args+=(--initrd "$cpio")
	if mcopy -n -m -i "$esp" ::/aslrbench/kernel.elf "$x/" 2>/dev/null; then
		args+=(--kernel "$x/kernel.elf")
	fi
	if [ -z "${SIGN_KEY:-}" ] && sbverify --list "$x/loader.efi" 2>/dev/null | grep -q '^signature 1'; then
		echo "mkimage: note: the loader was signed; without SIGN_KEY/SIGN_CERT its new seal is unsigned" >&2
	fi
	(make_esp "$esp" "${args[@]}") # a subshell: make_esp's RETURN trap stays inside
	rm -rf "$x"
}
set_initrd() { rebuild_esp "$1" "$2"; }

make_iso() {
	local out=$1 esp=$2 stage
	[ -f "$esp" ] || die "iso: no ESP image $esp"
	stage=$(mktemp -d)
	trap 'rm -rf "$stage"' RETURN
	cp "$esp" "$stage/efi.img"
	stamp "$stage/efi.img" "$stage"
	rm -f "$out"
	xorriso -report_about WARNING -as mkisofs -R -J -V ASLRBENCH \
		--modification-date="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d%H%M%S00)" \
		--set_all_file_dates "set_to_mtime" \
		-e efi.img -no-emul-boot -isohybrid-gpt-basdat \
		-o "$out" "$stage" 2>&1 | grep -Ev '^xorriso : UPDATE|^xorriso [0-9.]+ : RockRidge|^$' >&2 || true
	[ -s "$out" ] || die "iso: xorriso failed"
}

# A GPT disk with the ESP as its only partition, at 1 MiB (2048 sectors):
# what `dd` puts on a USB stick when a plain disk image is preferred to the
# hybrid ISO.  GUIDs derive from SOURCE_DATE_EPOCH for reproducible bytes.
make_img() {
	local out=$1 esp=$2 esp_sectors total guid
	[ -f "$esp" ] || die "img: no ESP image $esp"
	esp_sectors=$(($(stat -c %s "$esp") / 512))
	total=$((2048 + esp_sectors + 2048))
	guid=$(printf '%08x' "$SOURCE_DATE_EPOCH")
	rm -f "$out"
	truncate -s $((total * 512)) "$out"
	sgdisk -o -U "$guid-4153-4c52-8000-000000000001" \
		-n "1:2048:+$esp_sectors" -t 1:ef00 -c 1:ASLRBENCH \
		-u "1:$guid-4153-4c52-8000-000000000002" "$out" >/dev/null 2>&1 ||
		die "img: sgdisk failed"
	dd if="$esp" of="$out" bs=512 seek=2048 conv=notrunc status=none
}

# Where the FAT file system starts: an ISO's ESP is extracted first, a raw
# GPT image carries it at 1 MiB, a bare ESP image at 0.
esp_offset() {
	if [ "$(dd if="$1" bs=1 skip=512 count=8 status=none)" = "EFI PART" ]; then
		echo 1048576
	else
		echo 0
	fi
}

set_cmdline() {
	local esp=$1 line=$2 tmp
	tmp=$(mktemp)
	printf '%s\n' "$line" >"$tmp"
	stamp "$tmp"
	mcopy -o -m -i "$esp@@$(esp_offset "$esp")" "$tmp" ::/aslrbench/cmdline.txt
	rm -f "$tmp"
}

case ${1:-} in
esp) shift; make_esp "$@" ;;
iso) shift; make_iso "$@" ;;
set-cmdline) set_cmdline "$2" "$3" ;;
get-cmdline) mtype -i "$2@@$(esp_offset "$2")" ::/aslrbench/cmdline.txt ;;
set-initrd) set_initrd "$2" "$3" ;;
reseal) shift; esp=$1; shift; rebuild_esp "$esp" "" "$@" ;;
get-initrd)
	rm -f "$3"
	mcopy -n -m -i "$2@@$(esp_offset "$2")" ::/aslrbench/initrd.cpio "$3" 2>/dev/null || : >"$3"
	;;
img) shift; make_img "$@" ;;
esp-offset) esp_offset "$2" ;;
extract-esp)
	rm -f "$3"
	xorriso -report_about WARNING -osirrox on -indev "$2" -extract /efi.img "$3" >/dev/null 2>&1 ||
		die "extract-esp: no /efi.img in $2"
	chmod u+w "$3"
	;;
*) die "usage: mkimage.sh esp|iso|img|set-cmdline|get-cmdline|set-initrd|get-initrd|reseal|extract-esp|esp-offset ..." ;;
esac
