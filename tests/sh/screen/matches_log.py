#!/usr/bin/env python3
"""matches_log.py LOG SCREEN_TXT COLS ROWS: the screen's text rows (less
the cursor row) are the serial log from the fbcon line on, wrapped at COLS
and scrolled to the last ROWS-1 rows.  Exit 0 when they are, 1 otherwise."""
import sys
log, shot, cols, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = [l.rstrip("\r\n") for l in open(log, encoding="utf-8", errors="replace")]
start = max(i for i, l in enumerate(lines) if l.startswith("fbcon: "))
want = []
for l in lines[start:]:
    l = l.replace("\r", "")
    want += [l[i:i + cols].rstrip() for i in range(0, max(len(l), 1), cols)]
got = open(shot, encoding="utf-8").read().split("\n")[:rows]
while got and got[-1] == "":
    got.pop()
assert got and got[-1] == "\u2588", "no cursor below the last line"
got.pop()
want = want[-(rows - 1):]
bad = [(i, w, g) for i, (w, g) in enumerate(zip(want, got)) if w != g]
for i, w, g in bad[:5]:
    print(f"row {i}: screen {g!r}\n        serial {w!r}")
print(f"{len(got)} screen rows, {len(want)} serial rows, {len(bad)} differ")
sys.exit(1 if bad or len(got) != len(want) or len(got) < 10 else 0)
