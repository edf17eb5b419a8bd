#!/bin/busybox sh
# tests/sh/linux-ref.sh's layout probes in the guest: each build of
# tests/linux/lx_layoutprobe.c exec'd N times (default 100), one
# "layout KIND ..." line per exec.  Usage: layout.sh [N]
# shellcheck shell=sh
n=${1:-100}
for kind in static spie dyn m32; do
	i=0
	while [ "$i" -lt "$n" ]; do
		/bin/lx_layoutprobe_$kind "$kind" || echo "layout $kind failed: status $?"
		i=$((i + 1))
	done
done
