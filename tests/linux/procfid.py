#!/usr/bin/env python3
"""Compares what lx_procfid printed under two kernels, field by field.

Usage: tests/linux/procfid.py [--show] LOG_REFERENCE LOG_OTHER

Each log holds one run of tests/linux/lx_procfid (a serial log: other lines
are ignored).  Both are normalised first: pids become the process's role
(ROOT, SELF, SIB, MAIN), times become T, counts of pages, faults and kB
become N, addresses become A (0 and 1 stay: Linux 6.12 prints 1 for a
code range it hides), the CPU becomes C.  Everything else must be equal:
which files open, their errors, every flag, signal mask, credential,
capability and wchan.  Differences this project keeps on purpose are
listed in KNOWN with the reason; a KNOWN entry that no longer differs is
reported too, so the list shrinks as the kernel catches up.

Exit status: 0 the runs agree (but for KNOWN), 1 they differ, 2 bad input.
"""
import re
import sys

# (file, reason): sections whose difference is known and kept, by file name.
KNOWN = {}
# Differences the normalisation hides on purpose, printed with every run:
# sizes are not compared, and these are why.
NORMALISED = [
    "VmStk, VmSize and statm's size: aslrbench's [stack] region is RLIMIT_STACK's "
    "8 MiB from exec on, 6.12's starts at 132 KiB and grows (docs/linux-abi.md)",
    "RssFile/RssShmem and statm's shared: every page here is anonymous memory "
    "(ramfs files are copied at fault time), 6.12 counts page-cache pages",
    "SigQ's limit: RLIMIT_SIGPENDING is unlimited here, sized from memory in 6.12",
]

STAT_PIDS = {1, 4, 5, 6}
STAT_COUNTS = {10, 11, 12, 13, 23, 24}
STAT_TIMES = {14, 15, 16, 17, 22}
STAT_ADDRS = {26, 27, 28, 29, 30, 45, 46, 47, 48, 49, 50, 51}
STAT_CPU = 39


def addr(v):
    return v if v in ("0", "1") else "A"


class Run:
    def __init__(self, path):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read().replace("\r", "")
        except OSError as e:
            raise SystemExit(f"procfid: {path}: {e.strerror}")
        m = re.search(r"pids root=(\d+) self=(\d+) sibling=(\d+) parent=(\d+)$", text, re.M)
        if not m:
            raise SystemExit(f"procfid: {path}: no 'pids' line (not an lx_procfid run?)")
        self.roles = dict(zip(m.groups(), ("ROOT", "SELF", "SIB", "MAIN")))
        self.sections = {}
        name = None
        for line in text[m.end():].split("\n"):
            if line.startswith("@@ ") or line.startswith("lx_procfid: exit"):
                name = None
                continue
            h = re.match(r"^== (\w+) (/proc/\S+)$", line)
            if h:
                name = re.sub(r"\d+", lambda d: self.roles.get(d.group(0), "PID"), h.group(2))
                self.sections[name] = []
            elif name:
                self.sections[name].append(line)
        for k in self.sections:
            while self.sections[k] and self.sections[k][-1] == "":
                self.sections[k].pop()
        if not self.sections:
            raise SystemExit(f"procfid: {path}: the run printed no /proc file")

    def pid(self, v):
        return self.roles.get(v, "0" if v == "0" else "PID")

    def stat(self, line):
        m = re.match(r"^(\d+) \((.*)\) (.*)$", line)
        if not m:
            return [line]
        fields = [m.group(1), "(" + m.group(2) + ")"] + m.group(3).split(" ")
        out = []
        for i, v in enumerate(fields, 1):
            if i in STAT_PIDS:
                v = self.pid(v)
            elif i in STAT_COUNTS:
                v = "N"
            elif i in STAT_TIMES:
                v = "T"
            elif i in STAT_ADDRS:
                v = addr(v)
            elif i == STAT_CPU:
                v = "C"
            out.append(f"{i}={v}")
        return [f"fields {len(fields)}"] + out

    def status(self, line):
        key, _, val = line.partition(":\t")
        if val.endswith(" kB"):
            val = "N kB"
        elif key in ("Tgid", "Pid", "PPid", "NStgid", "NSpid", "NSpgid", "NSsid"):
            val = self.pid(val)
        elif key in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"):
            val = "N"
        elif key == "SigQ":
            val = "N/N"  # the queued count, and RLIMIT_SIGPENDING (memory-sized in Linux)
        return [f"{key}: {val}"]

    @staticmethod
    def maps(line):
        f = line.split()
        if len(f) < 5:
            return [line]
        return [" ".join(["A-A", f[1], f[2], "D", " ".join(f[5:])])]

    @staticmethod
    def statm(line):
        f = line.split()
        if len(f) != 7:
            return [line]
        return [" ".join(["N", "N", "N", f[3], f[4], "N", f[6]])]

    @staticmethod
    def syscall(line):
        f = line.split()
        if len(f) < 3:
            return [line]
        return [" ".join([f[0]] + [v if len(v) <= 6 else "A" for v in f[1:-2]] + ["A", "A"])]

    def normal(self, name, lines):
        kind = name.rsplit("/", 1)[1]
        fn = {"stat": self.stat, "status": self.status, "maps": self.maps,
              "statm": self.statm, "syscall": self.syscall}.get(kind)
        out = []
        for line in lines:
            if line.startswith(("open: ", "read: ")) or fn is None:
                out.append(line)
            else:
                out.extend(fn(line))
        return out


def main(argv):
    show = "--show" in argv
    args = [a for a in argv if a != "--show"]
    if len(args) != 2 or any(a.startswith("-") for a in args):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    ref, other = Run(args[0]), Run(args[1])
    bad = 0
    for name in sorted(set(ref.sections) | set(other.sections)):
        a = ref.normal(name, ref.sections.get(name, ["(absent)"]))
        b = other.normal(name, other.sections.get(name, ["(absent)"]))
        kind = name.rsplit("/", 1)[1]
        known = KNOWN.get(kind)
        if show:
            print(f"== {name}\n" + "\n".join(b))
        if a == b:
            if known:
                print(f"procfid: {name}: now equal, but KNOWN lists '{kind}': remove it")
                bad += 1
            continue
        diffs = [f"  {x!r} | {y!r}" for x, y in zip(a + [""] * len(b), b + [""] * len(a)) if x != y]
        if known:
            print(f"procfid: {name}: differs, known: {known}")
            continue
        print(f"procfid: {name}: differs (reference | other):")
        print("\n".join(diffs[:20]))
        bad += 1
    for note in NORMALISED:
        print(f"procfid: not compared: {note}")
    print(f"procfid: {len(set(ref.sections) | set(other.sections))} files compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
