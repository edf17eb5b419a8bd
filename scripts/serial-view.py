#!/usr/bin/env python3
"""The serial stream from QEMU to the user, byte by byte as it comes.

Usage: scripts/serial-view.py [--human] [--log FILE] [--out-fd N] < serial

run-qemu.sh pipes the guest's serial output through this filter.  Its
stdout is a full copy of the stream (run-qemu.sh reads it line by line for
the kernel's "console ready" and the loader's refusal); what the user sees
goes to --out-fd (default 1: the same stream), and --log FILE gets every
byte unchanged.

The user's view is the stream with two things left out:
  - until the loader's or kernel's first line, the firmware's screen
    clears and cursor homes (ESC[2J and other ESC[...J, ESC[row;colH,
    ESC[=Nh, ESC c, ESC[?1049h/l), which would wipe the terminal;
  - with --human (stdout is a terminal), every `@@ {json}` record line:
    the tables and progress lines are the human view, the records are for
    scripts (the log and a piped stdout keep them).
After the firmware, bytes are passed on as soon as they arrive, so a prompt
without a newline and the echo of typed characters show at once; only the
first bytes of a line that may still become "@@ " are held back.
"""
import argparse
import os
import re
import sys

FIRMWARE_ESCAPES = re.compile(rb"\x1b\[[0-9;]*[HJf]|\x1b\[=[0-9;]*h|\x1b\[\?(?:47|1047|1049)[hl]|\x1bc")
FIRST_LINES = (b"aslrbench loader:", b"aslrbench kernel:")
RECORD = b"@@ "


def write_all(fd, data):
    while data:
        try:
            n = os.write(fd, data)
        except BrokenPipeError:
            return False
        data = data[n:]
    return True


class View:
    def __init__(self, human):
        self.human = human
        self.firmware = True
        self.line = b""  # firmware: the whole line; after: the undecided start of one
        self.state = "start"  # start (undecided), pass or drop

    def feed(self, data):
        out = []
        while data:
            if self.firmware:
                nl = data.find(b"\n")
                if nl < 0:
                    self.line += data
                    break
                line, data = self.line + data[: nl + 1], data[nl + 1 :]
                self.line = b""
                if any(m in line for m in FIRST_LINES):
                    self.firmware = False
                    out.append(line)
                else:
                    out.append(FIRMWARE_ESCAPES.sub(b"", line))
                continue
            if not self.human:
                out.append(data)
                break
            nl = data.find(b"\n")
            chunk = data if nl < 0 else data[: nl + 1]
            data = b"" if nl < 0 else data[nl + 1 :]
            if self.state == "start":
                self.line += chunk
                if self.line.startswith(RECORD):
                    self.state = "drop"
                elif nl < 0 and RECORD.startswith(self.line):
                    continue  # still maybe a record
                else:
                    self.state = "pass"
                    out.append(self.line)
                self.line = b""
            elif self.state == "pass":
                out.append(chunk)
            if nl >= 0:
                self.state = "start"
                self.line = b""
        return b"".join(out)

    def end(self):
        rest = b"" if self.state == "drop" else self.line
        return FIRMWARE_ESCAPES.sub(b"", rest) if self.firmware else rest


def main():
    ap = argparse.ArgumentParser(description="The serial stream from QEMU, for the user and the log.")
    ap.add_argument("--human", action="store_true", help="leave out the @@ record lines")
    ap.add_argument("--log", help="every byte, unchanged")
    ap.add_argument("--out-fd", type=int, default=1, help="the user's view (default 1)")
    args = ap.parse_args()
    view = View(args.human)
    log = open(args.log, "ab", buffering=0) if args.log else None
    user_ok = True
    while True:
        data = os.read(0, 65536)
        if not data:
            break
        if log:
            log.write(data)
        if args.out_fd != 1:
            write_all(1, data)
        if user_ok:
            user_ok = write_all(args.out_fd, view.feed(data))
    if user_ok:
        write_all(args.out_fd, view.end())
    return 0


if __name__ == "__main__":
    sys.exit(main())
