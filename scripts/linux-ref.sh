#!/usr/bin/env bash
# Runs one program under Linux 6.12 (Debian 13's cloud kernel) in QEMU, with
# the files an aslrbench boot gets, and exits with the program's status.
#
# Usage: scripts/linux-ref.sh [OPTIONS] --run "CMD ARGS"
#        scripts/linux-ref.sh [OPTIONS] init=PATH [-- ARGS...]
#        scripts/linux-ref.sh --fetch
#
#   --run "CMD ARGS"   a busybox sh command line, run by the guest's /init
#   init=PATH [-- ARGS...]  PATH run with ARGS, as aslrbench's init= key
#                      runs it (argv[0] PATH, environment HOME=/ TERM=linux,
#                      the console on fds 0-2); here a child of /init, not
#                      pid 1, unless --pid1
#   --pid1             /init execs the program (init= or --run) once the
#                      file systems are mounted, so it runs as pid 1, as
#                      aslrbench's init= does; its status comes from the
#                      kernel's "Attempted to kill init! exitcode=" line
#                      (a signal that ends it: status 128 + signal)
#   --add HOSTPATH[=IMAGEPATH]  a host file (a directory: recursively) into
#                      the initramfs at IMAGEPATH (default /bin/NAME), as
#                      run-qemu.sh --add; repeatable, later ones win
#   --smp N            number of CPUs (default 1)
#   --memory MB        guest memory (default 1024)
#   --deterministic    TCG with -icount shift=0: the flags of run-qemu.sh
#                      --deterministic (scripts/lib/qemu.sh); rdtsc counts
#                      guest instructions.  The guest's RNG still takes
#                      RDRAND's host entropy, so layouts differ run to run
#   --timeout SEC      stop the guest after SEC seconds (default 300)
#   --log FILE         also write the serial output to FILE
#   --append TEXT      more words for Linux's command line (after
#                      "console=ttyS0 quiet panic=-1 cryptomgr.notests")
#   --kernel FILE      boot this bzImage instead of the fetched one
#   --fetch            only fetch the kernel; print its path
#   -h, --help         this text, on stdout; exit 0
#
# The kernel: Debian 13 (trixie)'s linux-image-6.12.*+deb13-cloud-amd64-unsigned
# (serial console, initramfs, devtmpfs and /proc built in: no modules),
# downloaded once from the machine's own Debian mirror through
# scripts/lib/debfetch.sh and kept in build/linux-ref/ (VERSION names it;
# delete the directory to fetch the archive's newest).  No QEMU firmware
# beyond QEMU's own: QEMU loads the kernel directly (-kernel).
# The initramfs: build/initrd.cpio (the one built into build/aslrbench.iso:
# busybox and its applet links, the tests/linux programs, musl's and glibc's
# runtimes; make all builds it), then every --add, then /init, a busybox
# script that mounts proc on /proc, sysfs on /sys, devtmpfs on /dev and
# tmpfs on /tmp, runs the program from /, prints "linux-ref: exit status N"
# and powers off.
# Output: the serial console on stdout as it comes (the program's output,
# CRLF as the tty writes it); messages of linux-ref.sh on stderr.  Input:
# none; the program's stdin is the guest's console, which gets nothing
# from the host (a program that reads it waits until --timeout).
#
# Exit status: the program's own (0 passed, 1-63 as the program says), else
#    64  usage error (bad or missing option, a missing --add path)
#    66  QEMU or build/initrd.cpio missing (scripts/deps.sh, make all)
#    69  the kernel could not be fetched (no mirror, no network, no such
#        package; the message says which)
#   124  timeout
#   125  the guest stopped without printing the program's status (a panic,
#        /init failed; the serial output says why)
# A program that itself exits 64, 66, 69, 124 or 125 reads as these; the
# "linux-ref: exit status N" line of the output is the program's own.
# shellcheck disable=SC2317
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/debfetch.sh
. "$here/scripts/lib/debfetch.sh"
# shellcheck source=scripts/lib/qemu.sh
. "$here/scripts/lib/qemu.sh"
QEMU=${QEMU:-qemu-system-x86_64}
cache=$here/build/linux-ref
release=trixie

run="" init="" have_init=0 init_args=() adds=() smp=1 mem=1024 deterministic=0 timeout=300
log="" append="" kernel="" fetch_only=0 pid1=0

usage() { sed -n '/^# Usage:/,/^# "linux-ref: exit status N" line/p' "$0" | sed 's/^# \{0,1\}//'; }
note() { echo "linux-ref: $*" >&2; }
usage_error() {
	note "$* (see --help)"
	exit 64
}

while [ $# -gt 0 ]; do
	case $1 in
	--run) [ $# -ge 2 ] || usage_error "$1 needs a value"; run=$2; shift 2 ;;
	init=*)
		init=${1#init=} have_init=1
		shift
		[ -n "$init" ] || usage_error "init= needs a path"
		if [ $# -gt 0 ] && [ "$1" = -- ]; then
			shift
			init_args=("$@")
			set --
		fi
		;;
	--add)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		[ -e "${2%%=*}" ] || [ -L "${2%%=*}" ] || usage_error "--add: no such file '${2%%=*}'"
		adds+=(--add "$2")
		shift 2
		;;
	--smp) [ $# -ge 2 ] || usage_error "$1 needs a value"; smp=$2; shift 2 ;;
	--memory) [ $# -ge 2 ] || usage_error "$1 needs a value"; mem=$2; shift 2 ;;
	--deterministic) deterministic=1; shift ;;
	--pid1) pid1=1; shift ;;
	--timeout) [ $# -ge 2 ] || usage_error "$1 needs a value"; timeout=$2; shift 2 ;;
	--log) [ $# -ge 2 ] || usage_error "$1 needs a value"; log=$2; shift 2 ;;
	--append) [ $# -ge 2 ] || usage_error "$1 needs a value"; append=$2; shift 2 ;;
	--kernel) [ $# -ge 2 ] || usage_error "$1 needs a value"; kernel=$2; shift 2 ;;
	--fetch) fetch_only=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage_error "unknown option '$1'" ;;
	esac
done
case $timeout in '' | *[!0-9]* | 0) usage_error "--timeout needs whole seconds" ;; esac
case $smp in '' | *[!0-9]* | 0) usage_error "--smp needs a CPU count" ;; esac
case $mem in '' | *[!0-9]*) usage_error "--memory needs megabytes" ;; esac
if [ "$fetch_only" = 0 ]; then
	[ -n "$run" ] || [ "$have_init" = 1 ] || usage_error "no program: give --run \"CMD ARGS\" or init=PATH"
	[ -z "$run" ] || [ "$have_init" = 0 ] || usage_error "--run and init= both given"
	case $init in '' | /*) ;; *) usage_error "init=$init: the path must be absolute" ;; esac
	[ -z "$kernel" ] || [ -r "$kernel" ] || usage_error "--kernel: no such file '$kernel'"
fi

# The kernel, fetched once: the newest 6.12 cloud image of trixie.
vmlinuz() {
	local f
	for f in "$cache"/root/boot/vmlinuz-6.12.*; do
		[ -r "$f" ] && echo "$f" && return 0
	done
	return 1
}
fetch_kernel() {
	local f name
	if f=$(vmlinuz) && [ -s "$cache/VERSION" ]; then
		echo "$f"
		return 0
	fi
	note "fetching Debian 13's Linux 6.12 cloud kernel into $cache"
	debfetch_init "$cache" "$release" || return 1
	name=$(debfetch_cache search '^linux-image-6\.12\.[0-9]+\+deb13-cloud-amd64-unsigned$' 2>/dev/null |
		awk '{ print $1 }' | sort -V | tail -n 1)
	if [ -z "$name" ]; then
		note "no linux-image-6.12.*+deb13-cloud-amd64-unsigned package in $release (see $cache/apt.log)"
		return 1
	fi
	debfetch_get "$name" || return 1
	f=$(vmlinuz) || { note "$name has no boot/vmlinuz-6.12.*"; return 1; }
	# the modules are not needed (the cloud kernel has what a boot uses built in)
	rm -rf "$cache/root/lib" "$cache/root/usr" "$cache/apt"
	echo "$name $debfetch_version" >"$cache/VERSION"
	echo "$f"
}

if [ -z "$kernel" ]; then
	kernel=$(fetch_kernel) || { note "cannot fetch the Linux 6.12 kernel"; exit 69; }
fi
if [ "$fetch_only" = 1 ]; then
	echo "$kernel"
	exit 0
fi
command -v "$QEMU" >/dev/null || { note "missing $QEMU (run scripts/deps.sh)"; exit 66; }
base=$here/build/initrd.cpio
[ -r "$base" ] || { note "no $base (run 'make all')"; exit 66; }

tmp=$(mktemp -d)
qpid=""
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# /init: the mounts, the program, its status, power off.  The program's
# words are quoted for sh here, so any argument survives.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
if [ "$have_init" = 1 ]; then
	cmd="env -i HOME=/ TERM=linux $(quote "$init")"
	for a in "${init_args[@]}"; do cmd+=" $(quote "$a")"; done
else
	cmd="env -i HOME=/ TERM=linux /bin/busybox sh -c $(quote "$run")"
fi
# --pid1: the program replaces /init; the kernel's panic line carries its status.
run_line="$cmd
st=\$?
echo \"linux-ref: exit status \$st\"
/bin/busybox poweroff -f"
[ "$pid1" = 0 ] || run_line="exec $cmd"
cat >"$tmp/init" <<EOF
#!/bin/busybox sh
# scripts/linux-ref.sh's /init
export PATH=/sbin:/usr/sbin:/bin:/usr/bin
/bin/busybox mkdir -p /proc /sys /dev /tmp
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox mount -t tmpfs tmpfs /tmp
cd /
echo "linux-ref: running on \$(/bin/busybox uname -r)"
$run_line
EOF
chmod 755 "$tmp/init"
"$here/scripts/mkcpio.py" "$tmp/initrd.cpio" --base "$base" "${adds[@]}" --add "$tmp/init=/init" ||
	usage_error "--add: cannot build the initramfs"

args=(-machine q35 -m "$mem" -smp "$smp" -no-reboot -display none -monitor none -nic none
	-kernel "$kernel" -initrd "$tmp/initrd.cpio"
	-append "console=ttyS0 quiet panic=-1 cryptomgr.notests${append:+ $append}"
	-serial "file:$tmp/serial")
if [ "$deterministic" = 1 ]; then
	args+=("${QEMU_DETERMINISTIC_ARGS[@]}")
	note "deterministic: TCG with -icount shift=0 (cycles are guest instructions)"
else
	args+=(-accel tcg -cpu max)
fi
: >"$tmp/serial"
timeout -k 5 "$timeout" "$QEMU" "${args[@]}" </dev/null >"$tmp/qemu.out" 2>&1 &
qpid=$!
# The serial file as it grows, to stdout and the log (a file, not a FIFO:
# a slow reader never stalls the guest's UART, as under run-qemu.sh --deterministic).
if [ -n "$log" ]; then
	tail -c +1 -s 0.2 -f --pid="$qpid" "$tmp/serial" | tee "$log"
else
	tail -c +1 -s 0.2 -f --pid="$qpid" "$tmp/serial"
fi
set +e
wait "$qpid"
st=$?
set -e
qpid=""
case $st in
124 | 137) note "guest timed out after ${timeout}s"; exit 124 ;;
0) ;;
*)
	cat "$tmp/qemu.out" >&2
	note "QEMU ended with status $st"
	exit 125
	;;
esac
status=$(tr -d '\r' <"$tmp/serial" | sed -n 's/^linux-ref: exit status \([0-9]*\)$/\1/p' | tail -n 1)
if [ -z "$status" ] && [ "$pid1" = 1 ]; then
	# "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000300": a wait status
	ws=$(tr -d '\r' <"$tmp/serial" | sed -n 's/.*Attempted to kill init! exitcode=0x\([0-9a-f]*\).*/\1/p' | tail -n 1)
	if [ -n "$ws" ]; then
		ws=$((16#$ws))
		if [ $((ws & 0x7f)) = 0 ]; then status=$(((ws >> 8) & 0xff)); else status=$((128 + (ws & 0x7f))); fi
		echo "linux-ref: exit status $status (pid 1)"
	fi
fi
if [ -z "$status" ]; then
	note "the guest stopped without the program's status (see the output above)"
	exit 125
fi
exit "$status"
