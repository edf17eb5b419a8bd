#!/usr/bin/env bash
# TAP: the Linux test programs the kernel embeds (tests/linux/lx_test.c as
# static musl, static-pie musl, static glibc, static-pie glibc, and the
# dynamic musl PIE, which the kernel runs from its initramfs through musl's
# ld.so) run on the host Linux with the same expectations, proving each check
# the kernel's linux suite relies on; so does lx_exec (tests/linux/lx_exec.c:
# execve from files, #! scripts, the exec errors); a PT_INTERP naming a
# missing file fails with ENOENT; the busybox the kernel embeds answers
# `echo` and `uname -a` here too.  tests/linux/lx_poll.c (static musl and
# glibc) and lx_vdso likewise, and the IA-32 program lx_ia32.
# Usage: tests/sh/linux-abi.sh        (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
cd "$top" || exit 1

progs=(lx_musl lx_musl_pie lx_glibc lx_glibc_pie lx_musl_dyn)
vdso_progs=(lx_vdso_musl lx_vdso_glibc)
if ! command -v musl-gcc >/dev/null || [ ! -x /bin/busybox ]; then
	tap_plan 1
	tap_skip "Linux programs" "musl-tools or busybox-static missing (scripts/deps.sh)"
	tap_done
	exit
fi
out=$(make -s --no-print-directory "${progs[@]/#/build/user/linux/}" \
	"${vdso_progs[@]/#/build/user/linux/}" 2>&1) || {
	tap_plan 1
	tap_fail "build the Linux test programs" "$out"
	tap_done
	exit
}

# host_prog NAME SUMMARY DIR [ARGS...]: builds build/user/linux/NAME, runs it
# in DIR with ARGS, and checks that every check passes and that it prints
# "SUMMARY: N passed, 0 failed".
host_prog() {
	local p=$1 summary=$2 dir=$3 out log
	shift 3
	out=$(make -s --no-print-directory "build/user/linux/$p" 2>&1)
	tap_check $? "build $p" "$out"
	log=$(cd "$dir" && timeout 120 "$top/build/user/linux/$p" "$@" 2>&1)
	tap_check $? "$p: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q "^$summary: [0-9]* passed, 0 failed$" <<<"$log"
	tap_check $? "$p: prints its summary line"
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

# The vDSO test (tests/linux/lx_vdso.c) against the host kernel's vDSO.
for p in "${vdso_progs[@]}"; do
	log=$("build/user/linux/$p" 2>&1)
	st=$?
	tap_check "$st" "$p: every vDSO check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q '^lx_vdso: [0-9]* passed, 0 failed$' <<<"$log"
	tap_check $? "$p: prints its summary line"
done

# The vDSO the kernel embeds passes its build check, which refuses other objects.
out=$(make -s --no-print-directory build/vdso/vdso.so 2>&1) && scripts/check-vdso.sh build/vdso/vdso.so
tap_check $? "build/vdso/vdso.so: one page, no relocations, the LINUX_2.6 symbols" "$out"
! scripts/check-vdso.sh build/user/linux/lx_musl 2>/dev/null
tap_check $? "check-vdso.sh refuses a program that is no vDSO"

# poll/ppoll/select/pselect6 and waitid (tests/linux/lx_poll.c), static musl and glibc.
# lx_bad (memory exhaustion, fork bomb) is for the kernel's badinput boot only, never here.
poll_progs=(lx_poll_musl lx_poll_glibc)
out=$(make -s --no-print-directory "${poll_progs[@]/#/build/user/linux/}" 2>&1)
tap_check $? "build lx_poll_musl and lx_poll_glibc" "$out"
for p in "${poll_progs[@]}"; do
	log=$("build/user/linux/$p" 2>&1)
	st=$?
	tap_check "$st" "$p: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q '^lx_poll: [0-9]* passed, 0 failed$' <<<"$log"
	tap_check $? "$p: prints its summary line"
	log=$(echo Quit | "build/user/linux/$p" console 2>&1)
	grep -q "^lx_poll console: read 4 bytes, the first 'Q'$" <<<"$log"
	tap_check $? "$p console: a piped line makes stdin readable (the linux-console boot)" "$log"
done

# The kernel's ELF facts about them: the static ones have no PT_INTERP, the dynamic one has.
for p in lx_musl lx_musl_pie lx_glibc lx_glibc_pie; do
	! readelf -lW "build/user/linux/$p" | grep -q INTERP
	tap_check $? "$p: no PT_INTERP (the kernel runs it)"
done
readelf -lW build/user/linux/lx_musl_dyn | grep -q 'Requesting program interpreter'
tap_check $? "lx_musl_dyn: has PT_INTERP (the kernel runs it from a file, refuses the built-in)"
[ "$(readelf -hW build/user/linux/lx_glibc | awk '/Type:/{print $2}')" = EXEC ] &&
	[ "$(readelf -hW build/user/linux/lx_glibc_pie | awk '/Type:/{print $2}')" = DYN ]
tap_check $? "lx_glibc is ET_EXEC, lx_glibc_pie ET_DYN"

# filemap: tests/linux/lx_mmap.c (file-backed mmap, munmap/mprotect of any range).
for p in lx_mmap_musl lx_mmap_glibc; do
	out=$(make -s --no-print-directory "build/user/linux/$p" 2>&1)
	tap_check $? "build $p" "$out"
	log=$("build/user/linux/$p" 2>&1)
	st=$?
	tap_check "$st" "$p: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q '^lx_mmap: [0-9]* passed, 0 failed$' <<<"$log"
	tap_check $? "$p: prints its summary line"
done
# lx_exec: from its file (its checks exec /proc/self/exe's target).
out=$(make -s --no-print-directory build/user/linux/lx_exec build/user/linux/lx_badinterp 2>&1)
tap_check $? "build lx_exec and lx_badinterp" "$out"
log=$(build/user/linux/lx_exec 2>&1)
tap_check $? "lx_exec: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
grep -q '^lx_exec: [0-9]* passed, 0 failed$' <<<"$log"
tap_check $? "lx_exec: prints its summary line"
# What an init= program gets, as the kernel's init= boots give it.
log=$(env -i HOME=/ TERM=linux "$top/build/user/linux/lx_exec" init a 'b c' 2>&1)
tap_check $? "lx_exec init: argv, envp, fds as Linux's init= gets them" "$(grep -v '^ok ' <<<"$log")"
grep -q "^  init: 2 arguments after argv\[1\]: 'a' 'b c'$" <<<"$log"
tap_check $? "lx_exec init: prints its arguments"
# A missing interpreter: execve's ENOENT, which bash reports as "No such file"
# (5.2: "required file not found", its wording for ENOENT of an existing file).
log=$(build/user/linux/lx_badinterp 2>&1)
st=$?
[ "$st" = 127 ] && grep -Eq 'No such file|required file not found' <<<"$log"
tap_check $? "lx_badinterp (PT_INTERP /lib/ld-lx-missing.so.1): ENOENT" "status $st: $log"
# Signals, static musl and static glibc: within a process (tests/linux/lx_signal.c,
# and its forged frames) and between processes (lx_sigproc.c).
for p in lx_signal_musl lx_signal_glibc lx_sigproc_musl lx_sigproc_glibc; do
	out=$(make -s --no-print-directory "build/user/linux/$p" 2>&1)
	tap_check $? "build $p" "$out"
	log=$(timeout 60 "build/user/linux/$p" 2>&1)
	st=$?
	tap_check "$st" "$p: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	grep -q "^${p%_*}: [0-9]* passed, 0 failed$" <<<"$log"
	tap_check $? "$p: prints its summary line"
	[ "${p%_*}" = lx_signal ] || continue
	log=$(timeout 60 "build/user/linux/$p" forge 2>&1)
	tap_check $? "$p forge: rt_sigreturn of forged frames as expected" "$(grep -v '^ok ' <<<"$log")"
done

# Job control and CPU times (tests/linux/lx_jobctl.c), static musl and static glibc.
for p in lx_jobctl_musl lx_jobctl_glibc; do
	host_prog "$p" lx_jobctl "$top"
done

# Nice levels (tests/linux/lx_nice.c), static musl and static glibc.
for p in lx_nice_musl lx_nice_glibc; do
	host_prog "$p" lx_nice "$top"
done

# Threads (tests/linux/lx_thread.c): static musl, static glibc, dynamic glibc,
# each check and the thread bomb (EAGAIN, or its cap of 1000 on the host).
for p in lx_thread_musl lx_thread_glibc lx_thread_glibc_dyn; do
	host_prog "$p" lx_thread "$top"
	log=$(timeout 120 "build/user/linux/$p" bomb 2>&1)
	tap_check $? "$p bomb: stops cleanly, every thread joined" "$(grep -v '^ok ' <<<"$log")"
done

# /proc/PID/maps past a page: 150 regions, read whole by read sizes and by busybox cat.
host_prog lx_maps lx_maps "$top" /bin/busybox

# SSE and AVX registers kept, creates in a removed directory, errnos at Linux's limits.
for p in lx_fpu lx_deaddir lx_errno; do
	host_prog "$p" "$p" /tmp
done

# futex(2) between processes, static musl and static glibc: one summary name.
for p in lx_futex_musl lx_futex_glibc; do
	host_prog "$p" lx_futex "$top"
done
# A static PIE's placement and brk: the host's Linux follows the 6.x rules
# (the same binary runs in the kernel: the layout-6x boot).
out=$(make -s --no-print-directory build/user/linux/lx_layout 2>&1)
tap_check $? "build lx_layout" "$out"
if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" = 2 ]; then
	log=$(build/user/linux/lx_layout 6.x 2>&1)
	tap_check $? "lx_layout 6.x: a static PIE lands as Linux 6.12 puts it, on the host" \
		"$(grep -v '^ok ' <<<"$log")"
else
	tap_skip "lx_layout 6.x on the host" "randomize_va_space is not 2"
fi

# /proc/1 read after dropping root: the host's Linux follows the 6.x rules.
out=$(make -s --no-print-directory build/user/linux/lx_procread 2>&1)
tap_check $? "build lx_procread" "$out"
out=$(make -s --no-print-directory build/user/linux/lx_sticky 2>&1)
tap_check $? "build lx_sticky" "$out"
if [ "$(id -u)" = 0 ]; then
	log=$(build/user/linux/lx_procread 6.x 2>&1)
	tap_check $? "lx_procread 6.x: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
	log=$(build/user/linux/lx_sticky 2>&1)
	tap_check $? "lx_sticky: every check passes on the host" "$(grep -v '^ok ' <<<"$log")"
else
	tap_skip "lx_procread 6.x on the host" "needs root (it drops to uid 1000)"
	tap_skip "lx_sticky on the host" "needs root (it drops to uid 1000)"
fi

# An IA-32 program (gcc -m32 -static): the same checks as in the kernel's
# init-ia32 boots, on a host Linux with IA-32 emulation.  A host kernel
# built without it (or booted with ia32_emulation=0) refuses the exec.
ia32_probe=$(mktemp)
if ! printf 'int main(void){return 0;}' | gcc -m32 -static -x c -o "$ia32_probe" - 2>/dev/null; then
	tap_skip "lx_ia32 on the host" "gcc -m32 -static does not link (gcc-multilib, scripts/deps.sh)"
elif ! "$ia32_probe" 2>/dev/null; then
	out=$(make -s --no-print-directory build/user/linux/lx_ia32 2>&1)
	tap_check $? "build lx_ia32" "$out"
	tap_skip "lx_ia32 on the host" "this host's kernel runs no IA-32 programs (CONFIG_IA32_EMULATION)"
else
	host_prog lx_ia32 lx_ia32 /tmp
fi
rm -f "$ia32_probe"

[ "$(/bin/busybox echo hello from busybox)" = "hello from busybox" ]
tap_check $? "busybox echo"
/bin/busybox uname -a | grep -q '^Linux .* x86_64'
tap_check $? "busybox uname -a: Linux ... x86_64"
tap_done
