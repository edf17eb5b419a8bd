#!/usr/bin/env bash
# TAP: report.py --html rendered by headless Chromium (Debian's chromium).
# Two fixture logs from different machines go into one store (one of them
# twice: no duplicate rows); the HTML comparison must show one plot per
# metric, each with a legend naming both machines where both have data, the
# tables, and fit a phone's width as well as a desktop's.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=/usr/bin/python3 # Debian's python: matplotlib and PIL
fx=$root/tests/fixtures/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
chrome() { # chrome WIDTHxHEIGHT ARGS...: one headless run, its own profile
	local size=$1 prof
	shift
	prof=$(mktemp -d "$tmp/prof.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --window-size="${size/x/,}" "$@" 2>>"$tmp/chromium.err"
}

if ! command -v chromium >/dev/null || ! "$py" -c 'import matplotlib, PIL' 2>/dev/null; then
	echo "1..0 # SKIP needs chromium and python3-matplotlib (scripts/deps.sh installs them)"
	exit 0
fi

db=$tmp/results.sqlite
rows() { "$py" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from records").fetchone()[0])' "$db"; }
tap_run "ingest two machines" "$py" "$root/scripts/report.py" ingest --db "$db" "$fx/desktop.log" "$fx/bench-host.log"
before=$(rows)
tap_run "ingest one log again" "$py" "$root/scripts/report.py" ingest --db "$db" "$fx/desktop.log"
tap_run "a log ingested twice adds no row" eq "$(rows)" "$before"
out=$tmp/out-html
tap_run "HTML comparison from the store" "$py" "$root/scripts/report.py" --db "$db" --compare --html --out "$out"
page=$out/compare.html
tap_run "self-contained: plots as data: URIs, no other file referenced" \
	"$py" -c 'import re,sys; t=open(sys.argv[1]).read()
srcs=re.findall(r"(?:src|href)=\"([^\"]*)\"", t)
assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs), srcs[:3]' "$page"

chrome 1280x900 --dump-dom "file://$page" >"$tmp/dom.html"
tap_run "Chromium renders the DOM" has "$tmp/dom.html" "<h1>aslrbench: machines compared (median)</h1>"
tap_run "DOM names machine 1" has "$tmp/dom.html" "Intel(R) Core(TM) i7-12700K"
tap_run "DOM names machine 2" has "$tmp/dom.html" "AMD EPYC 7B13 64-Core Processor"
tap_run "DOM has the tables (medians, ns)" eq "$(grep -o '<table>' "$tmp/dom.html" | wc -l)" 3
tap_run "DOM table cell: a median side by side" has "$tmp/dom.html" "<td>md4-2.6.30</td><td>cycles_per_call</td><td>42</td><td>58.25</td>"
tap_run "DOM flags below resolution" has "$tmp/dom.html" "0 ⚠ below resolution (&lt; 1)"
# The metrics of the comparison's tables: cycles_per_call, _batched, _byte, first_call.
metrics=$(awk -F' [|] ' '/^[|] rng [|]/ { print $3 }' "$out/compare.md" | sort -u | wc -l)
tap_run "one plot per metric ($metrics)" eq "$(grep -o '<img ' "$tmp/dom.html" | wc -l)" "$metrics"
tap_run "legend naming both machines on the shared metric" has "$tmp/dom.html" \
	"rng: cycles_per_call [ns] — legend: Intel(R) Core(TM) i7-12700K; AMD EPYC 7B13 64-Core Processor; secure variant (hatched)"
tap_run "every plot has a legend" eq "$(grep -oE '<figcaption>[^<]* — legend: ' "$tmp/dom.html" | wc -l)" "$metrics"

# Screenshots: the expected size, not blank, both machines' colours drawn.
shot() { # shot WxH FILE
	local w=${1%x*} h=${1#*x}
	"$py" -c '
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = int(sys.argv[2]), int(sys.argv[3])
assert im.size == (w, h), f"size {im.size}, want {(w, h)}"
px = list(im.getdata())
ink = sum(1 for p in px if p != (255, 255, 255)) / len(px)
assert ink > 0.05, f"blank: only {ink:.1%} non-white"
near = lambda p, c: all(abs(a - b) < 12 for a, b in zip(p, c))
for name, c in (("machine 1 (C0 blue)", (31, 119, 180)), ("machine 2 (C1 orange)", (255, 127, 14))):
    cnt = sum(1 for p in px if near(p, c))
    assert cnt > 200, f"{name}: {cnt} pixels"
print(f"{ink:.1%} ink")' "$2" "$w" "$h"
}
chrome 1280x2400 --screenshot="$tmp/desktop.png" "file://$page" >/dev/null
tap_run "desktop screenshot: 1280x2400, not blank, both machines' colours" shot 1280x2400 "$tmp/desktop.png"
chrome 500x2400 --screenshot="$tmp/phone.png" "file://$page" >/dev/null
tap_run "phone screenshot: 500x2400, not blank, both machines' colours" shot 500x2400 "$tmp/phone.png"
# Phone width: the page itself never scrolls sideways (wide tables scroll in their box).
cp "$page" "$tmp/probe.html"
echo '<script>document.body.dataset.fit = document.documentElement.scrollWidth <= window.innerWidth ? "yes" : "no:" + document.documentElement.scrollWidth + ">" + window.innerWidth</script>' >>"$tmp/probe.html"
chrome 500x900 --dump-dom "file://$tmp/probe.html" >"$tmp/probe.dom"
tap_run "phone width: no horizontal page scroll" has "$tmp/probe.dom" 'data-fit="yes"'
if [ -n "${REPORT_HTML_KEEP:-}" ]; then # for a look by eye
	mkdir -p "$REPORT_HTML_KEEP" && cp "$tmp"/desktop.png "$tmp"/phone.png "$page" "$REPORT_HTML_KEEP"/
fi
tap_done
