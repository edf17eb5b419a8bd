#!/usr/bin/env python3
"""Seals the SHA-256 of kernel.elf and initrd.cpio into a built BOOTX64.EFI.

Usage: scripts/seal-loader.py LOADER.EFI --kernel KERNEL.ELF [--initrd INITRD.CPIO]

The loader (boot/secure.c) holds a fixed-size record that starts with the
magic "ASLRBENCH-SEAL-1"; this overwrites the rest of it in place.  Run it
before signing: the signature covers the sealed bytes, so with Secure Boot on
the loader starts only the files it was sealed with.  A signed loader must
have its signature removed first (sbattach --remove).
"""
import argparse
import hashlib
import struct
import sys

MAGIC = b"ASLRBENCH-SEAL-1"


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("loader")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd")
    a = ap.parse_args()
    with open(a.loader, "rb") as f:
        img = bytearray(f.read())
    at = img.find(MAGIC)
    if at < 0 or img.find(MAGIC, at + 1) >= 0:
        sys.exit(f"seal-loader: {a.loader}: expected exactly one seal record")
    initrd = digest(a.initrd) if a.initrd else bytes(32)
    rec = struct.pack("<II", 1, 1 if a.initrd else 0) + digest(a.kernel) + initrd
    img[at + len(MAGIC):at + len(MAGIC) + len(rec)] = rec
    with open(a.loader, "wb") as f:
        f.write(img)


if __name__ == "__main__":
    main()
