#!/usr/bin/env bash
# TAP tests: run-qemu.sh refuses a bad --cmdline before QEMU starts, with
# the message the kernel prints (its own parser over its own table), and
# --cmdline help lists every key the kernel declares.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cmdline-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 2
# shellcheck source=SCRIPTDIR/lib/tap.sh
. tests/sh/lib/tap.sh
cd "$tmp" || exit 2

table="$root/build/params.bin"
if [ ! -r "$table" ] || [ ! -x "$root/build/host/params" ]; then
	tap_skip "run-qemu.sh --cmdline checks" "no build/params.bin (make all)"
	tap_done
	exit $?
fi

# A QEMU that fails loudly: the check must come before it is needed.
mkdir bin
printf '#!/bin/sh\ntouch "%s/started"\nexit 99\n' "$tmp" >bin/qemu
chmod +x bin/qemu

start=$(date +%s%N)
QEMU="$tmp/bin/qemu" "$root/scripts/run-qemu.sh" --timeout 20 --cmdline "rng=nope" >out 2>err
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[[ $rc -eq 2 && $ms -lt 2000 ]] && [ ! -e started ]
tap_check $? "rng=nope: exit 2 in ${ms} ms, QEMU not started" "exit $rc" "$(cat err)"

# The kernel's message: the same words as kernel/params/params.c prints at boot.
accepted=$("$root/build/host/params" "$table" help | sed -n '/^rng=$/,/accepted: /s/^    accepted: //p')
want="aslrbench: bad command line: bad value 'nope' for rng (accepted: $accepted)"
[[ -n $accepted && $(cat err) == "$want" ]]
tap_check $? "rng=nope: the kernel's message" "got:  $(cat err)" "want: $want"

QEMU="$tmp/bin/qemu" "$root/scripts/run-qemu.sh" --timeout 20 --cmdline "mode=bench colour=blue" >out 2>err
rc=$?
[[ $rc -eq 2 ]] && grep -qF "unknown key 'colour' (accepted keys: " err && [ ! -e started ]
tap_check $? "unknown key: exit 2, the accepted keys, QEMU not started" "exit $rc" "$(cat err)"

QEMU="$tmp/bin/qemu" "$root/scripts/run-qemu.sh" --timeout 20 --cmdline "variants=md4-2.6.30,md5" >out 2>err
rc=$?
[[ $rc -eq 2 ]] && grep -qF "bad value 'md5' for variants (accepted: prandom|" err
tap_check $? "variants=: a bad name is refused with the list" "exit $rc" "$(cat err)"

# A good line passes (run-qemu.sh then boots it).
"$root/scripts/check-cmdline.sh" "mode=bench suite=rng variants=md4-2.6.30,prandom quiet loglevel=4 cpus=1" >out 2>err
tap_check $? "a good line passes the check" "$(cat err)"

QEMU="$tmp/bin/qemu" "$root/scripts/run-qemu.sh" --timeout 20 --cmdline help >out 2>err
rc=$?
[[ $rc -eq 0 ]] && [ ! -e started ]
tap_check $? "--cmdline help: exit 0, QEMU not started" "exit $rc" "$(cat err)"

# Every key the kernel declares: the names in its own table's unknown-key message.
keys=$("$root/build/host/params" "$table" check "no_such_key=1" 2>&1 |
	sed -n "s/.*(accepted keys: \(.*\), and ' -- '.*/\1/p")
missing=""
for k in $keys; do
	grep -Eq "^$k(=)?\$" out && grep -A2 -E "^$k(=)?\$" out | grep -q "accepted: " ||
		missing="$missing $k"
done
n=$(wc -w <<<"$keys")
[[ $n -ge 20 && -z $missing ]]
tap_check $? "--cmdline help: all $n keys with accepted values" "missing:$missing"
for k in mode rng variants suite samples hz seed init cpus loglevel quiet; do
	[[ " $keys " == *" $k "* ]] || missing="$missing $k"
done
[[ -z $missing ]]
tap_check $? "the table holds the documented keys" "missing:$missing"

tap_done
