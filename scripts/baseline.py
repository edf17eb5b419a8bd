#!/usr/bin/python3
"""Instruction-count regression check for the deterministic rng suite.

Usage: scripts/baseline.py write LOG BASELINE   record a deterministic run's figures
       scripts/baseline.py check LOG BASELINE   TAP: one line per variant and metric

Under `run-qemu.sh --deterministic` (QEMU -icount shift=0) the TSC counts guest
instructions, so a variant's median is an exact instruction count for this
compiler and these sources.  `check` fails a variant whose median grew by more
than TOLERANCE_PCT over the committed baseline; getting faster never fails (the
output says so, and `make baseline` records the new figures).

Exit status: 0 done (check: nothing regressed); 1 a regression, or no rng
records in LOG; 2 bad arguments.  -h, --help: this text on stdout, exit 0.
"""
import json
import sys

TOLERANCE_PCT = 10.0
METRICS = ("cycles_per_call", "cycles_per_call_batched", "cycles_per_byte")


def records(path):
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            i = raw.find("@@ ")
            if i < 0:
                continue
            try:
                r = json.loads(raw[i + 3:].strip())
            except ValueError:
                continue
            if r.get("type") == "bench" and r.get("suite") == "rng" and r.get("metric") in METRICS \
                    and isinstance(r.get("median"), (int, float)):
                out[(r["rng"], r["metric"])] = float(r["median"])
    return out


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 4 or argv[1] not in ("write", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    got = records(argv[2])
    if not got:
        print(f"not ok 1 - no rng bench records in {argv[2]}")
        return 1
    if argv[1] == "write":
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write("# rng variant, metric, median instructions (run-qemu.sh --deterministic,\n")
            f.write("# mode=bench suite=rng samples=200 ensembles=5); regenerate: make baseline\n")
            for (rng, metric), med in sorted(got.items()):
                f.write(f"{rng}\t{metric}\t{med:.3f}\n")
        return 0
    base = {}
    with open(argv[3], encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            rng, metric, med = line.split("\t")
            base[(rng, metric)] = float(med)
    n = failed = 0
    for key, want in sorted(base.items()):
        n += 1
        have = got.get(key)
        name = f"{key[0]} {key[1]}"
        if have is None:
            failed += 1
            print(f"not ok {n} - {name}: missing from the run")
        elif want > 0 and have > want * (1 + TOLERANCE_PCT / 100):
            failed += 1
            print(f"not ok {n} - {name}: {have:g} instructions, baseline {want:g} "
                  f"(+{(have / want - 1) * 100:.1f}% > {TOLERANCE_PCT:g}%)")
        else:
            note = f" (faster than baseline {want:g}: run make baseline)" if have < want else ""
            print(f"ok {n} - {name}: {have:g} instructions{note}")
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
