#!/usr/bin/env python3
"""Fail when kernel code outside its SIMD section uses a SIMD register.

Usage: scripts/check-simd.py KERNEL.ELF

The kernel is built -mgeneral-regs-only: only the context switch saves a
task's FPU/SSE state, so an xmm/ymm/zmm, mmx or x87 register used anywhere
else silently changes a user program's registers across a system call.  Code
that needs SIMD is placed in .text.simd (between the linker symbols
__simd_start and __simd_end, kernel/kernel.ld) and runs between
kernel_fpu_begin() and kernel_fpu_end() (kernel/arch/fpu.h).  A function
attribute such as target("ssse3") or an inline asm block can bring SIMD
back past the compiler flag; this check reads the linked image, so it sees
both.  Exit status: 0 clean, 1 SIMD outside the section, 2 usage errors.
"""
import re
import subprocess
import sys

SIMD_OPERAND = re.compile(r"%(?:[xyz]mm\d+|mm\d|st(?:\(\d\))?|k[0-7])\b")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")


def symbol(elf, name):
    out = subprocess.run(["nm", elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    return None


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print("usage: scripts/check-simd.py KERNEL.ELF (-h for help)", file=sys.stderr)
        return 2
    elf = sys.argv[1]
    start, end = symbol(elf, "__simd_start"), symbol(elf, "__simd_end")
    if start is None or end is None:
        print(f"check-simd: {elf} has no __simd_start/__simd_end", file=sys.stderr)
        return 2
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", elf], capture_output=True,
                         text=True, check=True).stdout
    func, bad = "?", []
    for line in dis.splitlines():
        m = FUNC.match(line)
        if m:
            func = m.group(2)
            continue
        m = INSN.match(line)
        if not m or not SIMD_OPERAND.search(m.group(2)):
            continue
        addr = int(m.group(1), 16)
        if not start <= addr < end:
            bad.append(f"{addr:x} <{func}>: {m.group(2).strip()}")
    if bad:
        print(f"check-simd: {len(bad)} SIMD instruction(s) outside .text.simd in {elf}:",
              file=sys.stderr)
        for b in bad[:20]:
            print("  " + b, file=sys.stderr)
        print("  (SIMD belongs in .text.simd between kernel_fpu_begin()/_end(): "
              "kernel/arch/fpu.h)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
