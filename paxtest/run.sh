#!/usr/bin/env bash
# make paxtest / make paxtest-full: Debian's paxtest in the kernel, one boot
# per grid point, one after the other (one QEMU at a time), then a table.
#
# Usage: paxtest/run.sh [--variants a,b] [--profiles x86_64,ia32] [--rva 2,0,1]
#                      [--rules 2.6.29,6.x] [--mode kiddie|blackhat]
#                      [--tests "randamap ..."] [--host] [--out DIR]
#                      [--iso FILE] [--timeout SEC] [--dry-run]
#
# Each boot is `init=/bin/paxtest-records -- MODE PROFILE RULES [TESTS]` with
# rng=, aslr_profile=, aslr_rules= and randomize_va_space= of its point;
# without --tests it runs /usr/bin/paxtest MODE unchanged (34 tests, about
# 32 min under TCG), with --tests only those /usr/lib/paxtest programs (a
# randomisation test: about 2 min under TCG, 1500 runs of its helper).
# Logs: DIR/NAME.log (default DIR build/paxtest); --host also runs paxtest
# MODE on this machine's Linux into DIR/linux-host.log.  The table of every
# record of DIR/*.log and the host log (scripts/report.py paxtest):
# DIR/paxtest.md.  Progress on stderr.
# Exit status: 0 every boot exited 0; 1 some boot failed; 2 bad arguments.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "paxtest: $*" >&2; exit 2; }
need() { [ "$2" -ge 2 ] || die "$1 needs a value"; }

variants=chacha20-batched profiles=x86_64 rvas=2 rules=2.6.29 mode=blackhat tests=""
host=0 out="$here/build/paxtest" iso="$here/build/aslrbench.iso" timeout="" dry=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--variants) need "$1" $#; variants=$2; shift 2 ;;
	--profiles) need "$1" $#; profiles=$2; shift 2 ;;
	--rva) need "$1" $#; rvas=$2; shift 2 ;;
	--rules) need "$1" $#; rules=$2; shift 2 ;;
	--mode) need "$1" $#; mode=$2; shift 2 ;;
	--tests) need "$1" $#; tests=$2; shift 2 ;;
	--host) host=1; shift ;;
	--out) need "$1" $#; out=$2; shift 2 ;;
	--iso) need "$1" $#; iso=$2; shift 2 ;;
	--timeout) need "$1" $#; timeout=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
case $mode in kiddie | blackhat) ;; *) die "--mode must be kiddie or blackhat" ;; esac
[[ $variants =~ ^[a-z0-9.,-]+$ ]] || die "--variants: bad list '$variants'"
[[ $profiles =~ ^((x86_64|ia32),?)+$ ]] || die "--profiles: x86_64 and/or ia32"
[[ $rvas =~ ^([012],?)+$ ]] || die "--rva: 0, 1 and/or 2"
[[ $rules =~ ^((2\.6\.29|6\.x),?)+$ ]] || die "--rules: 2.6.29 and/or 6.x"
for t in $tests; do
	if ! [[ $t =~ ^[a-z0-9]+$ ]] || ! [ -e "/usr/lib/paxtest/$t" ]; then
		die "--tests: no paxtest program '$t'"
	fi
done
[ -n "$timeout" ] || if [ -n "$tests" ]; then timeout=$((400 * $(wc -w <<<"$tests"))); else timeout=3600; fi
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout needs whole seconds"

IFS=, read -ra V <<<"$variants"
IFS=, read -ra P <<<"$profiles"
IFS=, read -ra R <<<"$rvas"
IFS=, read -ra U <<<"$rules"
points=()
for v in "${V[@]}"; do for p in "${P[@]}"; do for r in "${R[@]}"; do for u in "${U[@]}"; do
	points+=("$v-$p-rva$r-$u	rng=$v aslr_profile=$p randomize_va_space=$r aslr_rules=$u init=/bin/paxtest-records -- $mode $p $u${tests:+ $tests}")
done; done; done; done
if [ "$dry" = 1 ]; then
	printf '%s\n' "${points[@]}"
	exit 0
fi
[ -e "$iso" ] || die "no image $iso (make iso)"
mkdir -p "$out"
rc=0 k=0
for pt in "${points[@]}"; do
	name=${pt%%	*} cmdline=${pt#*	}
	k=$((k + 1))
	t0=$(date +%s)
	st=0
	"$here/scripts/run-qemu.sh" --iso "$iso" --timeout "$timeout" --cmdline "$cmdline" \
		--log "$out/$name.log" >/dev/null 2>"$out/$name.err" || st=$?
	[ "$st" = 0 ] || rc=1
	echo "[$k/${#points[@]}] $name: status $st, $(($(date +%s) - t0)) s" >&2
done
if [ "$host" = 1 ]; then
	t0=$(date +%s)
	(cd "$out" && paxtest "$mode" "$out/linux-host.log" >/dev/null)
	echo "linux-host: paxtest $mode on $(uname -r), $(($(date +%s) - t0)) s" >&2
fi
hostarg=()
[ -e "$out/linux-host.log" ] && hostarg=(--host "$out/linux-host.log")
logs=()
for f in "$out"/*.log; do [ "$f" = "$out/linux-host.log" ] || logs+=("$f"); done
/usr/bin/python3 "$here/scripts/report.py" paxtest "${hostarg[@]}" "${logs[@]}" >"$out/paxtest.md"
echo "paxtest: table in $out/paxtest.md" >&2
exit "$rc"
