#!/usr/bin/env bash
# What common operations cost under Linux 6.12 and under aslrbench: the
# same probe (tests/linux/lx_costprobe.c) booted under both kernels with
# -icount shift=0, where rdtsc counts guest instructions, then one markdown
# table (scripts/linux_cost.py): operation | Linux 6.12 | aslrbench | ratio,
# and the RNG variants' draws as a share of either kernel's fork.
#
# Usage: scripts/linux-cost.sh [--runs N] [--dir DIR] [--from DIR]
#
#   --runs N    boots of Linux 6.12 (default 3): it seeds its CRNG from the
#               host's RDRAND, so its layouts, and a few of its figures,
#               change from boot to boot; the table gives the median of the
#               boots' medians and their range.  aslrbench boots once: its
#               deterministic runs are identical
#   --dir DIR   where the logs go (default build/linux-cost)
#   --from DIR  boot nothing: the table from the logs an earlier run left
#               in DIR
#   -h, --help  this text on stdout; exit 0
#
# Each kernel boots one script (init=/bin/costrun, a #! script for busybox
# sh) that runs, one after another: the static glibc probe (every row),
# the static musl probe (fork and vfork), and the dynamic probe through
# Debian 13's glibc 2.41 (scripts/glibc-fetch.sh) for the vDSO getrandom
# rows; without that C library those rows are left out.  aslrbench also
# runs its fork suite (mode=bench suite=fork) for the draws inside a fork.
# One QEMU at a time.  Needs make all's build/aslrbench.iso and
# build/initrd.cpio.
#
# Exit status: 0 the table was printed; 1 a boot or the table failed (the
# log named says why); 2 bad arguments; 66 the image or initramfs missing;
# 69 the Linux 6.12 kernel could not be fetched.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }
usage_error() {
	echo "linux-cost: $1 (--help)" >&2
	exit 2
}

runs=3 dir=$here/build/linux-cost from=""
while [ $# -gt 0 ]; do
	case $1 in
	--runs)
		[ $# -ge 2 ] || usage_error "--runs needs a value"
		[[ $2 =~ ^[1-9][0-9]?$ ]] || usage_error "--runs: a number from 1 to 99, not '$2'"
		runs=$2
		shift 2
		;;
	--dir)
		[ $# -ge 2 ] || usage_error "--dir needs a value"
		dir=$2
		shift 2
		;;
	--from)
		[ $# -ge 2 ] || usage_error "--from needs a value"
		from=$2
		shift 2
		;;
	-h | --help)
		usage
		exit 0
		;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done

if [ -n "$from" ]; then
	exec python3 "$here/scripts/linux_cost.py" "$from"
fi

cd "$here" || exit 1
for f in build/aslrbench.iso build/initrd.cpio; do
	[ -r "$f" ] || {
		echo "linux-cost: $f missing (make all)" >&2
		exit 66
	}
done
make -s --no-print-directory build/user/linux/lx_costprobe_dyn >&2 || exit 1
scripts/linux-ref.sh --fetch >/dev/null || exit 69
mkdir -p "$dir"
rm -f "$dir"/*.log

gl=/opt/glibc241
adds=()
{
	echo '#!/bin/sh'
	echo '# linux-cost: the probes, one after another (scripts/linux-cost.sh)'
	echo 'echo "== costprobe glibc"; /bin/lx_costprobe_glibc'
	echo 'echo "== costprobe musl"; /bin/lx_costprobe_musl fork vfork'
} >"$dir/costrun"
if lib=$(scripts/glibc-fetch.sh 2>"$dir/glibc-fetch.err"); then
	adds=(--add "$lib/ld-linux-x86-64.so.2=$gl/ld-linux-x86-64.so.2" --add "$lib/libc.so.6=$gl/libc.so.6"
		--add build/user/linux/lx_costprobe_dyn=/bin/lx_costprobe_dyn)
	echo "echo \"== costprobe dyn\"; $gl/ld-linux-x86-64.so.2 --library-path $gl /bin/lx_costprobe_dyn vgetrandom" \
		>>"$dir/costrun"
else
	echo "linux-cost: no glibc 2.41, the vDSO getrandom rows are left out: $(tail -n 1 "$dir/glibc-fetch.err")" >&2
fi
echo 'echo "== costprobe end"' >>"$dir/costrun"
chmod 755 "$dir/costrun"
adds+=(--add "$dir/costrun=/bin/costrun")

# boot WHAT LOG COMMAND...: one boot, its serial output in LOG
boot() {
	local what=$1 log=$2
	shift 2
	echo "linux-cost: $what -> $log" >&2
	"$@" --log "$log" </dev/null >/dev/null 2>"$log.err" || {
		echo "linux-cost: $what failed (exit $?): $log, $log.err" >&2
		exit 1
	}
}
boot "aslrbench, the probes" "$dir/aslrbench.log" \
	scripts/run-qemu.sh --deterministic --timeout 600 "${adds[@]}" \
	--cmdline "aslr_rules=6.x init=/bin/costrun"
boot "aslrbench, the fork suite" "$dir/aslrbench-fork-suite.log" \
	scripts/run-qemu.sh --deterministic --timeout 600 --cmdline "mode=bench suite=fork"
for k in $(seq 1 "$runs"); do
	boot "Linux 6.12, the probes ($k of $runs)" "$dir/linux-6.12-$k.log" \
		scripts/linux-ref.sh --deterministic --pid1 --timeout 600 "${adds[@]}" init=/bin/costrun
done
python3 "$here/scripts/linux_cost.py" "$dir"
