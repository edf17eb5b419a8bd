#!/usr/bin/env bash
# TAP: scripts/compare.sh's change column and run labels (report_compare.py).
# Two real runs of one machine and one build (tests/fixtures/logs/
# qemu-run1.log and qemu-run2.log: `mode=bench suite=rng samples=200
# ensembles=5 variants=md4-2.6.30,chacha20-batched`, two minutes apart, cut
# to their boot, cycles_per_call and summary records) must get different
# column labels, and every ratio an interval, in the Markdown and the HTML;
# a log without per-ensemble medians gets its ratio and "no interval"; the
# intervals are checked by hand where they can be.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=/usr/bin/python3 # Debian's python: numpy, scipy, matplotlib
compare=$root/scripts/compare.sh
fx=$root/tests/fixtures/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

if ! "$py" -c 'import numpy, scipy' 2>/dev/null; then
	echo "1..0 # SKIP needs python3-numpy and python3-scipy (scripts/deps.sh installs them)"
	exit 0
fi

# The change cells of compare.md or compare.html, one per line:
# "ROW-KEY<TAB>HEADER<TAB>CELL" for each column headed "X ÷ A ...".
cells() {
	"$py" - "$1" <<'PY'
import html.parser, re, sys
path = sys.argv[1]
rows = []
if path.endswith(".md"):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, ln in enumerate(lines):
        if ln.startswith("| suite | rng | metric |"):
            head = [c.strip() for c in ln.strip("|").split(" | ")]
            for body in lines[i + 2:]:
                if not body.startswith("|"):
                    break
                rows.append((head, [c.strip() for c in body.strip("|").split(" | ")]))
            break
else:
    class P(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tables, self.cell = [], None
        def handle_starttag(self, tag, attrs):
            if tag == "table":
                self.tables.append([])
            elif tag == "tr":
                self.tables[-1].append([])
            elif tag in ("td", "th"):
                self.cell = ""
        def handle_endtag(self, tag):
            if tag in ("td", "th"):
                self.tables[-1][-1].append(self.cell.strip())
                self.cell = None
        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data
    p = P()
    p.feed(open(path, encoding="utf-8").read())
    for t in p.tables:
        if t and t[0][:3] == ["suite", "rng", "metric"]:
            rows = [(t[0], r) for r in t[1:]]
            break
for head, row in rows:
    for h, c in zip(head, row):
        if "÷ A" in h:
            print(f"{row[1]}/{row[2]}\t{h}\t{c}")
PY
}
# Every cell of a change column that has a ratio also has an interval:
# "R× (LO–HI)", maybe bold with ▲/▼, maybe † after.  Prints the count checked.
all_intervals() {
	cells "$1" | "$py" -c '
import re, sys
pat = re.compile(r"^(\*\*)?\d+(\.\d+)?× \(\d+(\.\d+)?–\d+(\.\d+)?\)( [▲▼](\*\*)?)?( †)?$")
n = 0
for line in sys.stdin:
    key, head, cell = line.rstrip("\n").split("\t")
    if cell == "–":
        continue
    n += 1
    if not pat.match(cell):
        sys.exit(f"{key} ({head}): ratio without an interval: {cell!r}")
if not n:
    sys.exit("no ratio at all")
print(n)'
}

out=$tmp/two
tap_run "two runs of one machine: exit 0" eval "'$compare' '$fx/qemu-run1.log' '$fx/qemu-run2.log' --html --out '$out' >'$tmp/stdout' 2>'$tmp/stderr'"
md=$out/compare.md
tap_run "compare.md printed on stdout" eq "$(cat "$tmp/stdout")" "$(cat "$md")"
# Same CPU model, same build: the boot records' times tell the columns apart.
hdr=$(grep -m1 '^| suite | rng | metric |' "$md")
tap_run "labels differ by the runs' time and version" eq "$hdr" \
	"| suite | rng | metric | A: QEMU TCG CPU version 2.5+ · 2026-12-04 14:38 · f1a24a1 ⚠ | B: QEMU TCG CPU version 2.5+ · 2026-12-04 14:40 · f1a24a1 ⚠ | B ÷ A (95% interval) |"
tap_run "run table: each run's time to the second" has "$md" \
	"| B | QEMU TCG CPU version 2.5+ | 2026-12-04 14:40:50 | f1a24a1 | $fx/qemu-run2.log |"
tap_run "every ratio has an interval (Markdown)" eval "[ \"\$(all_intervals '$md')\" = 2 ]"
tap_run "every ratio has an interval (HTML)" eval "[ \"\$(all_intervals '$out/compare.html')\" = 2 ]"
tap_run "legend says what bold means" has "$md" "**Bold ▲/▼**: the interval excludes 1.00"
# By hand: run 2's chacha20-batched ensemble medians are 216..226, run 1's
# 171..189, so every resampled ratio lies in [216/189, 226/171] = [1.143,
# 1.322]: the interval must too, and it excludes 1 (bold, ▲).  The ratio of
# the whole runs' medians is 222/184 = 1.21.
ci() { # ci FILE ROW-KEY: "ratio lo hi"
	cells "$1" | awk -F'\t' -v k="$2" '$1 == k { print $3 }' |
		sed -E 's/^\*\*//; s/^([0-9.]+)× \(([0-9.]+)–([0-9.]+)\).*/\1 \2 \3/'
}
within() { # within "R LO HI" RATIO MIN MAX: R as given, MIN <= LO <= HI <= MAX
	"$py" -c 'import sys
r, lo, hi = map(float, sys.argv[1].split()); want, a, b = map(float, sys.argv[2:])
assert r == want and a <= lo <= hi <= b, f"{sys.argv[1]} not {want} within [{a}, {b}]"' "$@"
}
tap_run "chacha20-batched: 1.21× inside [1.14, 1.33] by hand" within "$(ci "$md" chacha20-batched/cycles_per_call)" 1.21 1.14 1.33
tap_run "chacha20-batched: significant, bold ▲" has "$md" "| **1.21× ("
tap_run "chacha20-batched: bold ▲ in the HTML" has "$out/compare.html" "<strong>1.21× ("
# md4-2.6.30: 1036/976 = 1.06; ensemble medians 960..1078 over 914..1014.
tap_run "md4-2.6.30: 1.06× inside [0.94, 1.18] by hand" within "$(ci "$md" md4-2.6.30/cycles_per_call)" 1.06 0.94 1.18
# The seed is fixed: the same logs give the same page.
"$compare" "$fx/qemu-run1.log" "$fx/qemu-run2.log" --out "$tmp/again" >/dev/null 2>&1
tap_run "reproducible: the same intervals twice" eq "$(cells "$tmp/again/compare.md")" "$(cells "$md")"

# Identical runs: every ratio 1.00, every interval around it, nothing bold.
cp "$fx/qemu-run1.log" "$tmp/copy.log"
"$compare" "$fx/qemu-run1.log" "$tmp/copy.log" --html --out "$tmp/same" >/dev/null 2>&1
tap_run "identical logs: labels still differ (file name)" has "$tmp/same/compare.md" \
	"| A: QEMU TCG CPU version 2.5+ · 2026-12-04 14:38:12 · f1a24a1 · qemu-run1.log ⚠ | B: QEMU TCG CPU version 2.5+ · 2026-12-04 14:38:12 · f1a24a1 · copy.log ⚠ |"
identical() {
	cells "$1" | "$py" -c '
import re, sys
n = 0
for line in sys.stdin:
    cell = line.rstrip("\n").split("\t")[2]
    m = re.match(r"^1\.00× \((\d+\.\d+)–(\d+\.\d+)\)$", cell)
    assert m and float(m[1]) <= 1 <= float(m[2]), f"not 1.00 around 1: {cell!r}"
    n += 1
assert n == 2, n'
}
tap_run "identical logs: 1.00× with an interval around 1 (Markdown)" identical "$tmp/same/compare.md"
tap_run "identical logs: 1.00× with an interval around 1 (HTML)" identical "$tmp/same/compare.html"

# Hand-made: every ensemble median of A is 100, of B 150: exactly 1.50 (1.50–1.50).
rec() { # rec NAME MEDIAN ENS...: a boot and one bench record
	local name=$1 med=$2 ens
	shift 2
	ens=$(IFS=,; echo "$*")
	printf '@@ {"type":"boot","cpu_model":"Hand CPU","hypervisor":false,"deterministic":true,"version":"v1","time":"2026-01-02T03:04:05Z"}\n' >"$tmp/$name.log"
	printf '@@ {"type":"bench","suite":"rng","rng":"md4-2.6.30","metric":"cycles_per_call","median":%s,"ensembles":%s,"samples":10,"ens_medians":[%s]}\n' \
		"$med" "$#" "$ens" >>"$tmp/$name.log"
}
rec flat-a 100 100 100 100 100 100
rec flat-b 150 150 150 150 150 150
"$compare" "$tmp/flat-a.log" "$tmp/flat-b.log" --out "$tmp/flat" >/dev/null 2>&1
tap_run "constant ensembles: 1.50× (1.50–1.50), significant" has "$tmp/flat/compare.md" \
	"| rng | md4-2.6.30 | cycles_per_call | 100 | 150 | **1.50× (1.50–1.50) ▲** |"
tap_run "one machine, one time: file names tell the runs apart" has "$tmp/flat/compare.md" \
	"| A: Hand CPU · 2026-01-02 03:04:05 UTC · v1 · flat-a.log | B: Hand CPU · 2026-01-02 03:04:05 UTC · v1 · flat-b.log |"
rec two-a 100 100 100
rec two-b 100 100 100
"$compare" "$tmp/two-a.log" "$tmp/two-b.log" --out "$tmp/few" >/dev/null 2>&1
tap_run "two ensembles: the ratio, and why no interval" has "$tmp/few/compare.md" "| 1.00× no interval (fewer than 3 ensembles) |"

# An old log (no ens_medians): its ratio, no made-up interval, and why.
"$compare" "$fx/qemu-run1.log" "$fx/qemu.log" --html --out "$tmp/old" >/dev/null 2>&1
tap_run "old log: ratio with 'no interval' (Markdown)" has "$tmp/old/compare.md" \
	"| rng | md4-2.6.30 | cycles_per_call | 976 | 290 | 0.30× no interval (old log: no per-ensemble medians) |"
tap_run "old log: 'no interval' (HTML)" has "$tmp/old/compare.html" \
	"0.30× no interval (old log: no per-ensemble medians)</td>"
tap_run "old log: the legend says why" has "$tmp/old/compare.md" \
	"_no interval (old log: no per-ensemble medians)_: a log written before"

# The plots: each run its own legend entry (and colour), labelled as its column.
if "$py" -c 'import matplotlib' 2>/dev/null; then
	tap_run "plot legend: one entry per run, as the columns" has "$md" \
		"legend: QEMU TCG CPU version 2.5+ · 2026-12-04 14:38 · f1a24a1 ⚠ EMULATED; QEMU TCG CPU version 2.5+ · 2026-12-04 14:40 · f1a24a1 ⚠ EMULATED;"
fi
if command -v shellcheck >/dev/null; then
	tap_run "shellcheck this test" shellcheck -x "${BASH_SOURCE[0]}"
fi
tap_done
