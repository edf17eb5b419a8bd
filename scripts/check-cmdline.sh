#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Usage: scripts/check-cmdline.sh [--log FILE] LINE
#        scripts/check-cmdline.sh help
#
# Checks a kernel command line on the host with the kernel's own parser and
# key table (build/host/params over build/params.bin, the kernel's
# ".kparams" section), as run-qemu.sh does before QEMU starts; "help" lists
# every key with its accepted values, default and help line.  --log FILE
# also writes a refusal into FILE (run-qemu.sh's log, where the kernel's
# own message would have gone).
#
# Exit status: 0 the kernel accepts LINE; 2 it does not (the kernel's
# message on stderr; 2 is also run-qemu.sh's status for a bad command line);
# 100 LINE was "help" and the keys went to stdout (nothing to boot); 64 usage.
# Without a built table (no 'make all' yet) it says so and exits 0: the
# kernel still checks the line when it boots.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/build/host/params" table="$here/build/params.bin"

usage() { sed -n '/^# Usage:/,/^# 100/p' "$0" | sed 's/^# \{0,1\}//'; }
log=""
if [ "${1-}" = --log ] && [ $# -ge 2 ]; then
	log=$2
	shift 2
fi
case ${1-} in
-h | --help)
	usage
	exit 0
	;;
--?*)
	echo "check-cmdline: unknown option '$1' (see --help)" >&2
	exit 64
	;;
esac
if [ $# -ne 1 ]; then
	echo "check-cmdline: needs one LINE (see --help)" >&2
	exit 64
fi
if [ ! -x "$tool" ] || [ ! -r "$table" ]; then
	echo "check-cmdline: no $tool or $table (make all); the kernel will check the line" >&2
	exit 0
fi
case $1 in
help | " help" | "help ")
	"$tool" "$table" help
	exit 100
	;;
esac
if ! msg=$("$tool" "$table" check "$1" 2>&1); then
	echo "$msg" >&2
	[ -z "$log" ] || echo "$msg" >"$log"
	exit 2
fi
