#!/usr/bin/env bash
# TAP tests for the kernel's layering (scripts/check-layers.py): the real
# tree passes, and fake trees with a cycle, an upward include, a loose file,
# an unplaced directory, a missing header, a user program reaching into
# the kernel or freestanding code reaching up each fail with the reason named.  Also: every kernel C and asm
# file is in kernel/kernel.mk's explicit source lists.
# Usage: tests/sh/layers.sh        (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/check-layers.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "1..10"
num=0
failed=0
pass() { num=$((num + 1)); echo "ok $num - $1"; }
flunk() {
	num=$((num + 1))
	failed=$((failed + 1))
	echo "not ok $num - $1"
	printf '%s\n' "$2" | sed 's/^/#   /'
}

# tree NAME FILE:INCLUDE... : a fake tree; each FILE gets #include "INCLUDE"
# (INCLUDE may be empty), every file named anywhere exists.
tree() {
	local dir=$tmp/$1 spec f inc
	shift
	rm -rf "$dir"
	for spec in "$@"; do
		f=${spec%%:*} inc=${spec#*:}
		mkdir -p "$dir/$(dirname "$f")"
		touch "$dir/$f"
		[ -n "$inc" ] && printf '#include "%s"\n' "$inc" >>"$dir/$f"
	done
	echo "$dir"
}

# expect NAME STATUS TEXT ROOT: check-layers on ROOT exits STATUS, saying TEXT.
expect() {
	local out rc
	out=$("$check" --root "$4" 2>&1)
	rc=$?
	if [ "$rc" -eq "$2" ] && grep -qF -- "$3" <<<"$out"; then
		pass "$1"
	else
		flunk "$1" "exit $rc (wanted $2), wanted text: $3"$'\n'"$out"
	fi
}

expect "the kernel's includes point down, no cycle" 0 "every include points down, no cycle" "$top"

ok_tree=$(tree ok kernel/lib/printk.h: kernel/arch/traps.c:kernel/lib/printk.h \
	kernel/mm/vmm.c:kernel/arch/page.h kernel/arch/page.h: kernel/mm/layout.c:kernel/char/random.h \
	kernel/char/random.h:rng/rng.h rng/rng.h: userland/src/sh.c:kernel/uapi/aslrbench.h \
	kernel/uapi/aslrbench.h:)
expect "fake tree: downward includes pass" 0 "no cycle" "$ok_tree"

# char and mm share a layer: only the cycle can catch this one.
cycle=$(tree cycle kernel/mm/layout.c:kernel/char/random.h kernel/char/random.h: \
	kernel/char/random.c:kernel/mm/layout.h kernel/mm/layout.h:)
expect "fake tree: a cycle inside one layer fails" 1 \
	"include cycle between directories: kernel/char -> kernel/mm -> kernel/char" "$cycle"

up=$(tree up kernel/mm/mm.c:kernel/task/task.h kernel/task/task.h:)
expect "fake tree: an upward include fails" 1 "upward include, layer mm -> proc" "$up"

loose=$(tree loose kernel/exit.c:kernel/lib/printk.h kernel/lib/printk.h:)
expect "fake tree: a loose kernel/ file fails" 1 "loose file at kernel/ top level" "$loose"

unplaced=$(tree unplaced kernel/drivers/x.c:)
expect "fake tree: a directory in no layer fails" 1 "kernel/drivers is in no layer" "$unplaced"

missing=$(tree missing kernel/mm/mm.c:kernel/mm/gone.h)
expect "fake tree: an include of a missing file fails" 1 "which does not exist" "$missing"

user=$(tree user userland/src/sh.c:kernel/syscall/syscall.h kernel/syscall/syscall.h:)
expect "fake tree: a user program including kernel/syscall fails" 1 "user programs see only" "$user"

free=$(tree free common/jrec.c:bench/run.h bench/run.h: kernel/lib/x.c:)
expect "fake tree: common/ including bench/ fails" 1 "common/ is freestanding" "$free"

# The explicit source lists: nothing built by accident, nothing left out.
# Ring-3 code is not the kernel's: the vDSO's source, kernel/arch/vdso/
# (vdso.mk builds it into a shared object); nor is the host's command-line
# checker, kernel/params/host/ (params.mk).
unlisted=
while IFS= read -r f; do
	grep -qE "(^|[[:space:]])$f([[:space:]]|\\\\|$)" "$top/kernel/kernel.mk" || unlisted+="$f "
done < <(cd "$top" && git ls-files 'kernel/*.c' 'kernel/*.asm' | grep -v -e '^kernel/arch/vdso/' -e '^kernel/params/host/')
if [ -z "$unlisted" ]; then
	pass "every kernel .c and .asm is listed in kernel/kernel.mk"
else
	flunk "every kernel .c and .asm is listed in kernel/kernel.mk" "unlisted: $unlisted"
fi

[ "$failed" -eq 0 ]
