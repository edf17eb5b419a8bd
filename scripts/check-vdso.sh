#!/usr/bin/env bash
# Checks a built vDSO before the kernel embeds it: an ELF shared object that
# fits the one text page the kernel maps (the [vvar] page follows it), with
# a PT_DYNAMIC, DT_HASH and DT_GNU_HASH (musl looks names up through either,
# glibc through its link-map code), version definitions, no relocation at
# all (nothing in user space would apply them), one PT_LOAD, and the four
# functions, each under both names, at version LINUX_2.6.  With --ia32, the
# IA-32 vDSO instead (ELF32, EM_386): Linux 6.6's vdso32 exports, the six
# __vdso_* clock functions at LINUX_2.6 and __kernel_vsyscall,
# __kernel_sigreturn, __kernel_rt_sigreturn at LINUX_2.5.
# With --612, the aslr_rules=6.x image: up to two pages (6.12's text size) and
# __vdso_getrandom@@LINUX_2.6 exported too.
# Usage: scripts/check-vdso.sh [--ia32|--612] build/vdso/vdso.so   (exit 1 and a reason on failure)
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: scripts/check-vdso.sh [--ia32|--612] VDSO.so
Checks a vDSO image before the kernel embeds it (kernel/arch/vdso/vdso.mk):
one page, one R+E PT_LOAD, PT_DYNAMIC, DT_HASH + DT_GNU_HASH, versions,
no relocations, the four functions and aliases at LINUX_2.6; with --ia32
an ELF32 i386 object with vdso32's six clock functions (LINUX_2.6) and
__kernel_vsyscall, __kernel_sigreturn, __kernel_rt_sigreturn (LINUX_2.5);
with --612 the aslr_rules=6.x image: up to two pages, __vdso_getrandom too.
Exit 0 when it passes, 1 with the reason on stderr when not, 2 on bad usage.
EOF
}
ia32=0
v612=0
if [ "${1:-}" = --ia32 ]; then
	ia32=1
	shift
elif [ "${1:-}" = --612 ]; then
	v612=1
	shift
fi
case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
-*)
	echo "check-vdso: unknown option $1" >&2
	usage >&2
	exit 2
	;;
"")
	usage >&2
	exit 2
	;;
esac
so=$1
fail() {
	echo "check-vdso: $so: $*" >&2
	exit 1
}

[ -f "$so" ] || fail "missing"
size=$(stat -c %s "$so")
maxsize=$((v612 ? 8192 : 4096))
[ "$size" -le "$maxsize" ] || fail "$size bytes: more than the $((maxsize / 4096)) page(s) the kernel maps"
[ "$(readelf -hW "$so" | awk '/Type:/{print $2}')" = DYN ] || fail "not ET_DYN"
phdrs=$(readelf -lW "$so")
[ "$(grep -c '^ *LOAD ' <<<"$phdrs")" = 1 ] || fail "not exactly one PT_LOAD"
grep -q '^ *LOAD .* R E ' <<<"$phdrs" || fail "PT_LOAD is not read + execute only"
grep -q '^ *DYNAMIC ' <<<"$phdrs" || fail "no PT_DYNAMIC"
dyn=$(readelf -dW "$so")
for tag in HASH GNU_HASH STRTAB SYMTAB VERSYM VERDEF; do
	grep -q "($tag)" <<<"$dyn" || fail "no DT_$tag"
done
relocs=$(readelf -rW "$so")
grep -q 'There are no relocations in this file' <<<"$relocs" || fail "has relocations: $relocs"
syms=$(readelf --dyn-syms -W "$so")
if [ "$ia32" = 1 ]; then
	hdr=$(readelf -hW "$so")
	grep -q 'Class: *ELF32' <<<"$hdr" || fail "not ELF32"
	grep -q 'Machine: *Intel 80386' <<<"$hdr" || fail "not EM_386"
	for f in clock_gettime gettimeofday time clock_getres clock_gettime64 getcpu; do
		grep -qE " FUNC +GLOBAL +DEFAULT +[0-9]+ __vdso_$f@@LINUX_2\.6$" <<<"$syms" ||
			fail "__vdso_$f@@LINUX_2.6 is not exported"
	done
	for f in vsyscall sigreturn rt_sigreturn; do
		grep -qE " FUNC +GLOBAL +DEFAULT +[0-9]+ __kernel_$f@@LINUX_2\.5$" <<<"$syms" ||
			fail "__kernel_$f@@LINUX_2.5 is not exported"
	done
	exit 0
fi
for f in clock_gettime gettimeofday time getcpu; do
	for n in "__vdso_$f" "$f"; do
		grep -qE " FUNC +(GLOBAL|WEAK) +DEFAULT +[0-9]+ $n@@LINUX_2\.6$" <<<"$syms" ||
			fail "$n@@LINUX_2.6 is not exported"
	done
done
if [ "$v612" = 1 ]; then
	grep -qE " FUNC +GLOBAL +DEFAULT +[0-9]+ __vdso_getrandom@@LINUX_2\.6$" <<<"$syms" ||
		fail "__vdso_getrandom@@LINUX_2.6 is not exported"
fi
