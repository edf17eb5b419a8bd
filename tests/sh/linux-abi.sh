#!/usr/bin/env bash
# TAP: the Linux test programs the kernel embeds (tests/linux/lx_test.c as
# static musl, static-pie musl, static glibc, static-pie glibc, and the
# dynamic musl PIE the kernel refuses) run on the host Linux with the same
# expectations, proving each check the kernel's linux suite relies on; and
# the busybox the kernel embeds answers `echo` and `uname -a` here too.
# Usage: tests/sh/linux-abi.sh        (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
cd "$top" || exit 1

progs=(lx_musl lx_musl_pie lx_glibc lx_glibc_pie lx_musl_dyn)
if ! command -v musl-gcc >/dev/null || [ ! -x /bin/busybox ]; then
	tap_plan 1
	tap_skip "Linux programs" "musl-tools or busybox-static missing (scripts/deps.sh)"
	tap_done
	exit
fi
out=$(make -s --no-print-directory "${progs[@]/#/build/user/linux/}" 2>&1) || {
	tap_plan 1
	tap_fail "build the Linux test programs" "$out"
	tap_done
	exit
}

for p in "${progs[@]}"; do
	f=build/user/linux/$p
	# argv[0] is a path here (the built-in name in the kernel): execve needs it.
	log=$("$f" 2>&1)
	st=$?
	tap_check "$st" "$p: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q '^lx_test: [0-9]* passed, 0 failed$' <<<"$log"
	tap_check $? "$p: prints its summary line"
	"$f" exit 7
	st=$?
	[ "$st" = 7 ]
	tap_check $? "$p exit 7: exit status 7" "got $st"
done

# The kernel's ELF facts about them: the static ones have no PT_INTERP, the dynamic one has.
for p in lx_musl lx_musl_pie lx_glibc lx_glibc_pie; do
	! readelf -lW "build/user/linux/$p" | grep -q INTERP
	tap_check $? "$p: no PT_INTERP (the kernel runs it)"
done
readelf -lW build/user/linux/lx_musl_dyn | grep -q 'Requesting program interpreter'
tap_check $? "lx_musl_dyn: has PT_INTERP (the kernel refuses it: ENOEXEC)"
[ "$(readelf -hW build/user/linux/lx_glibc | awk '/Type:/{print $2}')" = EXEC ] &&
	[ "$(readelf -hW build/user/linux/lx_glibc_pie | awk '/Type:/{print $2}')" = DYN ]
tap_check $? "lx_glibc is ET_EXEC, lx_glibc_pie ET_DYN"

# Signals (tests/linux/lx_signal.c), static musl and static glibc.
for p in lx_signal_musl lx_signal_glibc; do
	out=$(make -s --no-print-directory "build/user/linux/$p" 2>&1)
	tap_check $? "build $p" "$out"
	log=$(timeout 60 "build/user/linux/$p" 2>&1)
	st=$?
	tap_check "$st" "$p: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q '^lx_signal: [0-9]* passed, 0 failed$' <<<"$log"
	tap_check $? "$p: prints its summary line"
	log=$(timeout 60 "build/user/linux/$p" forge 2>&1)
	tap_check $? "$p forge: rt_sigreturn of forged frames as expected" "$(grep -v '^ok ' <<<"$log")"
done

[ "$(/bin/busybox echo hello from busybox)" = "hello from busybox" ]
tap_check $? "busybox echo"
/bin/busybox uname -a | grep -q '^Linux .* x86_64'
tap_check $? "busybox uname -a: Linux ... x86_64"
tap_done
