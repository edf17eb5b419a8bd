#!/usr/bin/env bash
# TAP: mode=attack prints "[k/N] cell STRATEGY VARIANT fix=F PROFILE (elapsed Ns,
# ETA Ns)" after each cell (kernel/attack/lab.c).  One short QEMU boot: one
# strategy, 2 trials per cell.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
iso=$root/build/aslrbench.iso
if [ ! -s "$iso" ]; then
	echo "1..0 # SKIP build/aslrbench.iso not built (make iso)"
	exit 0
fi
"$root/scripts/run-qemu.sh" --iso "$iso" --timeout 240 \
	--cmdline "mode=attack suite=proc-leak samples=2" --log "$tmp/log" >/dev/null 2>&1
grep -E '^\[[0-9]+/[0-9]+\] cell ' "$tmp/log" | tr -d '\r' >"$tmp/progress"
re='^\[([0-9]+)/([0-9]+)\] cell proc-leak [a-z0-9.-]+ fix=[01] (x86_64|ia32) \(elapsed [0-9]+s, ETA [0-9]+s\)$'
total=$(sed -n '1s|^\[1/\([0-9]*\)\].*|\1|p' "$tmp/progress")
tap_run "progress lines printed" test -s "$tmp/progress"
tap_run "every line is [k/N] cell ... (elapsed, ETA)" eq "$(grep -cvE "$re" "$tmp/progress")" 0
tap_run "N = 4 cells per available variant" eq "$((total % 4))" 0
tap_run "one line per cell, k = 1..N in order" eq "$(grep -oE '^\[[0-9]+' "$tmp/progress" | tr -d '[' | tr '\n' ' ')" \
	"$(seq -s ' ' 1 "${total:-0}") "
cells=$(python3 -c 'import json,sys
print(len({(r["rng"], r["proc_leak_fix"], r["profile"]) for r in (json.loads(l[3:]) for l in open(sys.argv[1], errors="replace") if l.startswith("@@ {\"type\":\"attack\""))}))' "$tmp/log")
tap_run "one line per attack cell (distinct variant, fix, profile records)" eq "$(wc -l <"$tmp/progress")" "$cells"
tap_run "the last cell's ETA is 0s" eq "$(tail -1 "$tmp/progress" | grep -o 'ETA [0-9]*s')" "ETA 0s"
tap_done
