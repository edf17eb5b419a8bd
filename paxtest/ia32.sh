#!/usr/bin/env bash
# make paxtest-ia32: Debian's i386 paxtest (paxtest:i386, dynamic, with
# libc6-i386's ld-linux.so.2 and libc) run inside the kernel as IA-32
# programs in compatibility mode: its anonymous-mapping test (randamap, 1500
# runs of getamap) under each rule set, one boot each (about 2 min under TCG).
#
# Usage: paxtest/ia32.sh [--rules 2.6.29,6.x] [--rva 2] [--tests "randamap"]
#                        [--iso FILE] [--out DIR] [--dry-run]
#
# paxtest:i386 cannot be installed beside the amd64 paxtest the image holds
# (it is not Multi-Arch), so its .deb is fetched with `apt-get download
# paxtest:i386` into DIR (default build/paxtest-ia32; the i386 architecture
# must be known to apt: `dpkg --add-architecture i386 && apt-get update`)
# and unpacked there; each boot puts its /usr/lib/paxtest over the amd64
# one in a copy of the image (scripts/run-qemu.sh --add), with
# /lib/ld-linux.so.2 and /lib32's libc.so.6, libpthread.so.0, libdl.so.2.
# The boot is `init=/bin/paxtest-records -- kiddie ia32 RULES TESTS` with
# aslr_profile=ia32: its lines and records go to DIR/RULES-rvaN.log and
# the records to stdout.
# Exit status: 0 every boot exited 0; 1 one failed; 2 bad arguments or setup.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() {
	echo "paxtest-ia32: $*" >&2
	exit 2
}
need() { [ "$2" -ge 2 ] || die "$1 needs a value"; }

rules=2.6.29,6.x rvas=2 tests=randamap iso="$here/build/aslrbench.iso"
out="$here/build/paxtest-ia32" dry=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--rules) need "$1" $#; rules=$2; shift 2 ;;
	--rva) need "$1" $#; rvas=$2; shift 2 ;;
	--tests) need "$1" $#; tests=$2; shift 2 ;;
	--iso) need "$1" $#; iso=$2; shift 2 ;;
	--out) need "$1" $#; out=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[[ $rules =~ ^((2\.6\.29|6\.x),?)+$ ]] || die "--rules: 2.6.29 and/or 6.x"
[[ $rvas =~ ^([012],?)+$ ]] || die "--rva: 0, 1 and/or 2"
for t in $tests; do
	[[ $t =~ ^[a-z0-9]+$ ]] || die "--tests: bad test name '$t'"
done
libs=(/lib32/ld-linux.so.2 /lib32/libc.so.6 /lib32/libpthread.so.0 /lib32/libdl.so.2)
for l in "${libs[@]}"; do
	[ -e "$l" ] || die "no $l: install libc6-i386 (gcc-multilib pulls it in; scripts/deps.sh)"
done

root=$out/root
if [ ! -x "$root/usr/lib/paxtest/getamap" ]; then
	mkdir -p "$out"
	# apt knows i386 packages only once the architecture is added: as root,
	# add it (as scripts/deps.sh installs what a target needs), else say how
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		[ "$(id -u)" = 0 ] ||
			die "apt does not know i386 packages: as root, dpkg --add-architecture i386 && apt-get update"
		echo "paxtest-ia32: dpkg --add-architecture i386 && apt-get update" >&2
		{ dpkg --add-architecture i386 && apt-get update -qq; } >&2 ||
			die "could not add the i386 architecture to apt"
	fi
	(cd "$out" && rm -f paxtest_*_i386.deb && apt-get download paxtest:i386) >&2 ||
		die "apt-get download paxtest:i386 failed (dpkg --add-architecture i386 && apt-get update)"
	rm -rf "$root"
	dpkg-deb -x "$out"/paxtest_*_i386.deb "$root"
fi
for t in $tests; do
	[ -x "$root/usr/lib/paxtest/$t" ] || die "--tests: no i386 paxtest program '$t'"
done
file -L "$root/usr/lib/paxtest/getamap" | grep -q 'ELF 32-bit.*Intel 80386' ||
	die "$root/usr/lib/paxtest/getamap is not an i386 program"

adds=(--add "$root/usr/lib/paxtest=/usr/lib/paxtest"
	--add /lib32/ld-linux.so.2=/lib/ld-linux.so.2)
for l in "${libs[@]:1}"; do
	adds+=(--add "$l=$l")
done
status=0
IFS=, read -ra R <<<"$rules"
IFS=, read -ra A <<<"$rvas"
for r in "${R[@]}"; do
	for v in "${A[@]}"; do
		cmdline="aslr_profile=ia32 aslr_rules=$r randomize_va_space=$v"
		cmdline+=" init=/bin/paxtest-records -- kiddie ia32 $r $tests"
		log=$out/$r-rva$v.log
		echo "paxtest-ia32: $cmdline -> $log" >&2
		[ "$dry" = 1 ] && continue
		if ! "$here/scripts/run-qemu.sh" --iso "$iso" --timeout $((400 * $(wc -w <<<"$tests"))) \
			"${adds[@]}" --cmdline "$cmdline" >"$log" 2>&1; then
			echo "paxtest-ia32: the boot failed (see $log)" >&2
			status=1
		fi
		grep '^@@ {"type":"paxtest"' "$log" || status=1
	done
done
exit "$status"
