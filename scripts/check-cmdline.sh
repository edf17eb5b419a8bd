#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks a kernel command line on the host with the kernel's own parser
# (build/host/params over build/params.bin, the kernel's ".kparams" table).
#
#   scripts/check-cmdline.sh LINE
#
# Exit status: 0 the kernel accepts LINE; 2 it does not (the kernel's
# message on stderr, as run-qemu.sh's status for a bad command line);
# 100 LINE was "help" and the keys were listed on stdout (nothing to boot).
# Without a built table (no 'make all' yet) it says so and exits 0: the
# kernel still checks the line when it boots.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tool="$here/build/host/params" table="$here/build/params.bin"

if [ $# -ne 1 ]; then
	echo "usage: scripts/check-cmdline.sh LINE" >&2
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
exec "$tool" "$table" check "$1"
