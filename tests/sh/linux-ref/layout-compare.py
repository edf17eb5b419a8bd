#!/usr/bin/env python3
"""Usage: layout-compare.py REF.log TEST.log [--ref-name NAME] [--test-name NAME]

Compares the "layout KIND key=0xVALUE ..." lines of tests/linux/lx_layoutprobe.c
in two logs (REF: Linux 6.12, TEST: aslrbench with aslr_rules=6.x), per KIND
and per field, and prints one line per comparison:

  PASS what
  FAIL what: detail
  KNOWN name: what: detail (reason)     a difference KNOWN_DIFFERENCES names
  FAIL known difference NAME no longer seen: remove it from KNOWN_DIFFERENCES

Compared for every field: present in both or in neither; its alignment (the
lowest bit any value sets); its varying bits (the lowest bit that varies,
and how many bits the span max - min takes); its number of distinct values
(equal when fixed, within 15 % of the runs otherwise); its range (a fixed
value equal; else each kernel's minimum and maximum within 15 % of the
larger span of the other's: with 100 uniform draws an end lands that far in
with a probability of 1e-7).  envc, auxc and auxt (the auxiliary vector's
types) are values; for every two address fields present in both: their
order (always below, always above, or mixed) and, when one kernel keeps
their distance constant, the same distance in the other.  Exit status: 0
when every line is PASS or KNOWN, 1 otherwise, 2 on bad input.
"""
import re
import sys

SIZES = {"vdso_size", "vvar_size"}
COUNTS = {"envc", "auxc", "auxt"}  # compared as values, not as addresses
PAGE = 4096


def vdso_pages(stats):
    """The bytes the vDSO and its data pages take, as one kernel maps them."""
    return sum(stats[f]["values"][0] for f in SIZES if f in stats)


# The differences known today, each with its reason.  An entry says which
# failing comparisons it covers (match(kind, fields, detail, ref, test) with
# the two kernels' per-field statistics); when main fixes the difference its
# entry goes, and an entry that no longer covers any failure fails itself.
KNOWN_DIFFERENCES = [
    {
        "name": "vdso32-layout",
        "reason": "an IA-32 program's vDSO keeps its one [vvar] page after the text "
                  "(docs/linux-abi.md); Linux 6.12 puts four [vvar] pages below it, "
                  "so mmap-area distances differ by exactly those pages",
        # the -m32 probe's vDSO fields, and its distances that differ by
        # exactly the difference in the pages the two kernels give it
        "match": lambda kind, fields, detail, ref, test: kind == "m32" and (
            bool(set(fields) & ({"vdso", "vvar"} | SIZES))
            or detail.get("delta_diff") == abs(vdso_pages(ref) - vdso_pages(test))),
    },
]


def parse(path):
    kinds = {}
    with open(path, errors="replace") as fh:
        for line in fh:
            line = line.replace("\r", "").strip()
            m = re.match(r"layout (\S+) (\S+=.*)$", line)
            if not m:
                continue
            rec = {}
            for kv in m.group(2).split():
                k, _, v = kv.partition("=")
                rec[k] = int(v, 16) if v.startswith("0x") else int(v)
            kinds.setdefault(m.group(1), []).append(rec)
    return kinds


def stats(recs):
    out = {}
    for f in recs[0]:
        vals = [r[f] for r in recs if f in r]
        acc_or, var = 0, 0
        for v in vals:
            acc_or |= v
            var |= v ^ vals[0]
        out[f] = {
            "values": vals, "present": any(vals), "min": min(vals), "max": max(vals),
            "align": (acc_or & -acc_or) if acc_or else 0, "varying": var,
            "distinct": len(set(vals)),
        }
    return out


def compare_kind(kind, ref, test, emit):
    n = min(len(ref[next(iter(ref))]["values"]), len(test[next(iter(test))]["values"]))
    for f in ref:
        if f not in test:
            emit(kind, [f], f"{kind} {f}: printed under both", False, "absent from the second log", {})
            continue
        a, b = ref[f], test[f]
        what = f"{kind} {f}"
        emit(kind, [f], f"{what}: present in both or in neither", a["present"] == b["present"],
             f"{a['present']} against {b['present']}", {})
        if not a["present"] and not b["present"]:
            continue
        emit(kind, [f], f"{what}: alignment", a["align"] == b["align"],
             f"{a['align']:#x} against {b['align']:#x}", {})
        # The varying bits: from the lowest one that varies to the top of the
        # span.  (Not the OR of the differences: a carry past a power of two
        # sets a higher bit in a few runs of one kernel and none of the other.)
        low = [(st["varying"] & -st["varying"]) for st in (a, b)]
        top = [(st["max"] - st["min"]).bit_length() for st in (a, b)]
        emit(kind, [f], f"{what}: varying bits", low[0] == low[1] and top[0] == top[1],
             f"lowest {low[0]:#x}, span of {top[0]} bits against lowest {low[1]:#x}, {top[1]} bits", {})
        fixed_a, fixed_b = a["distinct"] == 1, b["distinct"] == 1
        ok = (fixed_a == fixed_b) and abs(a["distinct"] - b["distinct"]) <= max(1, 0.15 * n)
        emit(kind, [f], f"{what}: distinct values", ok, f"{a['distinct']} against {b['distinct']} of {n}", {})
        if fixed_a and fixed_b:
            detail = f"{a['min']:#x} against {b['min']:#x}"
            if f == "auxt":  # name the auxiliary vector types one kernel lacks
                bits = lambda v: [t for t in range(64) if v >> t & 1]
                detail += (f" (AT_ types only in the first: {bits(a['min'] & ~b['min'])}, "
                           f"only in the second: {bits(b['min'] & ~a['min'])})")
            emit(kind, [f], f"{what}: range", a["min"] == b["min"], detail, {})
        else:
            span = max(a["max"] - a["min"], b["max"] - b["min"])
            ok = abs(a["min"] - b["min"]) <= 0.15 * span and abs(a["max"] - b["max"]) <= 0.15 * span
            emit(kind, [f], f"{what}: range", ok,
                 f"[{a['min']:#x}, {a['max']:#x}] against [{b['min']:#x}, {b['max']:#x}]", {})
    addrs = [f for f in ref if f not in SIZES | COUNTS and f in test and ref[f]["present"] and test[f]["present"]]
    for i, f in enumerate(addrs):
        for g in addrs[i + 1:]:
            rel = []
            for st in (ref, test):
                below = sum(1 for x, y in zip(st[f]["values"], st[g]["values"]) if x < y)
                cnt = len(st[f]["values"])
                rel.append("below" if below == cnt else "above" if below == 0 else "mixed")
            emit(kind, [f, g], f"{kind} {f} against {g}: order", rel[0] == rel[1],
                 f"{f} {rel[0]} {g} against {rel[1]}", {})
            deltas = []
            for st in (ref, test):
                ds = {x - y for x, y in zip(st[f]["values"], st[g]["values"])}
                deltas.append(ds.pop() if len(ds) == 1 else None)
            if deltas[0] is None and deltas[1] is None:
                continue
            ok = deltas[0] == deltas[1]
            detail = {}
            if deltas[0] is not None and deltas[1] is not None:
                detail["delta_diff"] = abs(deltas[0] - deltas[1])
            fmt = lambda d: "not constant" if d is None else f"{d:#x}"
            emit(kind, [f, g], f"{kind} {f} - {g}: a constant distance in both or neither", ok,
                 f"{fmt(deltas[0])} against {fmt(deltas[1])}", detail)


def main(argv):
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    ref_logs, test_logs = parse(argv[0]), parse(argv[1])
    bad = 0
    used = {k["name"]: 0 for k in KNOWN_DIFFERENCES}
    ref_all, test_all = {}, {}

    def emit(kind, fields, what, ok, detail, extra):
        nonlocal bad
        if ok:
            print(f"PASS {what}")
            return
        for k in KNOWN_DIFFERENCES:
            if k["match"](kind, fields, extra, ref_all[kind], test_all[kind]):
                used[k["name"]] += 1
                print(f"KNOWN {k['name']}: {what}: {detail} ({k['reason']})")
                return
        bad += 1
        print(f"FAIL {what}: {detail}")

    kinds = sorted(set(ref_logs) | set(test_logs))
    if not kinds:
        print("FAIL no layout lines in either log")
        return 2
    for kind in kinds:
        if kind not in ref_logs or kind not in test_logs:
            print(f"FAIL {kind}: layout lines in only one log")
            bad += 1
            continue
        ref_all[kind], test_all[kind] = stats(ref_logs[kind]), stats(test_logs[kind])
        emit(kind, [], f"{kind}: as many runs in both", len(ref_logs[kind]) == len(test_logs[kind]),
             f"{len(ref_logs[kind])} against {len(test_logs[kind])}", {})
        compare_kind(kind, ref_all[kind], test_all[kind], emit)
    for name, count in used.items():
        if count == 0:
            print(f"FAIL known difference {name} no longer seen: remove it from KNOWN_DIFFERENCES")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
