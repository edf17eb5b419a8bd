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
for f in results.csv results.json report.md bench-rng-cycles_per_call.png bench-fork-rng_share_pct.png \
    bench-fork-cycles_per_fork.png bench-timer-cycles_per_tick.png aslr_entropy.png attack.png; do
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
tap_run "clean log: attack row" has "$md" "| replay | ipid-2.6.29 | 1 | x86_64 | 100 | 97 | 97.0 | 91.5–99.0 | 3.2 |"
tap_run "clean log: attack leak fixed" has "$md" "| proc_leak | md4-2.6.30 | 1 | x86_64 | 100 | 0 | 0.0 | 0.0–3.7 | – |"
tap_run "clean log: test counts" has "$md" "| fail | 1 |"
tap_run "clean log: summary record" has "$md" "passed 4, failed 1, skipped 1, status 1"
tap_run "clean log: failure detail (pipe escaped)" has "$md" \
    "| chacha20.rfc8439 | block 2 word 5: expected 0x1234abcd got 0x5678ef01 \\| lane 3 |"
for p in bench-rng-cycles_per_call bench-fork-rng_share_pct aslr_entropy attack; do
    tap_run "clean log: $p.png is a real PNG" png_ok "$q/$p.png"
    tap_run "clean log: $p.png linked" has "$md" "($p.png)"
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
tap_run "tests-only log: plots skipped with a note" has "$t/report.md" "_Plots skipped: no bench, aslr or attack records to plot._"
tap_run "tests-only log: skip said on stderr" has "$tmp/stderr" "report: note: plots skipped: no bench, aslr or attack records"
tap_run "summary without test records: no 'test records 0'" eval "'$py' '$report' '$fx/desktop.log' --out '$tmp/ds' 2>/dev/null >&2 && grep -qF 'No per-test record in the log' '$tmp/ds/report.md' && ! grep -qF '| test records | 0 |' '$tmp/ds/report.md'"
tap_run "report.md: plots before the long tables" eval "'$py' '$report' '$fx/qemu.log' --out '$tmp/po' 2>/dev/null >&2 && [ \$(grep -n '^## Plots' '$tmp/po/report.md' | cut -d: -f1) -lt \$(grep -n '^## ' '$tmp/po/report.md' | grep -v Plots | sed -n 1p | cut -d: -f1) ]"
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
tap_run "bench-host log: one plot per rng metric" eq "$(cd "$h" && echo ./*.png)" \
    "./bench-rng-cycles_first_call.png ./bench-rng-cycles_per_byte.png ./bench-rng-cycles_per_call.png"

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
    "| suite | rng | metric | A: QEMU Virtual CPU version 2.5+ ⚠ | B: Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz | C: QEMU TCG icount | B ÷ A (95% interval) | C ÷ A (95% interval) |"
tap_run "compare: medians side by side" has "$c/compare.md" "| rng | md4-2.6.30 | cycles_per_call | 290 | 52 | 402 |"
tap_run "compare: missing value dash" has "$c/compare.md" "| fork | md4-2.6.30 | cycles_per_fork | 45180 | 31250 | – |"
tap_run "compare: 12 metric rows, in cycles and in ns" eq "$(grep -cE '^\| (rng|fork|timer) \|' "$c/compare.md")" 24
tap_run "compare: ns table, emulated column empty" has "$c/compare.md" "| rng | md4-2.6.30 | cycles_per_call | – | 28.9 | – |"
tap_run "compare: label falls back to file name" eval "'$compare' '$fx/tests-only.log' '$fx/qemu.log' --out '$c' | grep -qF '| suite | rng | metric | A: tests-only.log | B: QEMU'"
# Two runs of one machine: each its own legend entry (and colour), told apart.
mkdir -p "$tmp/two"
cp "$fx/qemu.log" "$tmp/two/run1.log"
cp "$fx/qemu.log" "$tmp/two/run2.log"
tap_run "compare two runs of one machine: exit 0" eval "'$compare' '$tmp/two/run1.log' '$tmp/two/run2.log' --out '$tmp/two/out' >/dev/null 2>&1"
if "$py" -c 'import matplotlib' 2>/dev/null; then
    tap_run "compare two runs: one legend entry per run" has "$tmp/two/out/compare.md" \
        "legend: QEMU Virtual CPU version 2.5+ · run1.log ⚠ EMULATED; QEMU Virtual CPU version 2.5+ · run2.log ⚠ EMULATED;"
fi
# The secure flag comes from the records: a fork record without one takes
# its log's rng record's flag (chacha20-wide is secure; no list decides it).
tap_run "secure flag from the records, not a list" "$py" -c '
import sys; sys.path.insert(0, sys.argv[1])
import report_plots as p
recs = [{"source": "a", "type": "bench", "suite": "rng", "rng": "chacha20-wide", "secure": True},
        {"source": "a", "type": "bench", "suite": "fork", "rng": "chacha20-wide"},
        {"source": "a", "type": "bench", "suite": "fork", "rng": "md4-2.6.30", "secure": False},
        {"source": "b", "type": "bench", "suite": "fork", "rng": "chacha20-batched"}]
p.fill_secure(recs)
assert [p.is_secure(r) for r in recs] == [True, True, False, False], recs
assert not hasattr(p, "SECURE_VARIANTS")' "$root/scripts"
tap_run "compare: no args is a usage error" eval "! '$compare' 2>/dev/null"
tap_run "compare --help: exit 0" eval "'$compare' --help >'$tmp/ch.out' 2>/dev/null"
tap_run "compare --help: usage on stdout" has "$tmp/ch.out" "usage: compare.sh LOG1 LOG2"
# --- the results store: ingest, idempotence, filters ---
db=$tmp/store/a.sqlite
q_rows() { "$py" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$db" "$1"; }
tap_run "ingest: two machines, exit 0" runs 0 ingest --db "$db" "$fx/desktop.log" "$fx/bench-host.log"
tap_run "ingest: says what it did on stderr" has "$tmp/stderr" "desktop.log: ingested (log 1, 8 records, machine Intel(R) Core(TM) i7-12700K)"
tap_run "ingest: every record stored" eq "$(q_rows 'select count(*) from records')" 18
tap_run "ingest: machine identity per boot" eq "$(q_rows "select machine || '|' || cast(tsc_hz as int) || '|' || emulated from boots where log_id = 2")" \
    "AMD EPYC 7B13 64-Core Processor|2450012000|0"
tap_run "ingest: provenance columns" eq "$(q_rows "select version || '|' || build_date from boots where log_id = 1")" \
    "v0.9-3-gabc1234|2026-12-01T09:00:00Z"
tap_run "ingest twice: exit 0" runs 0 ingest --db "$db" "$fx/desktop.log" "$fx/bench-host.log"
tap_run "ingest twice: no duplicate rows" eq "$(q_rows 'select count(*) from records')" 18
tap_run "ingest twice: said skipped" has "$tmp/stderr" "desktop.log: already in the store, skipped"
tap_run "ingest: emulated QEMU log" runs 0 ingest --db "$db" "$fx/qemu.log"
tap_run "ingest: QEMU boot marked emulated" eq "$(q_rows "select emulated from boots where log_id = 3")" 1
tap_run "ingest --machine names the box" runs 0 ingest --db "$db" --machine lab-box-7 "$fx/qemu-deterministic.log"
tap_run "ingest --machine stored" eq "$(q_rows "select machine || '|' || deterministic from boots where log_id = 4")" "lab-box-7|1"
tap_run "db --list: exit 0" runs 0 --db "$db" --list
tap_run "db --list: one line per boot" eq "$(wc -l <"$tmp/stdout")" 5
tap_run "db report: all logs" runs 0 --db "$db" --out "$tmp/dbr"
tap_run "db report: CSV rows = stored records" eq "$(csv_rows "$tmp/dbr/results.csv")" 79
tap_run "db filter --machine" runs 0 --db "$db" --machine epyc --out "$tmp/dbm"
tap_run "db filter --machine: one machine" eq "$(csv_rows "$tmp/dbm/results.csv")" 10
tap_run "db filter --variant" runs 0 --db "$db" --variant md4-2.6.30 --out "$tmp/dbv"
tap_run "db filter --variant: other variants gone" lacks "$tmp/dbv/report.md" "| chacha20-batched |"
tap_run "db filter --variant: boots kept" has "$tmp/dbv/report.md" "### \`$fx/desktop.log\`"
tap_run "db filter --variant nosuch: exit 2" runs 2 --db "$db" --variant nosuch --out "$tmp/dbn"
tap_run "db filter --variant nosuch: names the known values" has "$tmp/stderr" "known: chacha20-batched,"
tap_run "db filter --variant nosuch: no report written" eval "[ ! -e '$tmp/dbn/report.md' ]"
tap_run "db filter --version (tag prefix)" runs 0 --db "$db" --version v0.9 --out "$tmp/dbt"
tap_run "db filter --version: only that build" eq "$(csv_rows "$tmp/dbt/results.csv")" 8
tap_run "db filter --since today" runs 0 --db "$db" --since "$(date -u +%F)" --list
tap_run "db filter --until yesterday: nothing" runs 0 --db "$db" --until "$(date -u -d yesterday +%F)" --list
tap_run "db filter --until yesterday: header only" eq "$(wc -l <"$tmp/stdout")" 1
tap_run "db filter matching nothing: exit 1" runs 1 --db "$db" --machine no-such-box --out "$tmp/dbn"
tap_run "db bad date: usage error" runs 2 --db "$db" --since 12/01/2026
tap_run "db bad date: on stderr" has "$tmp/stderr" "--since wants YYYY-MM-DD"
tap_run "db missing: exit 2" runs 2 --db "$tmp/none.sqlite" --list
tap_run "db missing: clear message" has "$tmp/stderr" "no such database"
echo "not sqlite" >"$tmp/bad.sqlite"
tap_run "db not SQLite: exit 2" runs 2 --db "$tmp/bad.sqlite" --list
tap_run "filter without --db: usage error" runs 2 "$fx/qemu.log" --machine x

# --- honest plots and tables ---
k=$tmp/k
tap_run "below resolution: exit 0" runs 0 "$fx/desktop.log" --out "$k"
tap_run "below resolution: median flagged in the table" has "$k/report.md" "| prandom | cycles_per_call | 0 | 0 ⚠ below resolution (< 1) |"
tap_run "below resolution: batched resolution is step/16" has "$k/report.md" "0 ⚠ below resolution (< 0.0625)"
tap_run "below resolution: no relative cost of a 0" lacks "$k/report.md" "0.00×"
tap_run "batched cost plotted" png_ok "$k/bench-rng-cycles_per_call_batched.png"
tap_run "plots: legend flags below resolution" has "$k/report.md" "below resolution (not 0)](bench-rng-cycles_per_call.png)"
wil() { "$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import report_plots as p
lo, hi = p.wilson(int(sys.argv[2]), int(sys.argv[3])); print(f"{lo:.4f} {hi:.4f}")' "$root/scripts" "$@"; }
tap_run "Wilson 95% interval of 97/100" eq "$(wil 97 100)" "0.9155 0.9897"
tap_run "Wilson 95% interval of 0/100" eq "$(wil 0 100)" "0.0000 0.0370"
tap_run "attack plot: Wilson CI in the legend's caption" has "$q/report.md" "(attack.png)"
tap_run "deterministic log: exit 0" runs 0 "$fx/qemu-deterministic.log" --out "$tmp/det"
tap_run "deterministic plot: unit is instructions" has "$tmp/det/report.md" "![rng: cycles_per_call [instructions] — legend: QEMU TCG icount (deterministic);"
tap_run "one machine with tsc_hz: cycles axis (ns on the second)" has "$k/report.md" "![rng: cycles_per_call [cycles] — legend: Intel"
tap_run "EMULATED marked per machine" has "$q/report.md" "legend: QEMU Virtual CPU version 2.5+ ⚠ EMULATED;"
tap_run "emulated and real compared: cycles, not ns" runs 0 --compare "$fx/qemu.log" "$fx/desktop.log" --out "$tmp/ce"
tap_run "emulated and real compared: axis in cycles" has "$tmp/ce/compare.md" "![rng: cycles_per_call [cycles] — legend: QEMU Virtual CPU version 2.5+ ⚠ EMULATED; Intel"
tap_run "compare two machines: exit 0" runs 0 --compare "$fx/desktop.log" "$fx/bench-host.log" --out "$tmp/cm"
tap_run "compare: one plot per metric" eq "$(grep -c '^!\[rng: cycles_.* — legend: ' "$tmp/cm/compare.md")" 4
tap_run "compare: shared metric's legend names both machines" has "$tmp/cm/compare.md" \
    "![rng: cycles_per_call [ns] — legend: Intel(R) Core(TM) i7-12700K; AMD EPYC 7B13 64-Core Processor; secure"
tap_run "no matplotlib: exit 0" eval "'$py' -c 'import sys; sys.modules[\"matplotlib\"] = None; sys.path.insert(0, \"$root/scripts\"); sys.argv = [\"report.py\", \"$fx/qemu.log\", \"--out\", \"$tmp/nm\"]; import report; sys.exit(report.main())' 2>'$tmp/nm.err'"
tap_run "no matplotlib: said on stderr, with why" has "$tmp/nm.err" "report: note: plots skipped: matplotlib unavailable"
tap_run "no matplotlib: noted in the report" has "$tmp/nm/report.md" "_Plots skipped: matplotlib unavailable"

tap_run "--html of one log: exit 0" runs 0 "$fx/qemu.log" --html --out "$tmp/h1"
tap_run "--html of one log: page with embedded plots" eq "$(grep -o 'src="data:image/png;base64,' "$tmp/h1/report.html" | wc -l)" 6
tap_run "--html of one log: tables" has "$tmp/h1/report.html" "<td>chacha20.rfc8439</td><td class=\"long\">block 2 word 5: expected 0x1234abcd got 0x5678ef01 | lane 3</td>"
tap_run "compare: ns table flags below resolution" has "$tmp/cm/compare.md" "| rng | prandom | cycles_per_call | ⚠ below resolution (< 0.277) | 2.09 |"

# --- command line ---
tap_run "--help: exit 0" runs 0 --help
tap_run "--help: full usage on stdout" has "$tmp/stdout" "report.py ingest [--db DB] [--machine NAME] LOG..."
tap_run "--help: filters described" has "$tmp/stdout" "--since/--until YYYY-MM-DD"
tap_run "--help: usage printed once" eq "$(grep -c 'report.py ingest \[--db DB\]' "$tmp/stdout")" 1
tap_run "ingest --help: exit 0, stdout" runs 0 ingest --help
tap_run "ingest --help: usage" has "$tmp/stdout" "usage: report.py ingest"
tap_run "no arguments: usage error on stderr" runs 2
tap_run "no arguments: message" has "$tmp/stderr" "no LOG given"

if command -v shellcheck >/dev/null; then
    tap_run "shellcheck compare.sh and this test" shellcheck -x "$compare" "${BASH_SOURCE[0]}"
fi

tap_done
