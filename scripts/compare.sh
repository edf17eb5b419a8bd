#!/usr/bin/env bash
# Compare runs side by side: one column per log (A, B, ...; labelled by the
# boot record's cpu_model, else the file name, and for two runs of one
# machine by their time and version, then file name), one row per (suite,
# rng, metric), median cycles in each cell; then a change column per log
# after the first: its median / A's with a 95 % interval (a bootstrap over
# the per-ensemble medians, scripts/report_compare.py), bold when the
# interval excludes 1.  Writes DIR/compare.md and prints it.
# A thin wrapper: all the parsing lives in report.py.
#
# Usage: scripts/compare.sh LOG1 LOG2 ... [--out DIR] [--html]
#
#   LOG...      serial logs of aslrbench runs (scripts/run-qemu.sh --log,
#               scripts/capture-serial.sh, build/host/bench-host --log)
#   --out DIR   where compare.md goes (default build/report)
#   --html      also DIR/compare.html, one self-contained page
#   -h, --help  this text on stdout; exit 0
#
# Exit status: report.py's (0 written; 1 a log without records; 2 bad
# arguments or an unreadable log); 2 without any LOG.
set -euo pipefail

usage="usage: ${0##*/} LOG1 LOG2 ... [--out DIR] [--html]   (default DIR build/report)
Writes DIR/compare.md (medians, each run's change from the first with a 95 %
interval, nanoseconds where tsc_hz is known), one plot per metric and with
--html DIR/compare.html; prints compare.md.
A store of many runs: scripts/report.py --db DB --compare (see report.py --help)."
if [[ $# -eq 0 ]]; then
    echo "$usage" >&2
    exit 2
fi
if [[ $1 == -h || $1 == --help ]]; then
    echo "$usage"
    exit 0
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Debian's python: the one with python3-matplotlib, -numpy, -scipy (see report.py).
exec /usr/bin/python3 "$here/report.py" --compare "$@"
