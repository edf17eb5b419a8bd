#!/usr/bin/env bash
# TAP tests for scripts/bundle.sh: a log becomes one file with a header of
# provenance lines and the log unchanged, which scripts/report.py still
# reads; a log without records, a missing log and bad options are refused.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

log=tests/fixtures/logs/desktop.log
status() { # status WANT CMD...: CMD exits with WANT
	local want=$1 st=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" = "$want" ] || { echo "exit status $st, expected $want"; cat "$tmp/err"; return 1; }
}
tap_run "a desktop log: bundled, exit 0" status 0 scripts/bundle.sh "$log" --out "$tmp/b.txt"
tap_run "the log follows the header byte for byte" \
	cmp <(sed '1,/^# ---- the log ----$/d' "$tmp/b.txt") "$log"
header() { has "$tmp/b.txt" "# aslrbench results bundle, format 1" && has "$tmp/b.txt" "# checkout: " && has "$tmp/b.txt" "# bundled on: "; }
tap_run "header: format, checkout, bundling machine" header
tap_run "header: the log's SHA-256 and record count" \
	has "$tmp/b.txt" "sha256 $(sha256sum "$log" | cut -d' ' -f1), $(grep -ac '^@@ {' "$log") records"
run_lines() { grep -q "^# run.cpu_model: ." "$tmp/b.txt" && grep -q "^# run.summary: " "$tmp/b.txt"; }
tap_run "header: the boot record's CPU and the summary" run_lines
report() { scripts/report.py "$tmp/b.txt" --out "$tmp/rep" >/dev/null 2>&1 && [ -s "$tmp/rep/results.csv" ]; }
tap_run "report.py reads the bundle" report
tap_run "a log without records: exit 1" status 1 scripts/bundle.sh tests/fixtures/logs/no-records.log --out "$tmp/n.txt"
tap_run "... and no bundle written" test ! -e "$tmp/n.txt"
missing() { status 2 scripts/bundle.sh "$tmp/none.log" && has "$tmp/err" "$tmp/none.log"; }
tap_run "a missing log: exit 2, named" missing
tap_run "an unknown option: exit 2" status 2 scripts/bundle.sh --nope "$log"
tap_run "an unwritable output: exit 2" status 2 scripts/bundle.sh "$log" --out "$tmp/no/such/dir/b.txt"
tap_done
