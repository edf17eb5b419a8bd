#!/usr/bin/env bash
# TAP tests for the framebuffer console (kernel/console/fbcon.c).
#
# 1. Host harness (tests/sh/screen/harness.c): fbcon.c compiled for the
#    host against a fake framebuffer in RAM, with the real font object from
#    the build: control characters,
#    ANSI escapes, UTF-8, wrapping, scrolling, RGB/BGR/bitmask pixels, large
#    screen scaling, and the refusals (no framebuffer, bad font).
# 2. Boots with scripts/run-qemu.sh --screenshot: the PNG must be complete
#    and its text (read back cell by cell with the same PSF font) must be
#    what the kernel printed on serial; then without any serial port; then
#    at 1920x1080 (2x font).
# Screens are decoded to text (tests/sh/screen/screen.py) by matching every
# cell against the font's glyphs, so a check fails on wrong text, not only on
# a blank screen; tests/sh/screen/matches_log.py compares them with the log.
# Needs `make all` (build/aslrbench.iso, build/k/font/); PNGs and frames are
# kept in build/test-logs/.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
py=/usr/bin/python3 # Debian's python, the one with matplotlib
logs=build/test-logs
font=build/k/font/fbcon_font.psf
fontobj=build/k/font/fbcon_font.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$logs"

# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

# ---- the screen reader: PNG or raw frame -> text rows, via the PSF font ----
screen() { "$py" tests/sh/screen/screen.py "$@" "$font"; }

# ---- 1. host harness ----
# fbcon and the files it was split into (arch/fw_cfg.c holds the fw_cfg access).
fbcon_srcs=(kernel/console/fbcon.c kernel/console/fbcon_draw.c kernel/console/fbcon_vt.c
	kernel/console/psf.c kernel/arch/fw_cfg.c)
hcc() { gcc -std=gnu11 -O1 -Wall -Wextra -Werror -Wno-unused-parameter -I. "$@"; }
h=$tmp/harness
if [ ! -r build/aslrbench.iso ] || [ ! -r "$fontobj" ]; then
	# `make test` builds everything first; a bare `make test-host` does not.
	tap_skip "screen console" "build/aslrbench.iso or $fontobj missing (run make all)"
	tap_done
	exit
fi
tap_run "harness: fbcon.c builds for the host" \
	hcc -o "$h" tests/sh/screen/harness.c "${fbcon_srcs[@]}" "$fontobj"
tap_run "harness: bad-font build" \
	hcc -DBAD_FONT -o "$h-badfont" tests/sh/screen/harness.c "${fbcon_srcs[@]}"
"$h" "$tmp/frame" >"$tmp/harness.out" 2>"$tmp/harness.err"
"$h-badfont" "$tmp/frame" bad >>"$tmp/harness.out" 2>>"$tmp/harness.err"
cp "$tmp/harness.out" "$logs/screen-harness.out"
says() { grep -qxF -- "$1" "$tmp/harness.out" || { echo "harness output lacks: $1"; cat "$tmp/harness.out"; return 1; }; }
row() { # row FRAME SCALE N TEXT: decoded row N equals TEXT
	local got
	got=$(screen raw "$tmp/frame-$1.raw" "$2" 2>/dev/null | sed -n "$(($3 + 1))p")
	[ "$got" = "$4" ] || { echo "row $3: got '$got', expected '$4'"; return 1; }
}
tap_run "harness: no framebuffer (format NONE) -> off" says "format-none 0"
tap_run "harness: base 0 -> off" says "base-0 0"
tap_run "harness: framebuffer smaller than the mode -> off" says "too-small 0"
tap_run "harness: pitch below width -> off" says "pitch<width 0"
tap_run "harness: bad font -> off, console hook untouched" says "bad-font 0 hook 0"
tap_run "harness: 640x480 -> 80x30 cells, hook installed" says "init 1 hook 1 cols 80 rows 30"
tap_run "harness: tab to column 8, puts_at column 70" row terminal 1 0 "$(printf '%-70sat70' 'tab     stop|')"
tap_run "harness: backspace" row terminal 1 1 "abX"
tap_run "harness: carriage return" row terminal 1 2 "ab345"
tap_run "harness: SGR colours and CSI K swallowed" row terminal 1 3 "red plain"
tap_run "harness: UTF-8 (Latin-1, box drawing) and a bad byte" row terminal 1 4 "café ─ ?!"
tap_run "harness: OSC, ESC 7 and private CSI swallowed" row terminal 1 5 "xyz"
tap_run "harness: BEL NUL DEL invisible" row terminal 1 6 "bell nul del end"
tap_run "harness: CSI H moves; the cursor shows where it ends" row terminal 1 19 "$(printf '%74scup █' '')"
tap_run "harness: long line wraps at column 80" row terminal 1 7 "$(printf '0123456789%.0s' 1 2 3 4 5 6 7 8)"
tap_run "harness: ... and goes on on the next row" row terminal 1 8 "wrapped"
tap_run "harness: a full row then newline: no empty row" row terminal 1 9 "$(printf 'x%.0s' $(seq 80))"
tap_run "harness: ... next line right below" row terminal 1 10 "after"
tap_run "harness: RGBX red is 0xaa0000 in byte order R,G,B" says "red-pixel 0000aa"
tap_run "harness: RGBX light grey" says "grey-pixel aaaaaa"
tap_run "harness: BGRX red" says "bgr-red aa0000"
tap_run "harness: 10-bit bitmask red / grey" says "mask-red 000002a8 mask-grey 2a8aa2a8"
tap_run "harness: scrolled, first row is line 71" row scroll 1 0 "line 71"
tap_run "harness: scrolled, row 28 is line 99 ..." row scroll 1 28 "line 99 ..."
tap_run "harness: scrolled, last row holds only the cursor" row scroll 1 29 "█"
scrolled() { screen raw "$tmp/frame-scroll.raw" 1 2>/dev/null | head -29 >"$tmp/scroll.txt"; for i in $(seq 71 99); do if [ $((i % 3)) = 0 ]; then echo "line $i ..."; else echo "line $i"; fi; done | diff - "$tmp/scroll.txt"; }
tap_run "harness: scrolled screen is exactly lines 71-99" scrolled
tap_run "harness: bitmask frame decodes" row bitmask 1 0 "Rg"
tap_run "harness: 1920x1080 -> 2x font, 120x33 cells" says "1920x1080 cols 120 rows 33"
tap_run "harness: 1920x1080 text at 2x" row 1920 2 0 "big text"
tap_run "harness: 1280x800 -> 1x font, 160x50 cells" says "1280x800 cols 160 rows 50"

# ---- 2. boots ----
run() { # run NAME CMDLINE ARGS...: boot with a screenshot; status in $tmp/NAME.rc
	local name=$1 cmdline=$2
	shift 2
	scripts/run-qemu.sh --cmdline "$cmdline" --timeout 120 --log "$logs/screen-$name.log" \
		--screenshot "$logs/screen-$name.png" "$@" >/dev/null 2>"$logs/screen-$name.err"
	echo $? >"$tmp/$name.rc"
}
rc_is() { [ "$(cat "$tmp/$1.rc")" = "$2" ] || { echo "exit status $(cat "$tmp/$1.rc"), expected $2"; cat "$logs/screen-$1.err"; return 1; }; }
decode() { # decode NAME W H SCALE: the PNG as text in $logs/screen-NAME.txt
	screen png "$logs/screen-$1.png" "$2" "$3" "$4" >"$logs/screen-$1.txt"
}
shows() { grep -qF -- "$2" "$logs/screen-$1.txt" || { echo "screen $1 lacks: $2"; cat "$logs/screen-$1.txt"; return 1; }; }
# The screen's text rows (less the cursor row) are the serial log from the
# fbcon line on, wrapped at COLS and scrolled to the last ROWS-1 rows.
matches_log() {
	"$py" tests/sh/screen/matches_log.py "$logs/screen-$1.log" "$logs/screen-$1.txt" "$2" "$3"
}
not_blank() {
	local px
	px=$(screen png "$logs/screen-$1.png" "$2" "$3" "$4" 2>&1 >/dev/null | sed -n 's/^# ink pixels //p')
	echo "ink pixels: $px"
	[ "${px:-0}" -gt 20000 ]
}

# A self-test run whose output scrolls (the static musl program's tests,
# about 150 lines in under a second; suite=linux's few hundred took 16 s,
# and the cd boot runs them all), then two short runs whose every line stays
# on the screen.
run serial "mode=test suite=linux_musl"
tap_run "serial boot: exit status 0" rc_is serial 0
tap_run "serial boot: PNG complete (CRCs, IEND), 1280x800" decode serial 1280 800 1
tap_run "serial boot: the screen is not blank" not_blank serial 1280 800 1
tap_run "serial boot: log says the console geometry" grep -qF "font 8x16 x1: 160x50 text" "$logs/screen-serial.log"
tap_run "serial boot: screen shows the exit status" shows serial "aslrbench: exit status ok (0x10)"
tap_run "serial boot: screen text = serial log, row for row" matches_log serial 160 50

run noserial "mode=test suite=paging" --no-serial
tap_run "no-serial boot: exit status 0" rc_is noserial 0
tap_run "no-serial boot: log is empty" test ! -s "$logs/screen-noserial.log"
tap_run "no-serial boot: PNG complete, 1280x800" decode noserial 1280 800 1
tap_run "no-serial boot: screen says there is no serial port" shows noserial "no serial port, this screen is the console"
tap_run "no-serial boot: screen shows the test summary" shows noserial '{"type":"summary","passed":2,"failed":0'
tap_run "no-serial boot: screen shows the exit status" shows noserial "aslrbench: exit status ok (0x10)"

run 1920 "mode=test suite=paging" --resolution 1920x1080
tap_run "1920x1080 boot: exit status 0" rc_is 1920 0
tap_run "1920x1080 boot: PNG complete, 1920x1080" decode 1920 1920 1080 2
# the framebuffer's address is the firmware's choice (0xc0000000 from Debian 12's OVMF, 0x80000000 from 13's)
tap_run "1920x1080 boot: 2x font, 120x33 cells" eval 'shows 1920 "1920x1080 BGRX pitch 1920 at 0x" && shows 1920 ", font 8x16 x2: 120x33 text"'
tap_run "1920x1080 boot: screen text = serial log, row for row" matches_log 1920 120 33

# mode=bench on a machine without a serial port ends on the summary screen.
run benchsum "mode=bench suite=rng samples=200 ensembles=2" --no-serial
tap_run "no-serial bench: exit status 0" rc_is benchsum 0
tap_run "no-serial bench: PNG complete, 1280x800" decode benchsum 1280 800 1
tap_run "no-serial bench: summary screen drawn" shows benchsum "aslrbench - results of this run"
tap_run "no-serial bench: summary lists md4-2.6.30" shows benchsum "md4-2.6.30"
tap_run "no-serial bench: summary lists chacha20-batched" shows benchsum "chacha20-batched"

tap_done
