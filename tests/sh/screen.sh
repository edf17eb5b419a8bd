#!/usr/bin/env bash
# TAP tests for the framebuffer console (kernel/console/fbcon.c).
#
# 1. Host harness: fbcon.c compiled for the host against a fake framebuffer
#    in RAM, with the real font object from the build: control characters,
#    ANSI escapes, UTF-8, wrapping, scrolling, RGB/BGR/bitmask pixels, large
#    screen scaling, and the refusals (no framebuffer, bad font).
# 2. Boots with scripts/run-qemu.sh --screenshot: the PNG must be complete
#    and its text (read back cell by cell with the same PSF font) must be
#    what the kernel printed on serial; then without any serial port; then
#    at 1920x1080 (2x font).
# Screens are decoded to text by matching every cell against the font's
# glyphs, so a check fails on wrong text, not only on a blank screen.
# Needs `make all` (build/aslrbench.iso, build/k/font/); PNGs and frames are
# kept in build/test-logs/.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
py=/usr/bin/python3 # Debian's python, the one with matplotlib
logs=build/test-logs
font=build/k/font/fbcon_font.psf
fontobj=build/k/font/fbcon_font.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$logs"

n=0 failed=0
ok() { # ok NAME CMD...: one TAP line, from the command's exit status
	local name=$1
	shift
	n=$((n + 1))
	if "$@" >"$tmp/last.out" 2>&1; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$tmp/last.out" | head -30
		failed=$((failed + 1))
	fi
}

# ---- the screen reader: PNG or raw frame -> text rows, via the PSF font ----
cat >"$tmp/screen.py" <<'PY'
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
PY
screen() { "$py" "$tmp/screen.py" "$@" "$font"; }

# ---- 1. host harness ----
cat >"$tmp/harness.c" <<'C'
/* fbcon.c on the host: the kernel services it uses, stubbed. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/console/fbcon.h"

void (*console_screen_write)(const char *s, size_t n);
/* The harness's framebuffer is host memory: mapping it is the identity. */
void *ioremap_wc(uint64_t phys, uint64_t size) { (void)size; return (void *)phys; }
uint64_t tsc_hz(void) { return 0; }
bool serial_present(void) { return true; }
void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
#ifdef BAD_FONT
const uint8_t fbcon_font_psf_start[] = { 0x36, 0x04, 0x02, 0x40, 1, 2, 3 };
const uint8_t fbcon_font_psf_end[1];
#endif

static struct boot_framebuffer fb;
static uint32_t *mem;

static void setup(uint32_t w, uint32_t h, uint32_t pitch, uint32_t format)
{
	free(mem);
	mem = calloc((size_t)pitch * h, 4);
	fb = (struct boot_framebuffer){ .base = (uint64_t)mem, .size = (uint64_t)pitch * h * 4,
					.width = w, .height = h, .pitch = pitch, .format = format };
	if (format == BOOT_FB_BITMASK) { /* 10 bits a channel, blue high */
		fb.blue_mask = 0x3ff00000;
		fb.green_mask = 0x000ffc00;
		fb.red_mask = 0x000003ff;
	}
}

static void dump(const char *path)
{
	FILE *f = fopen(path, "wb");
	fprintf(f, "%u %u %u\n", fb.width, fb.height, fb.pitch);
	fwrite(mem, 4, (size_t)fb.pitch * fb.height, f);
	fclose(f);
}

#define w(lit) fbcon_write(lit, sizeof(lit) - 1) /* literals may hold NUL */

/* The first pixel with colour != 0 in cell (col,row) at scale 1, 8x16 cells. */
static uint32_t ink_in_cell(unsigned col, unsigned row)
{
	for (unsigned y = row * 16; y < row * 16 + 16; y++)
		for (unsigned x = col * 8; x < col * 8 + 8; x++)
			if (mem[y * fb.pitch + x])
				return mem[y * fb.pitch + x];
	return 0;
}

int main(int argc, char **argv)
{
	const char *out = argv[1];
	char path[512];

	if (argc > 2) { /* refusals: no framebuffer, bad font */
		setup(640, 480, 640, BOOT_FB_RGBX);
		printf("bad-font %d hook %d\n", fbcon_init(&fb), console_screen_write != NULL);
		return 0;
	}
	setup(640, 480, 640, BOOT_FB_NONE);
	printf("format-none %d\n", fbcon_init(&fb));
	setup(640, 480, 640, BOOT_FB_RGBX);
	fb.base = 0;
	printf("base-0 %d\n", fbcon_init(&fb));
	setup(640, 480, 640, BOOT_FB_RGBX);
	fb.size = 4096;
	printf("too-small %d\n", fbcon_init(&fb));
	setup(640, 480, 600, BOOT_FB_RGBX);
	printf("pitch<width %d\n", fbcon_init(&fb));

	/* Terminal semantics, RGBX, pitch wider than the screen. */
	setup(640, 480, 700, BOOT_FB_RGBX);
	printf("init %d", fbcon_init(&fb));
	printf(" hook %d cols %u rows %u\n", console_screen_write == fbcon_write, fbcon_cols(),
	       fbcon_rows());
	fbcon_clear();
	w("tab\tstop|\n");
	w("abc\bX\n");
	w("12345\rab\n");
	w("\x1b[31mred\x1b[0m plain\x1b[2K\n");
	w("caf\xc3\xa9 \xe2\x94\x80 \xff!\n");
	w("x\x1b]0;title\x07y\x1b" "7z\x1b[?25l\n");
	w("bell\a nul\0 del\x7f end\n");
	for (int i = 0; i < 80; i++)
		fbcon_write(&"0123456789"[i % 10], 1);
	w("wrapped\n");
	for (int i = 0; i < 80; i++)
		w("x"); /* exactly a row: the newline must not add an empty one */
	w("\nafter\n");
	fbcon_set_color(FBCON_GREEN, FBCON_BLACK);
	fbcon_puts_at(70, 0, "at70");
	fbcon_set_color(FBCON_LIGHT_GREY, FBCON_BLACK);
	w("\x1b[20;75Hcup\x1b[1;1H\x1b[20;79H"); /* last: moves the cursor */
	printf("red-pixel %06x\n", ink_in_cell(0, 3));
	printf("grey-pixel %06x\n", ink_in_cell(4, 3));
	snprintf(path, sizeof(path), "%s-terminal.raw", out);
	dump(path);

	/* Scrolling: 100 lines on 30 rows. */
	fbcon_clear();
	for (int i = 0; i < 100; i++) {
		char line[32];
		snprintf(line, sizeof(line), "line %d%s\n", i, i % 3 ? "" : " ...");
		fbcon_write(line, strlen(line));
	}
	snprintf(path, sizeof(path), "%s-scroll.raw", out);
	dump(path);

	/* BGRX and a 10-bit bitmask: where the red goes. */
	setup(640, 480, 640, BOOT_FB_BGRX);
	fbcon_init(&fb);
	w("\x1b[31mR\n");
	printf("bgr-red %06x\n", ink_in_cell(0, 0));
	setup(640, 480, 640, BOOT_FB_BITMASK);
	fbcon_init(&fb);
	w("\x1b[31mR\x1b[0mg\n");
	printf("mask-red %08x mask-grey %08x\n", ink_in_cell(0, 0), ink_in_cell(1, 0));
	snprintf(path, sizeof(path), "%s-bitmask.raw", out);
	dump(path);

	/* Large screens: 2x from 1600x800 up. */
	setup(1920, 1080, 1920, BOOT_FB_BGRX);
	fbcon_init(&fb);
	printf("1920x1080 cols %u rows %u\n", fbcon_cols(), fbcon_rows());
	w("big text\n");
	snprintf(path, sizeof(path), "%s-1920.raw", out);
	dump(path);
	setup(1280, 800, 1280, BOOT_FB_BGRX);
	fbcon_init(&fb);
	printf("1280x800 cols %u rows %u\n", fbcon_cols(), fbcon_rows());
	return 0;
}
C
fbcon_srcs=(kernel/console/fbcon.c kernel/console/fbcon_draw.c kernel/console/fbcon_vt.c
	kernel/console/psf.c kernel/arch/fw_cfg.c)
hcc() { gcc -std=gnu11 -O1 -Wall -Wextra -Werror -Wno-unused-parameter -I. "$@"; }
h=$tmp/harness
if [ ! -r build/aslrbench.iso ] || [ ! -r "$fontobj" ]; then
	# `make test` builds everything first; a bare `make test-host` does not.
	echo "ok 1 - screen console # SKIP build/aslrbench.iso or $fontobj missing (run make all)"
	echo "1..1"
	exit 0
fi
ok "harness: fbcon.c builds for the host" \
	hcc -o "$h" "$tmp/harness.c" "${fbcon_srcs[@]}" "$fontobj"
ok "harness: bad-font build" \
	hcc -DBAD_FONT -o "$h-badfont" "$tmp/harness.c" "${fbcon_srcs[@]}"
"$h" "$tmp/frame" >"$tmp/harness.out" 2>"$tmp/harness.err"
"$h-badfont" "$tmp/frame" bad >>"$tmp/harness.out" 2>>"$tmp/harness.err"
cp "$tmp/harness.out" "$logs/screen-harness.out"
says() { grep -qxF -- "$1" "$tmp/harness.out" || { echo "harness output lacks: $1"; cat "$tmp/harness.out"; return 1; }; }
row() { # row FRAME SCALE N TEXT: decoded row N equals TEXT
	local got
	got=$(screen raw "$tmp/frame-$1.raw" "$2" 2>/dev/null | sed -n "$(($3 + 1))p")
	[ "$got" = "$4" ] || { echo "row $3: got '$got', expected '$4'"; return 1; }
}
ok "harness: no framebuffer (format NONE) -> off" says "format-none 0"
ok "harness: base 0 -> off" says "base-0 0"
ok "harness: framebuffer smaller than the mode -> off" says "too-small 0"
ok "harness: pitch below width -> off" says "pitch<width 0"
ok "harness: bad font -> off, console hook untouched" says "bad-font 0 hook 0"
ok "harness: 640x480 -> 80x30 cells, hook installed" says "init 1 hook 1 cols 80 rows 30"
ok "harness: tab to column 8, puts_at column 70" row terminal 1 0 "$(printf '%-70sat70' 'tab     stop|')"
ok "harness: backspace" row terminal 1 1 "abX"
ok "harness: carriage return" row terminal 1 2 "ab345"
ok "harness: SGR colours and CSI K swallowed" row terminal 1 3 "red plain"
ok "harness: UTF-8 (Latin-1, box drawing) and a bad byte" row terminal 1 4 "café ─ ?!"
ok "harness: OSC, ESC 7 and private CSI swallowed" row terminal 1 5 "xyz"
ok "harness: BEL NUL DEL invisible" row terminal 1 6 "bell nul del end"
ok "harness: CSI H moves; the cursor shows where it ends" row terminal 1 19 "$(printf '%74scup █' '')"
ok "harness: long line wraps at column 80" row terminal 1 7 "$(printf '0123456789%.0s' 1 2 3 4 5 6 7 8)"
ok "harness: ... and goes on on the next row" row terminal 1 8 "wrapped"
ok "harness: a full row then newline: no empty row" row terminal 1 9 "$(printf 'x%.0s' $(seq 80))"
ok "harness: ... next line right below" row terminal 1 10 "after"
ok "harness: RGBX red is 0xaa0000 in byte order R,G,B" says "red-pixel 0000aa"
ok "harness: RGBX light grey" says "grey-pixel aaaaaa"
ok "harness: BGRX red" says "bgr-red aa0000"
ok "harness: 10-bit bitmask red / grey" says "mask-red 000002a8 mask-grey 2a8aa2a8"
ok "harness: scrolled, first row is line 71" row scroll 1 0 "line 71"
ok "harness: scrolled, row 28 is line 99 ..." row scroll 1 28 "line 99 ..."
ok "harness: scrolled, last row holds only the cursor" row scroll 1 29 "█"
scrolled() { screen raw "$tmp/frame-scroll.raw" 1 2>/dev/null | head -29 >"$tmp/scroll.txt"; for i in $(seq 71 99); do if [ $((i % 3)) = 0 ]; then echo "line $i ..."; else echo "line $i"; fi; done | diff - "$tmp/scroll.txt"; }
ok "harness: scrolled screen is exactly lines 71-99" scrolled
ok "harness: bitmask frame decodes" row bitmask 1 0 "Rg"
ok "harness: 1920x1080 -> 2x font, 120x33 cells" says "1920x1080 cols 120 rows 33"
ok "harness: 1920x1080 text at 2x" row 1920 2 0 "big text"
ok "harness: 1280x800 -> 1x font, 160x50 cells" says "1280x800 cols 160 rows 50"

# ---- 2. boots ----
run() { # run NAME CMDLINE ARGS...: boot with a screenshot; status in $tmp/NAME.rc
	local name=$1 cmdline=$2
	shift 2
	scripts/run-qemu.sh --cmdline "$cmdline" --timeout 120 --log "$logs/screen-$name.log" \
		--screenshot "$logs/screen-$name.png" "$@" >/dev/null 2>"$logs/screen-$name.err"
	echo $? >"$tmp/$name.rc"
}
rc_is() { [ "$(cat "$tmp/$1.rc")" = "$2" ] || { echo "exit status $(cat "$tmp/$1.rc"), expected $2"; cat "$logs/screen-$1.err"; return 1; }; }
decode() { # decode NAME W H SCALE: the PNG as text in $logs/screen-NAME.txt
	screen png "$logs/screen-$1.png" "$2" "$3" "$4" >"$logs/screen-$1.txt"
}
shows() { grep -qF -- "$2" "$logs/screen-$1.txt" || { echo "screen $1 lacks: $2"; cat "$logs/screen-$1.txt"; return 1; }; }
# The screen's text rows (less the cursor row) are the serial log from the
# fbcon line on, wrapped at COLS and scrolled to the last ROWS-1 rows.
matches_log() {
	"$py" - "$logs/screen-$1.log" "$logs/screen-$1.txt" "$2" "$3" <<'PY'
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
PY
}
not_blank() {
	local px
	px=$(screen png "$logs/screen-$1.png" "$2" "$3" "$4" 2>&1 >/dev/null | sed -n 's/^# ink pixels //p')
	echo "ink pixels: $px"
	[ "${px:-0}" -gt 20000 ]
}

# The whole self-test run (its output scrolls), then two short runs whose
# every line stays on the screen.
run serial "mode=test"
ok "serial boot: exit status 0" rc_is serial 0
ok "serial boot: PNG complete (CRCs, IEND), 1280x800" decode serial 1280 800 1
ok "serial boot: the screen is not blank" not_blank serial 1280 800 1
ok "serial boot: log says the console geometry" grep -qF "font 8x16 x1: 160x50 text" "$logs/screen-serial.log"
ok "serial boot: screen shows the exit status" shows serial "aslrbench: exit status ok (0x10)"
ok "serial boot: screen text = serial log, row for row" matches_log serial 160 50

run noserial "mode=test suite=paging" --no-serial
ok "no-serial boot: exit status 0" rc_is noserial 0
ok "no-serial boot: log is empty" test ! -s "$logs/screen-noserial.log"
ok "no-serial boot: PNG complete, 1280x800" decode noserial 1280 800 1
ok "no-serial boot: screen says there is no serial port" shows noserial "no serial port, this screen is the console"
ok "no-serial boot: screen shows the test summary" shows noserial '{"type":"summary","passed":2,"failed":0'
ok "no-serial boot: screen shows the exit status" shows noserial "aslrbench: exit status ok (0x10)"

run 1920 "mode=test suite=paging" --resolution 1920x1080
ok "1920x1080 boot: exit status 0" rc_is 1920 0
ok "1920x1080 boot: PNG complete, 1920x1080" decode 1920 1920 1080 2
ok "1920x1080 boot: 2x font, 120x33 cells" shows 1920 "1920x1080 BGRX pitch 1920 at 0xc0000000, font 8x16 x2: 120x33 text"
ok "1920x1080 boot: screen text = serial log, row for row" matches_log 1920 120 33

# mode=bench on a machine without a serial port ends on the summary screen.
run benchsum "mode=bench suite=rng samples=200 ensembles=2" --no-serial
ok "no-serial bench: exit status 0" rc_is benchsum 0
ok "no-serial bench: PNG complete, 1280x800" decode benchsum 1280 800 1
ok "no-serial bench: summary screen drawn" shows benchsum "aslrbench - results of this run"
ok "no-serial bench: summary lists md4-2.6.30" shows benchsum "md4-2.6.30"
ok "no-serial bench: summary lists chacha20-batched" shows benchsum "chacha20-batched"

echo "1..$n"
[ "$failed" -eq 0 ]
