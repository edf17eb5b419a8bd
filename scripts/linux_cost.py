#!/usr/bin/env python3
"""The table of scripts/linux-cost.sh from the logs it leaves in DIR.

Usage: scripts/linux_cost.py DIR

DIR holds aslrbench.log (the probes under aslrbench, one deterministic
boot), aslrbench-fork-suite.log (mode=bench suite=fork) and
linux-6.12-K.log (the probes under Linux 6.12, one per boot).  Each probe
line is "cost ROW median=M ..." (or mean=M) after a "== costprobe BUILD"
line.  Prints two markdown tables: the operations (Linux 6.12 the median of
its boots' medians with their range when they differ; the ratio
aslrbench / Linux 6.12) and each RNG variant's draw inside a fork as a
share of either kernel's fork.  Exit status 0; 1 a log missing or without
the rows; 2 bad arguments.
"""
import glob
import json
import os
import re
import statistics
import sys

# (build, row, what the table calls it)
ROWS = [
    ("glibc", "fork", "fork+_exit+waitpid (static glibc)"),
    ("musl", "fork", "fork+_exit+waitpid (static musl)"),
    ("glibc", "vfork", "vfork+_exit+waitpid (static glibc)"),
    ("musl", "vfork", "vfork+_exit+waitpid (static musl)"),
    ("glibc", "exec", "fork+execve(nop)+waitpid"),
    ("glibc", "spawn", "posix_spawn(nop)+waitpid"),
    ("glibc", "thread", "pthread_create+pthread_join"),
    ("glibc", "getrandom4", "getrandom(2), 4 bytes"),
    ("glibc", "getrandom64", "getrandom(2), 64 bytes"),
    ("glibc", "getrandom4096", "getrandom(2), 4096 bytes"),
    ("dyn", "vgetrandom", "vDSO getrandom, 4 bytes, one call (glibc 2.41)"),
    ("dyn", "vgetrandom_amortised", "vDSO getrandom, 4 bytes, mean of 960 calls (refills in)"),
    ("glibc", "fault", "first write to an anonymous page (fault)"),
    ("glibc", "mmap", "mmap+munmap of one page"),
    ("glibc", "clock_gettime", "syscall(SYS_clock_gettime)"),
    ("glibc", "procstat", "open+read+close /proc/self/stat"),
]

LINE = re.compile(r"^cost (\S+) (?:median|mean)=([0-9.]+)")


def die(msg):
    print(f"linux_cost: {msg}", file=sys.stderr)
    sys.exit(1)


def probe_rows(path):
    """{(build, row): figure} from one boot's serial log"""
    if not os.path.isfile(path):
        die(f"{path}: no such log (scripts/linux-cost.sh makes it)")
    out, build = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip("\r\n")
            if line.startswith("== costprobe "):
                build = line.split()[2]
            m = LINE.match(line)
            if m and build:
                out[(build, m.group(1))] = float(m.group(2))
    if not out:
        die(f"{path}: no probe rows (see {path}.err)")
    return out


def fmt(v):
    return f"{v:,.1f}" if v != int(v) else f"{int(v):,}"


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stdout if len(sys.argv) == 2 else sys.stderr)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    d = sys.argv[1]
    if d.startswith("-"):
        print(f"linux_cost: unknown option {d} (--help)", file=sys.stderr)
        sys.exit(2)
    ab = probe_rows(os.path.join(d, "aslrbench.log"))
    lx_logs = sorted(glob.glob(os.path.join(d, "linux-6.12-*.log")))
    if not lx_logs:
        die(f"{d}: no linux-6.12-K.log")
    lx = [probe_rows(p) for p in lx_logs]

    print(f"Guest instructions (-icount shift=0), median per operation; Linux 6.12: the median "
          f"of {len(lx)} boots' medians, their range in brackets where they differ; "
          f"aslrbench: one boot (identical run to run).")
    print()
    print("| operation | Linux 6.12 | aslrbench | ratio |")
    print("|---|---|---|---|")
    linux_med = {}
    for build, row, name in ROWS:
        key = (build, row)
        vals = [r[key] for r in lx if key in r]
        if key not in ab or not vals:
            continue
        m = statistics.median(vals)
        linux_med[key] = m
        spread = f" ({fmt(min(vals))}–{fmt(max(vals))})" if min(vals) != max(vals) else ""
        print(f"| {name} | {fmt(m)}{spread} | {fmt(ab[key])} | {ab[key] / m:.2f} |")

    # the draws inside a fork, per variant, from the fork suite's records
    suite = os.path.join(d, "aslrbench-fork-suite.log")
    if not os.path.isfile(suite):
        die(f"{suite}: no such log")
    draws = []
    with open(suite, errors="replace") as f:
        for line in f:
            if not line.startswith("@@ "):
                continue
            try:
                rec = json.loads(line[3:])
            except ValueError:
                continue
            if rec.get("type") == "bench" and rec.get("suite") == "fork":
                draws.append((rec["rng"], rec["rng_cycles_median"], rec["median"]))
    if not draws:
        die(f"{suite}: no fork records")
    base = dict((v, r) for v, r, _ in draws).get("chacha20-batched")
    if base is None:
        die(f"{suite}: no chacha20-batched record (Linux 6.x's own draw)")
    forks = [("Linux 6.12", "glibc"), ("Linux 6.12", "musl"), ("aslrbench", "glibc"),
             ("aslrbench", "musl")]
    fv = {}
    for kernel, build in forks:
        src = linux_med if kernel == "Linux 6.12" else ab
        if ("%s" % build, "fork") in src:
            fv[(kernel, build)] = src[(build, "fork")]
    print()
    print("The canary's draw inside a fork, per variant (aslrbench's fork suite), as a share of "
          "a fork+_exit+waitpid that draws it: draw / (fork − chacha20-batched's draw + draw), "
          "the forks being the probe's above, which draw with chacha20-batched as Linux 6.x "
          "does; the last column is the fork suite's own fork (its median for that variant).")
    print()
    hdr = " | ".join(f"{k}'s fork ({b}, {fmt(v)})" for (k, b), v in fv.items())
    print(f"| variant | draw | {hdr} | fork suite |")
    print("|---|---|" + "---|" * len(fv) + "---|")
    for variant, draw, med in draws:
        cells = " | ".join(f"{100 * draw / (v - base + draw):.2f} %" for v in fv.values())
        print(f"| `{variant}` | {fmt(draw)} | {cells} | {100 * draw / med:.2f} % |")


if __name__ == "__main__":
    main()
