#!/usr/bin/env bash
# TAP tests for scripts/check-simd.py, the build's check that kernel code
# uses SIMD registers only inside .text.simd (kernel/arch/fpu.h): the real
# kernel passes; a fake image with an xmm instruction outside the section,
# or without the section's bounds, fails with the function named.
# Usage: tests/sh/simd-check.sh     (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
check=$top/scripts/check-simd.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/simd-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tap_plan 4

# image NAME C-SOURCE: a small static image whose entry is f().
image() {
	printf '%s\n' "$2" >"$tmp/$1.c"
	gcc -O2 -nostdlib -static -Wl,-e,f -o "$tmp/$1" "$tmp/$1.c"
}

bounds='__asm__(".section .text.simd,\"ax\"\n.globl __simd_start\n__simd_start:\n'
bounds="$bounds"' movdqa %xmm0, %xmm1\n.globl __simd_end\n__simd_end:\n.text\n");'

make -s -C "$top" build/kernel.elf >/dev/null 2>&1
tap_run "the kernel uses SIMD only inside .text.simd" "$check" "$top/build/kernel.elf"

image inside "$bounds void f(void) { for (;;) ; }"
tap_run "an image whose only SIMD is inside the section passes" "$check" "$tmp/inside"

image outside "$bounds void f(void) { __asm__ volatile(\"pxor %xmm2, %xmm2\"); for (;;) ; }"
out=$("$check" "$tmp/outside" 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q '<f>: pxor' <<<"$out"
tap_check $? "an xmm instruction outside the section fails, naming its function" "rc=$rc" "$out"

image nobounds 'void f(void) { for (;;) ; }'
out=$("$check" "$tmp/nobounds" 2>&1)
rc=$?
[ "$rc" = 2 ] && grep -q '__simd_start' <<<"$out"
tap_check $? "an image without the section's bounds is a usage error" "rc=$rc" "$out"

tap_done
