#!/usr/bin/env bash
# Checks a built vDSO before the kernel embeds it: an ELF shared object that
# fits the one text page the kernel maps (the [vvar] page follows it), with
# a PT_DYNAMIC, DT_HASH and DT_GNU_HASH (musl looks names up through either,
# glibc through its link-map code), version definitions, no relocation at
# all (nothing in user space would apply them), one PT_LOAD, and the four
# functions, each under both names, at version LINUX_2.6.
# Usage: scripts/check-vdso.sh build/vdso/vdso.so   (exit 1 and a reason on failure)
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: scripts/check-vdso.sh VDSO.so
Checks a vDSO image before the kernel embeds it (kernel/arch/vdso/vdso.mk):
one page, one R+E PT_LOAD, PT_DYNAMIC, DT_HASH + DT_GNU_HASH, versions,
no relocations, the four functions and aliases at LINUX_2.6.
Exit 0 when it passes, 1 with the reason on stderr when not, 2 on bad usage.
EOF
}
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
[ "$size" -le 4096 ] || fail "$size bytes: more than the one page the kernel maps"
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
for f in clock_gettime gettimeofday time getcpu; do
	for n in "__vdso_$f" "$f"; do
		grep -qE " FUNC +(GLOBAL|WEAK) +DEFAULT +[0-9]+ $n@@LINUX_2\.6$" <<<"$syms" ||
			fail "$n@@LINUX_2.6 is not exported"
	done
done
