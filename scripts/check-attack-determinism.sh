#!/bin/bash
# check-attack-determinism.sh - two identical deterministic attack-lab runs
# must print identical attack records (TAP on stdout, exit 0/1).
#
#   scripts/check-attack-determinism.sh [--iso FILE] [--cmdline "k=v ..."] [--logs DIR]
#
# Default command line: "mode=attack samples=2 suite=pid-jiffies-collision"
# (the strategy whose outcome depends on which jiffy each exec lands in).
# Both boots use run-qemu.sh --deterministic (QEMU -icount shift=0, the
# fixed seed): an exec takes the time its instructions take, so the records
# cannot depend on the host's load.  The boots run one after the other.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
cmd="mode=attack samples=2 suite=pid-jiffies-collision"
iso_args=()
logs=$here/build/test-logs

usage() {
	echo "usage: $0 [--iso FILE] [--cmdline \"k=v ...\"] [--logs DIR]" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--iso) [ $# -ge 2 ] || usage; iso_args=(--iso "$2"); shift 2 ;;
	--cmdline) [ $# -ge 2 ] || usage; cmd=$2; shift 2 ;;
	--logs) [ $# -ge 2 ] || usage; logs=$2; shift 2 ;;
	*) usage ;;
	esac
done
mkdir -p "$logs" || exit 2

echo "1..2"
st=()
for run in a b; do
	"$here/scripts/run-qemu.sh" "${iso_args[@]}" --deterministic --cmdline "$cmd" \
		--timeout 900 --log "$logs/attack-det-$run.log" >/dev/null 2>"$logs/attack-det-$run.err"
	st+=($?)
done
records() { grep -a '^@@ {"type":"attack"' "$1" | tr -d '\r'; }
if [ "${st[0]}" -eq 0 ] && [ "${st[1]}" -eq 0 ] && [ -n "$(records "$logs/attack-det-a.log")" ]; then
	echo "ok 1 - both deterministic attack runs exited 0 with attack records"
else
	echo "not ok 1 - run-qemu.sh exited ${st[0]} and ${st[1]} (logs in $logs/attack-det-*.log)"
	echo "not ok 2 - records not compared"
	exit 1
fi
if diff <(records "$logs/attack-det-a.log") <(records "$logs/attack-det-b.log") >"$logs/attack-det.diff"; then
	echo "ok 2 - two runs of \"$cmd\" gave identical attack records ($(records "$logs/attack-det-a.log" | wc -l))"
	exit 0
fi
echo "not ok 2 - the two runs differ (see $logs/attack-det.diff)"
exit 1
