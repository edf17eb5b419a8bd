#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Photos or screenshots of the QR screen -> the run's records as a log.

usage: scripts/qr-decode.py [--out LOG] [--run RUN] PATH...

PATH is an image (PNG, JPEG, ...: whatever zbarimg reads) or a directory
of them (every file in it, not below).  Each is read with zbarimg (Debian's
zbar-tools); every aslrbench code found ("AB1 K/N RUN CRC DATA",
docs/hardware.md) is checked against its CRC, duplicates and any order
are fine.  When codes 1 to N of one run are all there, the records go to
LOG (default: stdout), one "@@ {...}" line each, as in a serial log:
scripts/report.py LOG reads it.

  --out LOG   write the records there instead of stdout
  --run RUN   the run to decode (8 hex digits, the code's third word) when
              the pictures hold codes of several runs
  -h, --help  this text

Messages go to stderr: each picture and the codes it held, then which
codes are missing.  Exit status: 0 the log is complete; 1 codes are
missing or damaged (then LOG holds the records the codes up to the first
gap give: the summary and the boot record come first); 2 usage errors,
a path that does not exist, a LOG that cannot be written, no zbarimg, or
codes of several runs without --run.

Run it from a clone of the repository: it reads the stream's preset
dictionary from common/qr_dict.h.
"""
import ast
import os
import re
import subprocess
import sys
import zlib

CODE = re.compile(r"^AB1 (\d{1,3})/(\d{1,3}) ([0-9A-F]{8}) ([0-9A-F]{8}) ([0-9A-Z $%*+\-./:]*)$")
B45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
ZBAR = ["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable"]
# The stream's preset dictionary: the C string the kernel compiles.
DICT_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "qr_dict.h")


def note(msg):
    print(f"qr-decode: {msg}", file=sys.stderr)


def usage_error(msg):
    note(f"{msg} (see --help)")
    sys.exit(2)


def base45_decode(text):
    """RFC 9285; None when the text is not base45."""
    out = bytearray()
    for i in range(0, len(text), 3):
        group = text[i:i + 3]
        if len(group) == 1:
            return None
        vals = [B45.index(c) for c in group]
        n = sum(v * 45 ** k for k, v in enumerate(vals))
        if (len(group) == 3 and n > 0xFFFF) or (len(group) == 2 and n > 0xFF):
            return None
        out += n.to_bytes(len(group) - 1, "big")
    return bytes(out)


def parse_args(argv):
    out, run, paths = None, None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        elif a in ("--out", "--run"):
            if i + 1 >= len(argv):
                usage_error(f"{a} needs a value")
            if a == "--out":
                out = argv[i + 1]
            else:
                run = argv[i + 1].upper()
                if not re.fullmatch(r"[0-9A-F]{8}", run):
                    usage_error("--run needs the 8 hex digits the codes show")
            i += 2
            continue
        elif a.startswith("-") and a != "-":
            usage_error(f"unknown option '{a}'")
        else:
            paths.append(a)
        i += 1
    if not paths:
        usage_error("no pictures given")
    return out, run, paths


def pictures(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p)
                            if os.path.isfile(os.path.join(p, f)) and not f.startswith("."))
        elif os.path.isfile(p):
            files.append(p)
        else:
            usage_error(f"no such file or directory: '{p}'")
    if not files:
        usage_error("the directories hold no files")
    return files


def read_codes(path):
    """The texts zbarimg finds in one picture (none: an empty list)."""
    try:
        r = subprocess.run(ZBAR + [path], capture_output=True, check=False)
    except FileNotFoundError:
        note("zbarimg not found: install zbar-tools (scripts/deps.sh)")
        sys.exit(2)
    if r.returncode not in (0, 4):  # 4: no symbol found
        note(f"{path}: zbarimg cannot read it ({r.stderr.decode(errors='replace').strip()[-200:]})")
        return []
    return [line for line in r.stdout.decode("latin-1").splitlines() if line]


def collect(files):
    """{run: {k: chunk}} and {run: n} from every valid code; damaged ones are reported."""
    runs, counts, bad = {}, {}, 0
    for path in files:
        found = []
        for text in read_codes(path):
            m = CODE.match(text)
            if not m:
                note(f"{path}: a QR code that is not an aslrbench one ({text[:30]!r}...)")
                continue
            k, n, run, crc, data = int(m[1]), int(m[2]), m[3], int(m[4], 16), m[5]
            chunk = base45_decode(data)
            if not 1 <= k <= n or chunk is None or zlib.crc32(chunk) != crc:
                note(f"{path}: code {k}/{n} of run {run} is damaged (checksum); take it again")
                bad += 1
                continue
            if counts.setdefault(run, n) != n:
                note(f"{path}: code {k}/{n} of run {run} disagrees on the count ({counts[run]})")
                bad += 1
                continue
            have = runs.setdefault(run, {})
            if k in have and have[k] != chunk:
                note(f"{path}: two different codes {k} of run {run}, both with good checksums")
                sys.exit(1)
            have[k] = chunk
            found.append(f"{k}/{n}")
        note(f"{path}: {' '.join(found) if found else 'no aslrbench code'}")
    return runs, counts, bad


def ranges(nums):
    out, start = [], None
    for i, k in enumerate(nums):
        if start is None:
            start = k
        if i + 1 == len(nums) or nums[i + 1] != k + 1:
            out.append(str(start) if start == k else f"{start}-{k}")
            start = None
    return ", ".join(out)


def load_dict():
    """common/qr_dict.h's qr_dict[]: its adjacent C string literals, joined."""
    try:
        with open(DICT_H, encoding="ascii") as f:
            src = f.read()
    except OSError as e:
        note(f"cannot read the dictionary {DICT_H}: {e.strerror}")
        sys.exit(2)
    m = re.search(r'qr_dict\[\] =((?:\s*"(?:[^"\\]|\\.)*")+)\s*;', src)
    if not m:
        note(f"{DICT_H} holds no qr_dict[]")
        sys.exit(2)
    return "".join(ast.literal_eval(lit) for lit in re.findall(r'"(?:[^"\\]|\\.)*"', m[1])).encode()


def upto(k):
    return "code 1 gives" if k == 1 else f"codes 1-{k} give"


def records(stream, complete):
    """The "@@ " lines the stream inflates to; a cut stream gives its whole lines."""
    zdict = load_dict()
    if len(stream) >= 6 and stream[1] & 0x20 and stream[2:6] != zlib.adler32(zdict).to_bytes(4, "big"):
        note("the codes were made with another dictionary (common/qr_dict.h): "
             "decode them with the aslrbench version that made them")
        return None
    d = zlib.decompressobj(zdict=zdict)
    try:
        text = d.decompress(stream)
    except zlib.error as e:
        note(f"the codes do not inflate: {e}")
        return None
    if complete and not d.eof:
        note("the stream ends early: the codes are from a damaged run")
        return None
    lines = text.decode("utf-8", errors="replace").split("\n")
    return [l for l in lines[:-1] if l.startswith("@@ ")] if lines else []


def main(argv):
    out, want_run, paths = parse_args(argv)
    runs, counts, bad = collect(pictures(paths))
    if not runs:
        note("no aslrbench QR code found in the pictures")
        return 1
    if want_run:
        if want_run not in runs:
            note(f"no code of run {want_run}; the pictures hold runs {', '.join(sorted(runs))}")
            return 1
        run = want_run
    elif len(runs) > 1:
        note(f"codes of several runs: {', '.join(sorted(runs))}; choose one with --run")
        return 2
    else:
        run = next(iter(runs))
    have, n = runs[run], counts[run]
    missing = [k for k in range(1, n + 1) if k not in have]
    prefix = b""
    for k in range(1, n + 1):
        if k not in have:
            break
        prefix += have[k]
    complete = not missing
    if complete and zlib.crc32(prefix) != int(run, 16):
        note(f"run {run}: the codes put together fail the run's checksum")
        complete = False
    got = records(prefix, complete)
    lines = got or []
    text = "".join(l + "\n" for l in lines)
    if out:
        try:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            note(f"cannot write {out}: {e.strerror}")
            return 2
    else:
        sys.stdout.write(text)
    if missing:
        note(f"run {run}: {len(have)} of {n} codes; missing: {ranges(missing)}"
             f" (the log holds the {len(lines)} records {upto(missing[0] - 1)})"
             if missing[0] > 1 else
             f"run {run}: {len(have)} of {n} codes; missing: {ranges(missing)} (the log is empty)")
        return 1
    if not complete or got is None:
        return 1
    note(f"run {run}: all {n} codes, {len(lines)} records" + (f" ({bad} damaged copies ignored)" if bad else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
