#!/usr/bin/env bash
# TAP tests for the QR screen (kernel/console/qr_screen.c) and its decoder
# (scripts/qr-decode.py): a run's records read back from screendumps.
#
# 1. qr-serial: a deterministic bench run with qr=on and a serial port;
#    each code is dumped (run-qemu.sh --qr-dumps) and decoded with zbarimg:
#    the records must be exactly the serial log's, the boot record and the
#    summary first, the rest in the order printed.
# 2. qr-noserial: the same run on a machine without a serial port, the
#    screen its only output: the same records again, but for the three
#    boot-record fields that say there is no serial port.
# 3. The dumps as a phone would take them (70 % size, blurred with a
#    1-pixel Gaussian, PIL) still decode to the same records.
# 4. The decoder: a missing code, duplicates and any order, a picture
#    without codes, a bad path, and its log read by scripts/report.py.
# 5. qr-auto: without the host's key presses the codes advance by
#    themselves (qr_seconds=1) and the run ends.
# Needs `make all` (build/aslrbench.iso), QEMU and OVMF, zbarimg
# (zbar-tools) and python3-pil; logs and PNGs in build/test-logs/qr-*.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
py=/usr/bin/python3 # Debian's python, the one with PIL
logs=build/test-logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$logs"

# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

if [ ! -r build/aslrbench.iso ]; then
	tap_skip "QR screen" "build/aslrbench.iso missing (run make all)"
	tap_done
	exit
fi
for tool in zbarimg qemu-system-x86_64; do
	command -v "$tool" >/dev/null || { tap_fail "QR screen: $tool is installed" "run scripts/deps.sh"; tap_done; exit; }
done

# Every variant, two ensembles: 35 records, 15 KB, three codes of version 20.
cmd="mode=bench suite=rng samples=200 ensembles=2 qr=on"

boot() { # boot NAME ARGS...: status in $tmp/NAME.rc
	local name=$1
	shift
	scripts/run-qemu.sh --timeout 240 --qr-dumps "$logs/qr-$name" "$@" \
		>/dev/null 2>"$logs/qr-$name.err"
	echo $? >"$tmp/$name.rc"
}
rc_is() { [ "$(cat "$tmp/$1.rc")" = "$2" ] || { echo "exit status $(cat "$tmp/$1.rc"), expected $2"; cat "$logs/qr-$1.err"; return 1; }; }
decode() { # decode OUT PATH...: the records the pictures give
	local out=$1
	shift
	scripts/qr-decode.py --out "$out" "$@" 2>"$out.err" || { cat "$out.err"; return 1; }
}
# The serial log's records in the QR screen's order: summary, boot record, the rest.
qr_order() {
	grep '^@@ ' "$1" | tr -d '\r' >"$tmp/all"
	{ grep -m1 '^@@ {"type":"summary"' "$tmp/all"; grep -m1 '^@@ {"type":"boot"' "$tmp/all"
		awk '/^@@ \{"type":"boot"/ && !b {b=1; next} /^@@ \{"type":"summary"/ && !s {s=1; next} {print}' "$tmp/all"; }
}
same_records() { # same_records SERIALLOG DECODED
	qr_order "$1" >"$tmp/want"
	[ -s "$tmp/want" ] || { echo "no records in $1"; return 1; }
	diff "$tmp/want" "$2" >"$tmp/diff" || { head -c 2000 "$tmp/diff"; return 1; }
}
count_codes() { local n; n=$(find "$logs/qr-$1" -name 'qr-*.png' | wc -l); [ "$n" -ge "$2" ] || { echo "$n codes dumped"; return 1; }; }

# ---- 1. with a serial port ----
boot serial --deterministic --cmdline "$cmd" --log "$logs/qr-serial.log"
tap_run "qr-serial: exit status 0" rc_is serial 0
tap_run "qr-serial: the log says how many codes" grep -qE '^qr: 35 records, [0-9]+ bytes, [0-9]+ deflated, in [0-9]+ QR codes of version <= 20-M' "$logs/qr-serial.log"
tap_run "qr-serial: three codes or more dumped" count_codes serial 3
tap_run "qr-serial: zbarimg reads every code" decode "$tmp/serial.dec" "$logs/qr-serial"
tap_run "qr-serial: the codes give exactly the serial log's records" same_records "$logs/qr-serial.log" "$tmp/serial.dec"
first_code() { scripts/qr-decode.py "$logs/qr-serial/qr-1.png" 2>/dev/null >"$tmp/first"; grep -q '^@@ {"type":"boot"' "$tmp/first" && grep -q '^@@ {"type":"summary","passed":[0-9]*,"failed":0' "$tmp/first"; }
tap_run "qr-serial: code 1 alone gives the summary and the boot record" first_code

# ---- 2. without a serial port ----
boot noserial --deterministic --no-serial --cmdline "$cmd"
tap_run "qr-noserial: exit status 0" rc_is noserial 0
tap_run "qr-noserial: zbarimg reads every code" decode "$tmp/noserial.dec" "$logs/qr-noserial"
# The boot record says there is no serial port; nothing else may differ.
serial_fields() { sed 's/"serial":false/"serial":true/; s/"serial_port":0,/"serial_port":1016,/; s/,no_serial"/"/' "$1"; }
same_as_serial() { serial_fields "$tmp/noserial.dec" >"$tmp/noserial.norm"; same_records "$logs/qr-serial.log" "$tmp/noserial.norm"; }
tap_run "qr-noserial: the same records as the serial run" same_as_serial
tap_run "qr-noserial: its boot record warns no_serial" grep -q '"warnings":"[^"]*no_serial' "$tmp/noserial.dec"

# ---- 3. photo-like pictures ----
photos() {
	mkdir -p "$tmp/photos"
	"$py" - "$logs/qr-serial" "$tmp/photos" <<'EOF' || return 1
import os, sys
from PIL import Image, ImageFilter
src, dst = sys.argv[1:3]
for f in sorted(os.listdir(src)):
    im = Image.open(os.path.join(src, f)).convert("L")
    im = im.resize((im.width * 7 // 10, im.height * 7 // 10), Image.LANCZOS)
    im.filter(ImageFilter.GaussianBlur(1)).save(os.path.join(dst, f.replace(".png", ".jpg")), quality=85)
EOF
	cp "$tmp/photos/qr-1.jpg" "$logs/qr-photo-1.jpg"
	decode "$tmp/photos.dec" "$tmp/photos" && diff "$tmp/serial.dec" "$tmp/photos.dec"
}
tap_run "photos (70 %, 1-pixel blur, JPEG): the same records" photos

# ---- 4. the decoder ----
mkdir -p "$tmp/gap" "$tmp/dups"
cp "$logs"/qr-serial/qr-*.png "$tmp/gap/" && rm -f "$tmp/gap/qr-2.png"
gap() {
	local st=0
	scripts/qr-decode.py --out "$tmp/gap.dec" "$tmp/gap" 2>"$tmp/gap.err" || st=$?
	[ "$st" = 1 ] || { echo "exit status $st, expected 1"; return 1; }
	grep -q "missing: 2" "$tmp/gap.err" || { cat "$tmp/gap.err"; return 1; }
	grep -q '^@@ {"type":"summary"' "$tmp/gap.dec" || { echo "code 1's records not kept"; return 1; }
}
tap_run "decoder: a missing code is named, exit 1, code 1's records kept" gap
# every code twice, given in reverse order, with a picture of no code among them
dups() {
	local f
	for f in "$logs"/qr-serial/qr-*.png; do cp "$f" "$tmp/dups/a-$(basename "$f")"; cp "$f" "$tmp/dups/b-$(basename "$f")"; done
	"$py" -c 'from PIL import Image; Image.new("L", (64, 64), 255).save("'"$tmp/dups/blank.png"'")'
	# shellcheck disable=SC2046 # the file names have no spaces
	decode "$tmp/dups.dec" $(find "$tmp/dups" -name '*.png' | sort -r) && diff "$tmp/serial.dec" "$tmp/dups.dec"
}
tap_run "decoder: duplicates, reverse order, a blank picture" dups
no_path() {
	local st=0
	scripts/qr-decode.py "$tmp/nonexistent.png" 2>"$tmp/nopath.err" || st=$?
	[ "$st" = 2 ] && grep -q "no such file or directory" "$tmp/nopath.err"
}
tap_run "decoder: a bad path is exit 2 with its name" no_path
report() { scripts/report.py "$tmp/serial.dec" --out "$tmp/report" >/dev/null 2>&1 && [ -s "$tmp/report/results.csv" ]; }
tap_run "decoder: report.py reads its log" report

# ---- 5. advancing by itself ----
auto() {
	scripts/run-qemu.sh --timeout 120 --log "$logs/qr-auto.log" \
		--cmdline "mode=test suite=paging qr=on qr_seconds=1 qr_version=5" >/dev/null 2>"$logs/qr-auto.err" &&
		grep -qE '^qr: [0-9]+ records, .* in [0-9]+ QR codes of version <= 5-M' "$logs/qr-auto.log"
}
tap_run "qr-auto: no key, qr_seconds=1: the codes pass and the run ends (status 0)" auto

tap_done
