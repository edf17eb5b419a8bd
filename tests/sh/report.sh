#!/usr/bin/env bash
# TAP tests for the host log → report pipeline (scripts/report.py,
# scripts/compare.sh), run against the fixture logs in tests/fixtures/logs/.
# Every check asserts on concrete values taken from the fixtures.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=/usr/bin/python3            # Debian's python, the one with matplotlib
report=$root/scripts/report.py
compare=$root/scripts/compare.sh
fx=$root/tests/fixtures/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
has() { grep -qF -- "$2" "$1" || { echo "missing in $1: $2"; return 1; }; }
lacks() { ! grep -qF -- "$2" "$1" || { echo "unexpected in $1: $2"; return 1; }; }
eq() { [[ $1 == "$2" ]] || { echo "expected '$2', got '$1'"; return 1; }; }
csv_rows() { "$py" -c 'import csv,sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1], newline=""))))' "$1"; }
# results.json: strict parse (no NaN), then "type=count ..." sorted.
json_counts() {
    "$py" -c '
import json, sys
def bad(c): raise ValueError("non-strict JSON constant " + c)
d = json.load(open(sys.argv[1]), parse_constant=bad)
print(" ".join(f"{k}={len(v)}" for k, v in sorted(d.items())))' "$1"
}
png_ok() {  # PNG magic, IHDR at least 400x200, file over 10 kB
    "$py" -c '
import struct, sys, os
b = open(sys.argv[1], "rb").read(24)
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
assert w >= 400 and h >= 200, f"tiny image {w}x{h}"
assert os.path.getsize(sys.argv[1]) > 10000, "suspiciously small file"' "$1"
}
runs() {  # runs WANT_RC OUTDIR ARGS...: run report.py, keep stderr, check rc
    local want=$1 rc=0; shift
    "$py" "$report" "$@" 2>"$tmp/stderr" >"$tmp/stdout" || rc=$?
    [[ $rc == "$want" ]] || { echo "exit $rc, want $want"; cat "$tmp/stderr"; return 1; }
}

# --- clean QEMU log with every record type (TCG, not deterministic) ---
q=$tmp/q
tap_run "clean log: exit 0" runs 0 "$fx/qemu.log" --out "$q"
tap_run "clean log: no warnings" eq "$(grep -c warning "$tmp/stderr")" 0
for f in results.csv results.json report.md rng_cycles.png fork_share.png aslr_entropy.png attack.png; do
    tap_run "clean log: $f written" test -s "$q/$f"
done
tap_run "clean log: CSV rows = records in log" eq "$(csv_rows "$q/results.csv")" "$(grep -c '^@@ ' "$fx/qemu.log")"
tap_run "clean log: CSV has source column" eq "$(head -1 "$q/results.csv" | cut -d, -f1)" source
tap_run "clean log: JSON grouped by type" eq "$(json_counts "$q/results.json")" \
    "aslr=30 attack=7 bench=12 boot=1 summary=1 test=6"
md=$q/report.md
tap_run "clean log: emulation warning" has "$md" "cycle figures measure the emulator, not the guest"
tap_run "clean log: boot info" has "$md" "| cpu_model | QEMU Virtual CPU version 2.5+ |"
tap_run "clean log: tsc_hz" has "$md" "| tsc_hz | 2500000000 |"
tap_run "clean log: rng suite row" has "$md" \
    "| md4-2.6.30 | cycles_per_call | 261 | 290 | 301.6 | 464 | 2610 | 841 | 16×1000 | 1.00× |"
tap_run "clean log: relative cost chacha20" has "$md" "| chacha20-batched | cycles_per_call | 16 | 18 |"
tap_run "clean log: relative cost urandom 7.24x" has "$md" "| 44100 | 16×1000 | 7.24× |"
tap_run "clean log: fork table rng_share_pct" has "$md" "| urandom-2.6.29 | cycles_per_fork | 46120 | 47020 | 47140.5 | 50020 | 87020 | 2500000 | 8×200 | 4.47 | 1.04× |"
tap_run "clean log: timer suite without variant" has "$md" "| – | cycles_per_tick | 9800 | 10000 |"
tap_run "clean log: ASLR rows = 30" eq "$(grep -cE '^\| (ipid-2.6.29|md4-2.6.30|chacha20-batched) \| (x86_64|ia32) \|' "$md")" 30
tap_run "clean log: ASLR row values" has "$md" "| md4-2.6.30 | x86_64 | mmap | 4096 | 2043 | 28 | 11.84 | 28 |"
tap_run "clean log: attack row" has "$md" "| replay | ipid-2.6.29 | 1 | x86_64 | 100 | 97 | 97.0 | 3.2 |"
tap_run "clean log: attack leak fixed" has "$md" "| proc_leak | md4-2.6.30 | 1 | x86_64 | 100 | 0 | 0.0 | – |"
tap_run "clean log: test counts" has "$md" "| fail | 1 |"
tap_run "clean log: summary record" has "$md" "passed 4, failed 1, skipped 1, status 1"
tap_run "clean log: failure detail (pipe escaped)" has "$md" \
    "| chacha20.rfc8439 | block 2 word 5: expected 0x1234abcd got 0x5678ef01 \\| lane 3 |"
for p in rng_cycles fork_share aslr_entropy attack; do
    tap_run "clean log: $p.png is a real PNG" png_ok "$q/$p.png"
    tap_run "clean log: $p.png linked" has "$md" "![$p.png]($p.png)"
done

# --- real machine: CRLF, ANSI, noise, broken and truncated records ---
r=$tmp/r
tap_run "real log: exit 0 despite garbage" runs 0 "$fx/real-machine.log" --out "$r"
cp "$tmp/stderr" "$tmp/real.err"
w() { has "$tmp/real.err" "report: warning: $fx/real-machine.log:$1: $2"; }
tap_run "real log: warning for garbage before marker" w 5 "garbage before record marker"
tap_run "real log: warning for invalid JSON" w 10 "invalid JSON"
tap_run "real log: warning for missing fields" w 11 "bench record lacks field(s): metric, median"
tap_run "real log: warning for unknown type" w 12 "unknown record type 'irq_stats'"
tap_run "real log: warning for nan" w 13 "non-finite number(s) replaced by null"
tap_run "real log: warning for record without type" w 14 "record without a string 'type' field"
tap_run "real log: warning for truncated last line" w 20 "truncated record"
tap_run "real log: 8 warnings in all" eq "$(grep -c 'report: warning' "$tmp/real.err")" 8
tap_run "real log: CSV rows = 13 good records" eq "$(csv_rows "$r/results.csv")" 13
tap_run "real log: JSON strict, grouped" eq "$(json_counts "$r/results.json")" \
    "aslr=1 attack=1 bench=5 boot=1 irq_stats=1 summary=1 test=3"
no_ctrl() { ! grep -q $'[\r\x1b]' "$@" || { echo "CR or ESC found in $*"; return 1; }; }
tap_run "real log: no CR or ESC in outputs" no_ctrl "$r/results.csv" "$r/report.md" "$r/results.json"
tap_run "real log: boot record behind ANSI parsed" has "$r/report.md" "| cpu_model | Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz |"
tap_run "real log: not flagged as emulated" lacks "$r/report.md" "measure the emulator"
tap_run "real log: two records on one line" has "$r/report.md" "| rdrand.health | retry limit hit 10/10 |"
tap_run "real log: relative cost" has "$r/report.md" "| chacha20-batched | cycles_per_call | 12 | 13.5 | 14.04 | 22 | 122 | 1.8 | 64×1000 | 0.26× |"
tap_run "real log: nan shown as missing" has "$r/report.md" "| 90000 | – | 8×200 | 0.17 | 1.00× |"

# --- CR-only line ends, a marker inside a string, progress-bar text ---
printf '%s\r%s\r%s\r' 'progress 10%' \
    '@@ {"type":"test","name":"a","result":"fail","detail":"saw @@ {x}"}' \
    '@@ {"type":"test","name":"b","result":"pass"}' >"$tmp/cr.log"
tap_run "CR-only log: exit 0" runs 0 "$tmp/cr.log" --out "$tmp/cr"
tap_run "CR-only log: no warnings" eq "$(grep -c warning "$tmp/stderr")" 0
tap_run "CR-only log: marker inside a string is data" has "$tmp/cr/report.md" "| a | saw @@ {x} |"
tap_run "CR-only log: 2 records" eq "$(csv_rows "$tmp/cr/results.csv")" 2

# --- no records at all; unreadable file ---
tap_run "no-record log: exit 1" runs 1 "$fx/no-records.log" --out "$tmp/n"
tap_run "no-record log: clear message" has "$tmp/stderr" "no \`@@ \` record found"
tap_run "no-record log: no outputs" test ! -e "$tmp/n/results.csv"
: >"$tmp/empty.log"
tap_run "empty file: exit 1" runs 1 "$tmp/empty.log" --out "$tmp/n"
tap_run "missing file: exit 2" runs 2 "$tmp/does-not-exist.log" --out "$tmp/n"
tap_run "missing file: clear message" has "$tmp/stderr" "does-not-exist.log: cannot read"

# --- only test records: tables and plots absent, noted ---
t=$tmp/t
tap_run "tests-only log: exit 0" runs 0 "$fx/tests-only.log" --out "$t"
tap_run "tests-only log: counts" has "$t/report.md" "| pass | 5 |"
tap_run "tests-only log: failure listed" has "$t/report.md" "| sched.fork_canary | child canary equals parent's |"
tap_run "tests-only log: plots skipped with a note" eq "$(grep -c "^- \`.*\.png\` skipped" "$t/report.md")" 4
tap_run "tests-only log: no PNG written" eq "$(find "$t" -name '*.png' | wc -l)" 0
tap_run "tests-only log: CSV rows" eq "$(csv_rows "$t/results.csv")" 6

# --- deterministic QEMU run: no emulation warning, a note instead ---
d=$tmp/d
tap_run "deterministic log: exit 0" runs 0 "$fx/qemu-deterministic.log" --out "$d"
tap_run "deterministic log: no emulation warning" lacks "$d/report.md" "measure the emulator"
tap_run "deterministic log: instruction note" has "$d/report.md" "(deterministic: 1 cycle = 1 instruction)"

# --- bench-host (Linux in a VM): extra fields, an unavailable variant ---
h=$tmp/h
tap_run "bench-host log: exit 0" runs 0 "$fx/bench-host.log" --out "$h"
tap_run "bench-host log: unavailable variant is no warning" eq "$(grep -c warning "$tmp/stderr")" 0
tap_run "bench-host log: VM is not emulation" lacks "$h/report.md" "measure the emulator"
tap_run "bench-host log: VM note" has "$h/report.md" "host run inside a virtual machine"
tap_run "bench-host log: unavailable row" has "$h/report.md" "| rdrand (unavailable) | cycles_per_call | – |"
tap_run "bench-host log: unit/secure columns" has "$h/report.md" \
    "| chacha20-batched | cycles_per_call | 6.412 | 6.75 | 6.953 | 9.45 | 40.5 | 0.135 | 10×1000 | cycles | yes | 0.12× |"
tap_run "bench-host log: baseline per metric" has "$h/report.md" "| md4-2.6.30 | cycles_first_call | 391.4 | 412 |"
tap_run "bench-host log: rng plot only" eq "$(cd "$h" && echo ./*.png)" "./rng_cycles.png"

# --- several logs in one report ---
m=$tmp/m
tap_run "multi-log report: exit 0" runs 0 "$fx/qemu.log" "$fx/real-machine.log" "$fx/qemu-deterministic.log" --out "$m"
tap_run "multi-log report: CSV rows 57+13+4" eq "$(csv_rows "$m/results.csv")" 74
tap_run "multi-log report: 3 sources" eq "$("$py" -c 'import csv,sys; print(len({r["source"] for r in csv.DictReader(open(sys.argv[1]))}))' "$m/results.csv")" 3
tap_run "multi-log report: emulated log marked" has "$m/report.md" "| $fx/qemu.log ⚠ | md4-2.6.30 |"

# --- compare: one column per log ---
c=$tmp/c
tap_run "compare: exit 0" "$compare" "$fx/qemu.log" "$fx/real-machine.log" "$fx/qemu-deterministic.log" --out "$c"
hdr=$(grep -m1 '^| suite | rng | metric |' "$c/compare.md")
tap_run "compare: one column per log" eq "$hdr" \
    "| suite | rng | metric | QEMU Virtual CPU version 2.5+ ⚠ | Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz | QEMU TCG icount |"
tap_run "compare: medians side by side" has "$c/compare.md" "| rng | md4-2.6.30 | cycles_per_call | 290 | 52 | 402 |"
tap_run "compare: missing value dash" has "$c/compare.md" "| fork | md4-2.6.30 | cycles_per_fork | 45180 | 31250 | – |"
tap_run "compare: 12 metric rows" eq "$(grep -cE '^\| (rng|fork|timer) \|' "$c/compare.md")" 12
tap_run "compare: label falls back to file name" eval "'$compare' '$fx/tests-only.log' '$fx/qemu.log' --out '$c' | grep -qF '| suite | rng | metric | tests-only.log | QEMU'"
tap_run "compare: no args is a usage error" eval "! '$compare' 2>/dev/null"
if command -v shellcheck >/dev/null; then
    tap_run "shellcheck compare.sh and this test" shellcheck -x "$compare" "${BASH_SOURCE[0]}"
fi

tap_done
