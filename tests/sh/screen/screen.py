#!/usr/bin/env python3
"""screen.py png FILE W H SCALE | raw FILE SCALE  ->  the screen's text rows.

Checks a PNG's structure with the stdlib (signature, chunk CRCs, IHDR, IEND)
and reads its pixels with matplotlib; a raw frame is the host harness's
dump (header "W H PITCH", then pitch*H little-endian u32 pixels).  A pixel
is ink when it differs from the top-left pixel (the background).  Every
cell is matched against the font's glyphs, then inverted (the cursor on a
character); the cursor on a blank reads as the full block; unknown cells
read as '\x7f'.
"""
import struct, sys, zlib
import numpy as np

def font(path):
    d = open(path, "rb").read()
    if d[:2] == b"\x36\x04":
        mode, h = d[2], d[3]
        count, w, off, bpr = (512 if mode & 1 else 256), 8, 4, 1
        table, psf2 = d[off + count * h:] if mode & 2 else b"", False
    else:
        _, _, off, flags, count, size, h, w = struct.unpack_from("<8I", d)
        bpr = (w + 7) // 8
        table, psf2 = d[off + count * size:] if flags & 1 else b"", True
    glyphs = [d[off + i * h * bpr: off + (i + 1) * h * bpr] for i in range(count)]
    chars = {}
    if table and not psf2:
        g, i, seq = 0, 0, False
        while g < count and i + 1 < len(table):
            v = struct.unpack_from("<H", table, i)[0]
            i += 2
            if v == 0xFFFF:
                g, seq = g + 1, False
            elif v == 0xFFFE:
                seq = True
            elif not seq:
                chars.setdefault(g, chr(v))
    elif table:
        for g, entry in enumerate(table.split(b"\xff")[:count]):
            s = entry.split(b"\xfe")[0].decode("utf-8", "replace")
            if s:
                chars[g] = s[0]
    else:
        chars = {g: chr(g) for g in range(min(count, 256))}
    by_bitmap = {}
    for g, bm in enumerate(glyphs):
        if g in chars:
            by_bitmap.setdefault(bm, chars[g])
    by_bitmap[bytes(h * bpr)] = " "
    return w, h, bpr, by_bitmap

def png_pixels(path, want_w, want_h):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
    i, seen, idat = 8, [], b""
    while i < len(d):
        n, t = struct.unpack(">I4s", d[i:i + 8])
        body = d[i + 8:i + 8 + n]
        crc = struct.unpack(">I", d[i + 8 + n:i + 12 + n])[0]
        assert zlib.crc32(t + body) == crc, f"bad CRC in {t}"
        seen.append(t)
        if t == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        if t == b"IDAT":
            idat += body
        i += 12 + n
    assert seen[0] == b"IHDR" and seen[-1] == b"IEND", f"chunks {seen}"
    assert (w, h) == (want_w, want_h), f"size {w}x{h}, expected {want_w}x{want_h}"
    assert depth == 8 and ctype in (2, 6), f"depth {depth} colour type {ctype}"
    assert len(zlib.decompress(idat)) == h * (1 + w * (3 if ctype == 2 else 4))
    import matplotlib.image
    img = matplotlib.image.imread(path)
    assert img.shape[:2] == (h, w)
    img = np.round(img[:, :, :3] * 255).astype(np.uint32)
    return img[:, :, 0] << 16 | img[:, :, 1] << 8 | img[:, :, 2]

def raw_pixels(path):
    d = open(path, "rb").read()
    head, _, body = d.partition(b"\n")
    w, h, pitch = map(int, head.split())
    return np.frombuffer(body, dtype="<u4").reshape(h, pitch)[:, :w]

def text(px, scale, fontfile):
    fw, fh, bpr, by_bitmap = font(fontfile)
    px = px[::scale, ::scale]
    ink = px != px[0, 0]
    rows, cols = ink.shape[0] // fh, ink.shape[1] // fw
    out = []
    for r in range(rows):
        line = ""
        for c in range(cols):
            cell = ink[r * fh:(r + 1) * fh, c * fw:(c + 1) * fw]
            bits = np.packbits(np.pad(cell, ((0, 0), (0, bpr * 8 - fw))), axis=1)
            bm = bits.tobytes()
            ch = by_bitmap.get(bm) or by_bitmap.get(bytes(b ^ 0xFF for b in bm))
            line += ch if ch else "\x7f"
        out.append(line.rstrip())
    return out, ink

if __name__ == "__main__":
    if sys.argv[1] == "png":
        _, _, path, w, h, scale, fontfile = sys.argv
        px = png_pixels(path, int(w), int(h))
    else:
        _, _, path, scale, fontfile = sys.argv
        px = raw_pixels(path)
    rows, ink = text(px, int(scale), fontfile)
    print("\n".join(rows))
    print(f"# ink pixels {int(ink.sum())}", file=sys.stderr)
