#!/usr/bin/env bash
# TAP: report.py's paxtest table from tests/fixtures/logs/paxtest.log
# (records of three grid points, console text, two broken records) and
# paxtest-linux.log (a plain paxtest log of Linux).  Every check asserts a
# whole table row, so a wrong parse of a record (bits, "No randomization",
# an empty result, a grid point's fields) or of the Linux log fails.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=/usr/bin/python3
report=$root/scripts/report.py
fx=$root/tests/fixtures/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
has() { grep -qxF -- "$2" "$1" || { echo "no line in $1: $2"; cat "$1"; return 1; }; }
runs() { # runs WANT_RC ARGS...: report.py, stdout to $tmp/md, stderr to $tmp/err
	local want=$1 rc=0
	shift
	"$py" "$report" "$@" >"$tmp/md" 2>"$tmp/err" || rc=$?
	[[ $rc == "$want" ]] || { echo "exit $rc, want $want"; cat "$tmp/err"; return 1; }
}

tap_run "paxtest table: exit 0" runs 0 paxtest --host "$fx/paxtest-linux.log" "$fx/paxtest.log"
md=$tmp/md
tap_run "paxtest table: one column per grid point, then Linux" has "$md" \
	"| paxtest test | chacha20-batched x86_64 rva=2 2.6.29 | chacha20-batched x86_64 rva=0 2.6.29 | ipid-2.6.29 ia32 rva=2 6.x | Linux host |"
tap_run "paxtest table: bits, none, two boots' figures both shown" has "$md" \
	"| Anonymous mapping randomization test | 28 / 27 | none | 8 | 28 |"
tap_run "paxtest table: NX result words, absent points as –" has "$md" \
	"| Executable stack | Killed | – | – | Killed |"
tap_run "paxtest table: a test without output" has "$md" \
	"| Return to function (memcpy) | – | – | (no output) | (no output) |"
tap_run "paxtest table: Linux's two tests on one line, No randomization" has "$md" \
	"| Stack randomization test (SEGMEXEC) | – | – | – | none |"
tap_run "paxtest table: Linux's second test of the line" has "$md" \
	"| Return to function (memcpy, PIE) | – | – | – | Killed |"
tap_run "paxtest table: 6 test rows, the broken records left out" eq "$(grep -c '^| [A-Z]' "$md")" 6
tap_run "paxtest table: bits as a string is refused" grep -qF \
	"paxtest.log:15: paxtest record left out of the table: bits is '17'" "$tmp/err"
tap_run "paxtest table: a record without aslr_rules is refused" grep -qF \
	"paxtest.log:16: paxtest record left out of the table: lacks aslr_rules" "$tmp/err"
tap_run "paxtest table: Linux text before 'Test results:' is not a test" \
	bash -c "! grep -q 'Executable anonymous mapping ' '$md'"

tap_run "paxtest table: no paxtest record: exit 1" runs 1 paxtest "$fx/qemu.log"
tap_run "paxtest table: unreadable log: exit 2" runs 2 paxtest "$tmp/none.log"
tap_run "paxtest table: no log: exit 2" runs 2 paxtest

tap_run "full report: exit 0" runs 0 "$fx/paxtest.log" --out "$tmp/r"
tap_run "full report: paxtest section" has "$tmp/r/report.md" "## paxtest"
tap_run "full report: the same rows" has "$tmp/r/report.md" \
	"| Anonymous mapping randomization test | 28 / 27 | none | 8 |"
tap_run "full report: no paxtest section without paxtest records" runs 0 "$fx/qemu.log" --out "$tmp/q"
tap_run "full report: (checked)" bash -c "! grep -q '^## paxtest' '$tmp/q/report.md'"
tap_done
