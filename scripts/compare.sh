#!/usr/bin/env bash
# Compare machines side by side: one column per log (labelled by the boot
# record's cpu_model, else the file name), one row per (suite, rng, metric),
# median cycles in each cell.  Writes DIR/compare.md and prints it.
# A thin wrapper: all the parsing lives in report.py.
set -euo pipefail

if [[ $# -eq 0 || $1 == -h || $1 == --help ]]; then
    echo "usage: ${0##*/} LOG1 LOG2 ... [--out DIR]   (default DIR build/report)" >&2
    [[ $# -eq 0 ]] && exit 2
    exit 0
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Debian's python: the one that has python3-matplotlib (see report.py).
exec /usr/bin/python3 "$here/report.py" --compare "$@"
