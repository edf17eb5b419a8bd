#!/usr/bin/env python3
"""Adds shim's MokList (one X.509 certificate) to a copy of an OVMF vars file.

Usage: scripts/ovmf-vars.py TEMPLATE.fd OUT.fd --mok CERT.der
       scripts/ovmf-vars.py TEMPLATE.fd --list

What MokManager writes after "Enroll key from disk", done before the first
boot so a test can boot the shim path without a keyboard: the variable
MokList (shim's vendor GUID, attributes NV|BS: shim's mok.c ignores a MokList
visible at runtime) holding an EFI_SIGNATURE_LIST of the certificate.

The layout is EDK2's (MdeModulePkg/Include/Guid/VariableFormat.h, packed):
a firmware volume header, the VARIABLE_STORE_HEADER (authenticated format),
then AUTHENTICATED_VARIABLE_HEADER records, each followed by its UTF-16 name
and data, each starting 4-byte aligned; the first record without the start
id 0x55AA ends the store.  The new record is appended there.
"""
import argparse
import struct
import sys
import uuid

AUTH_VAR_GUID = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
SHIM_LOCK_GUID = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23")
CERT_X509_GUID = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
START_ID = 0x55AA
VAR_ADDED = 0x3F
HDR = struct.Struct("<HBBIQ16sIII16s")  # AUTHENTICATED_VARIABLE_HEADER, 60 bytes
NV, BS = 0x1, 0x2


def store(img):
    """Offset and size of the variable store, after the firmware volume header."""
    if img[40:44] != b"_FVH":
        sys.exit("ovmf-vars: not an OVMF vars file (no _FVH firmware volume)")
    fv_hdr = struct.unpack_from("<H", img, 48)[0]
    if uuid.UUID(bytes_le=bytes(img[fv_hdr:fv_hdr + 16])) != AUTH_VAR_GUID:
        sys.exit("ovmf-vars: the variable store is not in the authenticated format")
    size = struct.unpack_from("<I", img, fv_hdr + 16)[0]
    return fv_hdr, size


def records(img):
    """(offset, state, attributes, name, data offset, data size, guid) of every record."""
    base, size = store(img)
    at = base + 28
    while at + HDR.size <= base + size:
        f = HDR.unpack_from(img, at)
        if f[0] != START_ID:
            return at, out
        name_size, data_size = f[7], f[8]
        name = bytes(img[at + HDR.size:at + HDR.size + name_size]).decode("utf-16-le").rstrip("\0")
        data = at + HDR.size + name_size
        out.append((at, f[1], f[3], name, data, data_size, uuid.UUID(bytes_le=f[9])))
        at = (data + data_size + 3) & ~3
    sys.exit("ovmf-vars: the variable store is full")


out = []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("template")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--mok", help="DER certificate to enroll as MokList")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    img = bytearray(open(a.template, "rb").read())
    end, recs = records(img)
    if a.list:
        for at, state, attr, name, _, size, guid in recs:
            print(f"{at:#08x} state={state:#04x} attr={attr:#x} {guid} {name} ({size} bytes)")
        return
    if not a.out or not a.mok:
        ap.error("OUT and --mok are needed (or --list)")
    der = open(a.mok, "rb").read()
    sig_data = SHIM_LOCK_GUID.bytes_le + der
    esl = CERT_X509_GUID.bytes_le + struct.pack("<III", 28 + len(sig_data), 0, len(sig_data)) + sig_data
    name = "MokList\0".encode("utf-16-le")
    hdr = HDR.pack(START_ID, VAR_ADDED, 0, NV | BS, 0, bytes(16), 0, len(name), len(esl),
                   SHIM_LOCK_GUID.bytes_le)
    rec = hdr + name + esl
    base, size = store(img)
    if end + len(rec) > base + size or any(b != 0xFF for b in img[end:end + len(rec)]):
        sys.exit("ovmf-vars: no room after the last variable")
    img[end:end + len(rec)] = rec
    open(a.out, "wb").write(img)


if __name__ == "__main__":
    main()
