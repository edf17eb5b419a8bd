#!/usr/bin/env bash
# TAP: the Linux test programs the kernel embeds (tests/linux/lx_test.c as
# static musl, static-pie musl, static glibc, static-pie glibc, and the
# dynamic musl PIE, which the kernel runs from its initramfs through musl's
# ld.so) run on the host Linux with the same expectations, proving each check
# the kernel's linux suite relies on; so does lx_exec (tests/linux/lx_exec.c:
# execve from files, #! scripts, the exec errors); a PT_INTERP naming a
# missing file fails with ENOENT; the busybox the kernel embeds answers
# `echo` and `uname -a` here too.  tests/linux/lx_poll.c (static musl and
# glibc) and lx_vdso likewise, and the IA-32 program lx_ia32.  The checks of
# the programs themselves are tests/sh/lib/linux-progs.sh, which
# tests/sh/linux-ref.sh runs under Linux 6.12, the reference; the host is an
# extra check.
# Usage: tests/sh/linux-abi.sh        (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
# shellcheck source=tests/sh/lib/linux-progs.sh
. "$top/tests/sh/lib/linux-progs.sh"
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

# The builds the checks below need, and the host-only checks of them.
for p in lx_poll_musl lx_poll_glibc lx_mmap_musl lx_mmap_glibc lx_exec lx_badinterp \
	lx_signal_musl lx_signal_glibc lx_sigproc_musl lx_sigproc_glibc lx_jobctl_musl lx_jobctl_glibc \
	lx_nice_musl lx_nice_glibc lx_thread_musl lx_thread_glibc lx_thread_glibc_dyn lx_maps \
	lx_fpu lx_deaddir lx_errno lx_futex_musl lx_futex_glibc lx_layout lx_procread lx_sticky; do
	out=$(make -s --no-print-directory "build/user/linux/$p" 2>&1)
	tap_check $? "build $p" "$out"
done

# The vDSO the kernel embeds passes its build check, which refuses other objects.
out=$(make -s --no-print-directory build/vdso/vdso.so 2>&1) && scripts/check-vdso.sh build/vdso/vdso.so
tap_check $? "build/vdso/vdso.so: one page, no relocations, the LINUX_2.6 symbols" "$out"
! scripts/check-vdso.sh build/user/linux/lx_musl 2>/dev/null
tap_check $? "check-vdso.sh refuses a program that is no vDSO"

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

# An IA-32 program (gcc -m32 -static) runs where the host's kernel has
# IA-32 emulation (a kernel built without it, or booted with
# ia32_emulation=0, refuses the exec).
LX_IA32_SKIP=""
ia32_probe=$(mktemp)
if ! printf 'int main(void){return 0;}' | gcc -m32 -static -x c -o "$ia32_probe" - 2>/dev/null; then
	LX_IA32_SKIP="gcc -m32 -static does not link (gcc-multilib, scripts/deps.sh)"
else
	out=$(make -s --no-print-directory build/user/linux/lx_ia32 2>&1)
	tap_check $? "build lx_ia32" "$out"
	"$ia32_probe" 2>/dev/null ||
		LX_IA32_SKIP="this host's kernel runs no IA-32 programs (CONFIG_IA32_EMULATION)"
fi
rm -f "$ia32_probe"

# Every program, with the expectations tests/sh/linux-ref.sh holds them to
# under Linux 6.12 (tests/sh/lib/linux-progs.sh).
lx_prog_checks "$top/build/user/linux" "$top"
tap_done
