#!/usr/bin/env bash
# TAP: the 6.x vDSO's __vdso_getrandom held to Linux 6.12's, and used by a
# real C library.
#
#   ref       tests/linux/lx_vgetrandom.c under Linux 6.12 (scripts/linux-ref.sh):
#             the checks the vgetrandom boot (tests/qemu/boots.conf) runs
#             under aslrbench aslr_rules=6.x pass there too
#   glibc     tests/linux/lx_vgr_glibc.c, dynamic, against Debian 13's
#             glibc 2.41 (scripts/glibc-fetch.sh: fetched into build/,
#             never installed), run through that glibc's loader: 1,000
#             getrandom() and 1,000 arc4random() calls make no system call,
#             under aslrbench aslr_rules=6.x and under Linux 6.12, both
#             --deterministic (rdtsc counts guest instructions: a call
#             must cost less than one getrandom(2)); and the control: under
#             aslr_rules=2.6.29, whose vDSO has no getrandom, the same
#             program must see the system calls
#
# Without the kernel package or the C library (no network, no mirror) the
# checks that need them are skipped with the reason.  One QEMU at a time.
# Logs: build/test-logs/vgetrandom-*.
# Usage: tests/sh/vgetrandom.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
cd "$top" || exit 1
logs=$top/build/test-logs
mkdir -p "$logs"

whole_skip() {
	tap_plan 1
	tap_skip "vDSO getrandom against Linux 6.12 and glibc 2.41" "$1"
	tap_done
	exit
}
command -v musl-gcc >/dev/null || whole_skip "musl-tools missing (scripts/deps.sh)"
{ [ -r build/initrd.cpio ] && [ -r build/aslrbench.iso ]; } ||
	whole_skip "build/initrd.cpio or build/aslrbench.iso missing (make all)"
command -v "${QEMU:-qemu-system-x86_64}" >/dev/null || whole_skip "QEMU missing (scripts/deps.sh)"
# lx_costprobe_dyn: scripts/linux-cost.sh's vDSO rows, built here so that it keeps building
out=$(make -s --no-print-directory build/user/linux/lx_vgetrandom build/user/linux/lx_vgr_glibc \
	build/user/linux/lx_costprobe_dyn 2>&1) || {
	tap_plan 1
	tap_fail "build lx_vgetrandom and lx_vgr_glibc" "$out"
	tap_done
	exit
}
tap_plan 4

# passed LOG NAME: the program's summary says no check failed, and no FAIL line
passed() {
	tr -d '\r' <"$1" | grep -qE "^$2: [0-9]+ passed, 0 failed\$" &&
		! tr -d '\r' <"$1" | grep -q '^FAIL '
}
fails() { tr -d '\r' <"$1" | grep '^FAIL ' | head -n 5; }

ref_ok=1
ref_err=$(scripts/linux-ref.sh --fetch 2>&1 >/dev/null) || ref_ok=0
ref_why="the Linux 6.12 kernel package cannot be fetched: $(head -n 1 <<<"$ref_err")"
glibc_err=$(scripts/glibc-fetch.sh 2>&1) && lib=$glibc_err || lib=""
glibc_why="Debian 13's libc6 cannot be fetched: $(tail -n 1 <<<"$glibc_err")"

# ---- ref ------------------------------------------------------------------------
log=$logs/vgetrandom-ref.log
if [ "$ref_ok" = 1 ]; then
	scripts/linux-ref.sh --pid1 --timeout 400 --log "$log" init=/bin/lx_vgetrandom \
		>/dev/null 2>"$log.err"
	passed "$log" lx_vgetrandom
	tap_check $? "Linux 6.12: lx_vgetrandom passes (the 6.x vDSO's checks hold there)" \
		"log: $log" "$(fails "$log")" "$(tail -n 3 "$log.err")"
else
	tap_skip "Linux 6.12: lx_vgetrandom passes" "$ref_why"
fi

# ---- glibc ----------------------------------------------------------------------
gl=/opt/glibc241
gadds=(--add "$lib/ld-linux-x86-64.so.2=$gl/ld-linux-x86-64.so.2" --add "$lib/libc.so.6=$gl/libc.so.6"
	--add build/user/linux/lx_vgr_glibc=/bin/lx_vgr_glibc)
ginit="$gl/ld-linux-x86-64.so.2 -- --library-path $gl /bin/lx_vgr_glibc"
glibc_ab() { # RULES LOG
	scripts/run-qemu.sh --deterministic --timeout 300 --log "$2" "${gadds[@]}" \
		--cmdline "aslr_rules=$1 init=$ginit" </dev/null >/dev/null 2>"$2.err"
}
if [ -n "$lib" ]; then
	log=$logs/vgetrandom-glibc-6x.log
	glibc_ab 6.x "$log"
	passed "$log" lx_vgr_glibc
	tap_check $? "aslrbench 6.x: glibc 2.41's getrandom() and arc4random() make no system call" \
		"log: $log" "$(fails "$log")" "$(tail -n 3 "$log.err")"
	log=$logs/vgetrandom-glibc-2.6.29.log
	glibc_ab 2.6.29 "$log"
	tr -d '\r' <"$log" | grep -q '^FAIL 1000 getrandom() calls of 4 bytes make no system call'
	tap_check $? "control: under aslr_rules=2.6.29 (no vDSO getrandom) the same program sees system calls" \
		"log: $log: lx_vgr_glibc did not report getrandom's system calls"
else
	tap_skip "aslrbench 6.x: glibc 2.41's getrandom() and arc4random() make no system call" "$glibc_why"
	tap_skip "control: under aslr_rules=2.6.29 the same program sees system calls" "$glibc_why"
fi
log=$logs/vgetrandom-glibc-6.12.log
if [ -z "$lib" ]; then
	tap_skip "Linux 6.12: glibc 2.41's getrandom() and arc4random() make no system call" "$glibc_why"
elif [ "$ref_ok" = 0 ]; then
	tap_skip "Linux 6.12: glibc 2.41's getrandom() and arc4random() make no system call" "$ref_why"
else
	scripts/linux-ref.sh --deterministic --pid1 --timeout 400 --log "$log" "${gadds[@]}" \
		init="$gl/ld-linux-x86-64.so.2" -- --library-path "$gl" /bin/lx_vgr_glibc \
		>/dev/null 2>"$log.err"
	passed "$log" lx_vgr_glibc
	tap_check $? "Linux 6.12: glibc 2.41's getrandom() and arc4random() make no system call" \
		"log: $log" "$(fails "$log")" "$(tail -n 3 "$log.err")"
fi
tap_done
