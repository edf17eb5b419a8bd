#!/usr/bin/python3
"""Turn aslrbench serial logs into CSV, JSON, a Markdown report and PNG plots.

    report.py LOG... [--out DIR]             full report (default DIR build/report)
    report.py --compare LOG... [--out DIR]   machines side by side (compare.md)

A log is any serial capture: QEMU's, or a real machine's over a USB-serial
adapter (CRLF, ANSI escapes, firmware text, line noise, a truncated tail).
Records are `@@ {json with "type"}`; everything else is console text and is
ignored.  Bad records are reported on stderr as
`report: warning: LOG:LINE: reason` and skipped; the exit status is non-zero
only when a log cannot be read or no record at all was found.

Needs only Debian's python3 (+ python3-matplotlib for the plots; without it
the plots are skipped with a note).

Why one file over 500 lines: it is meant to be copied next to a log captured
on any machine and run there alone; the parser, the tables and the plots
share one record model, and a module split would make the copy a package.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

PROG = "report"
BASELINE = "md4-2.6.30"          # the relative-cost reference variant
MAX_WARNINGS = 50                # per log; the rest are only counted

# Fields ../shared/DESIGN.md ("Contracts") promises per record type; a record lacking
# some is kept (and warned about), tables show "–" for the gaps.
REQUIRED = {
    "boot": (),
    "test": ("name", "result"),
    "bench": ("suite", "metric", "median"),     # not median when "available": false
    "aslr": ("rng", "profile", "region", "entropy_bits"),
    "attack": ("strategy", "rng", "trials", "successes"),
    "summary": (),
}
# Fields used as table/plot keys: must be scalars (hashable).
KEY_FIELDS = ("suite", "rng", "metric", "profile", "region", "strategy",
              "proc_leak_fix", "name", "result", "cpu_model")
SUITE_ORDER = ("rng", "fork", "spawn", "timer")
REGION_ORDER = ("stack", "stack_offset", "mmap", "brk", "exe")

# CSI / OSC / two-byte escapes, then C0 controls other than tab.
ANSI_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
CTRL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# The marker, tolerant of a missing space; garbage may precede it.
MARK_RE = re.compile(r"@@ ?(?=\{)")
LINE_RE = re.compile(r"\r\n|\r|\n")
# printf("%f") of a NaN/Inf is not JSON; repaired to null with a warning.
NONFINITE_RE = re.compile(r"(?<=[:\[,])(\s*)[-+]?(?:nan|inf(?:inity)?)\b", re.I)


# ---------------------------------------------------------------- parsing --

class Log:
    """One input log: its name, the records found, and the warnings raised."""

    def __init__(self, path):
        self.name = path
        self.records = []
        self.nwarn = 0

    def warn(self, lineno, reason):
        self.nwarn += 1
        if self.nwarn <= MAX_WARNINGS:
            print(f"{PROG}: warning: {self.name}:{lineno}: {reason}", file=sys.stderr)

    def finish(self):
        if self.nwarn > MAX_WARNINGS:
            print(f"{PROG}: warning: {self.name}: {self.nwarn - MAX_WARNINGS} "
                  "more warnings not shown", file=sys.stderr)

    def boots(self):
        return [r for r in self.records if r["type"] == "boot"]

    def emulated(self):
        return any(is_emulated(b) for b in self.boots())

    def deterministic(self):
        return any(flag(b.get("deterministic")) for b in self.boots())


def clean_line(raw):
    """Console line → plain text: no CR, no ANSI escapes, no control bytes."""
    return CTRL_RE.sub("", ANSI_RE.sub("", raw))


def decode_object(text):
    """Parse the JSON object at the start of text.  Returns (obj, repaired,
    rest of the text) or raises ValueError with a short reason."""
    dec = json.JSONDecoder()
    try:
        obj, end = dec.raw_decode(text)
        repaired = False
    except json.JSONDecodeError as err:
        fixed = NONFINITE_RE.sub(r"\1null", text)
        if fixed == text:
            raise ValueError(f"invalid JSON ({err.msg} at column {err.colno})") from None
        try:
            obj, end = dec.raw_decode(fixed)
        except json.JSONDecodeError as err2:
            raise ValueError(f"invalid JSON ({err2.msg} at column {err2.colno})") from None
        text, repaired = fixed, True
    return obj, repaired, text[end:]


def parse_records(log, text):
    """Scan every line of a log for `@@ {...}` records (several per line if
    the newline between them was lost).  CR, LF and CRLF all end a line."""
    lines = LINE_RE.split(text)
    for lineno, raw in enumerate(lines, 1):
        line = clean_line(raw)
        starts = [m.end() for m in MARK_RE.finditer(line)]
        if not starts:
            if "@@" in line:
                log.warn(lineno, "record marker without a JSON object")
            continue
        first = MARK_RE.search(line).start()
        if line[:first].strip():
            log.warn(lineno, "garbage before record marker (ignored)")
        consumed = 0
        for pos in starts:
            if pos < consumed:      # a "@@ {" inside the previous record's strings
                continue
            try:
                obj, repaired, rest = decode_object(line[pos:])
            except ValueError as err:
                last = lineno == len(lines) or (lineno == len(lines) - 1 and not lines[-1])
                log.warn(lineno, ("truncated record: " if last else "") + str(err))
                continue
            if repaired:
                log.warn(lineno, "non-finite number(s) replaced by null")
            consumed = len(line) - len(rest)
            if rest.strip() and not MARK_RE.match(rest.strip()):
                log.warn(lineno, "garbage after record (ignored)")
            add_record(log, lineno, obj)


def add_record(log, lineno, obj):
    """Validate one decoded object and store it with its origin."""
    if not isinstance(obj, dict):
        log.warn(lineno, "record is not a JSON object")
        return
    rtype = obj.get("type")
    if not isinstance(rtype, str) or not rtype:
        log.warn(lineno, "record without a string 'type' field")
        return
    if rtype not in REQUIRED:
        log.warn(lineno, f"unknown record type '{rtype}' (kept in CSV/JSON only)")
    else:
        missing = [f for f in REQUIRED[rtype] if f not in obj
                   and not (f == "median" and flag(obj.get("available")) is False)]
        if missing:
            log.warn(lineno, f"{rtype} record lacks field(s): {', '.join(missing)}")
    obj, bad = finite(obj)
    if bad:
        log.warn(lineno, "NaN/Infinity replaced by null")
    for key in KEY_FIELDS:
        if isinstance(obj.get(key), (dict, list)):
            log.warn(lineno, f"field '{key}' is not a scalar (kept as JSON text)")
            obj[key] = json.dumps(obj[key], separators=(",", ":"))
    # `source` names the log; a record's own `source` field is kept aside.
    row = {"source": log.name, "source_line": lineno}
    for key, val in obj.items():
        row["record_source" if key in ("source", "source_line") else key] = val
    log.records.append(row)


def finite(val):
    """Replace NaN/Infinity (which Python's json accepts) by None, so that the
    JSON written back is strict.  Returns (value, whether anything changed)."""
    if isinstance(val, float) and not math.isfinite(val):
        return None, True
    if isinstance(val, dict):
        pairs = [(k, finite(v)) for k, v in val.items()]
        return {k: v for k, (v, _) in pairs}, any(b for _, (_, b) in pairs)
    if isinstance(val, list):
        pairs = [finite(v) for v in val]
        return [v for v, _ in pairs], any(b for _, b in pairs)
    return val, False


def read_log(path):
    """Read and parse one log; OSError propagates to the caller."""
    log = Log(path)
    with open(path, "rb") as fh:
        data = fh.read()
    parse_records(log, data.decode("utf-8", errors="replace"))
    log.finish()
    return log


# ----------------------------------------------------------- value helpers --

def num(val):
    """A JSON value as a finite float, or None."""
    if isinstance(val, bool) or val is None:
        return None
    try:
        f = float(val)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def num_or(val, default):
    n = num(val)
    return default if n is None else n


def flag(val):
    """A JSON value as a boolean (true/1/"yes"...); None when absent."""
    if val is None:
        return None
    if isinstance(val, str):
        return val.strip().lower() in ("1", "true", "yes", "on", "y")
    return bool(val)


def is_emulated(boot):
    """Cycle counts measure the emulator: an explicit `emulated`, or a
    hypervisor without deterministic (instruction-counting) mode.  A Linux
    host run inside a VM (platform linux, no deterministic field) runs on real
    cores with hardware virtualisation: only noted, see vm_note()."""
    if flag(boot.get("emulated")):
        return True
    if not flag(boot.get("hypervisor")) or flag(boot.get("deterministic")):
        return False
    return "deterministic" in boot or boot.get("platform") != "linux"


def vm_note(boot):
    return (boot.get("platform") == "linux" and bool(flag(boot.get("hypervisor")))
            and not is_emulated(boot))


def fmt(val):
    """Compact human formatting for table cells."""
    if val is None or val == "":
        return "–"
    if isinstance(val, bool):
        return "yes" if val else "no"
    if isinstance(val, (int, float)):
        f = float(val)
        if not math.isfinite(f):
            return "–"
        if f == int(f) and abs(f) < 1e12:
            return str(int(f))
        if abs(f) >= 1e7 or abs(f) < 1e-3:
            return f"{f:.4g}"
        return f"{f:.1f}" if abs(f) >= 100 else f"{f:.4g}"
    if isinstance(val, (dict, list)):
        val = json.dumps(val, separators=(",", ":"))
    return str(val).replace("|", "\\|").replace("\n", " ") or "–"


def md_table(headers, rows):
    out = ["| " + " | ".join(str(h).replace("|", "\\|") for h in headers) + " |",
           "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(fmt(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def of_type(records, rtype):
    return [r for r in records if r["type"] == rtype]


def multi_source(records):
    return len({r["source"] for r in records}) > 1


def ordered(order):
    """Sort key: known names in contract order, then the rest alphabetically."""
    return lambda v: (order.index(v) if v in order else len(order), str(v))


# ----------------------------------------------------------------- output --

def write_csv(records, path):
    fields = []
    for rec in records:
        fields += [k for k in rec if k not in fields]
    front = ["source", "source_line", "type"]
    fields = front + [f for f in fields if f not in front]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, restval="", lineterminator="\n")
        w.writeheader()
        for rec in records:
            w.writerow({k: (json.dumps(v) if isinstance(v, (dict, list)) else
                            "" if v is None else v) for k, v in rec.items()})


def write_json(records, path):
    grouped = {}
    for rec in records:
        grouped.setdefault(rec["type"], []).append(rec)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(grouped, fh, indent=1, allow_nan=False, default=str)
        fh.write("\n")


# ---------------------------------------------------------- report sections --

BOOT_KEYS = ("platform", "cpu_vendor", "cpu_model", "tsc_hz", "invariant_tsc",
             "hz", "rng", "mode", "deterministic", "hypervisor", "emulated")


def section_warning(logs):
    emu = [lg.name for lg in logs if lg.emulated()]
    if not emu:
        return []
    return ["> **⚠ WARNING: emulated run.** " + ", ".join(f"`{n}`" for n in emu) +
            (" was" if len(emu) == 1 else " were") +
            " produced under a hypervisor/emulator without deterministic mode: "
            "**cycle figures measure the emulator, not the guest.** Use them for "
            "nothing but smoke testing; real costs come from real hardware, the "
            "host build (`make bench-host`) or `--deterministic` runs.", ""]


def section_boot(logs):
    out = ["## Machine", ""]
    for lg in logs:
        boots = lg.boots()
        if not boots:
            out += [f"_{lg.name}: no boot record._", ""]
        for i, b in enumerate(boots):
            title = f"`{lg.name}`" + (f" (boot {i + 1})" if len(boots) > 1 else "")
            keys = [k for k in BOOT_KEYS if k in b]
            keys += [k for k in b if k not in keys and k not in ("type", "source", "source_line")]
            rows = [(k, b[k]) for k in keys]
            tsc = num(b.get("tsc_hz"))
            if tsc:
                rows.insert(keys.index("tsc_hz") + 1, ("tsc_ghz", round(tsc / 1e9, 3)))
            if vm_note(b):
                rows.append(("note", "host run inside a virtual machine: cycle counts "
                             "include virtualisation effects"))
            if flag(b.get("deterministic")):
                rows.append(("note", "deterministic: one cycle = one guest instruction; "
                             "figures are for regression comparison"))
            out += [f"### {title}", "", md_table(["field", "value"], rows), ""]
    return out


def ens_samples(r):
    if r.get("ensembles") is None and r.get("samples") is None:
        return None
    return f"{fmt(r.get('ensembles'))}×{fmt(r.get('samples'))}"


def suite_caveat(rows, logs):
    """Heading suffix saying what the cycle figures of these rows mean."""
    srcs = {r["source"] for r in rows}
    if any(lg.name in srcs and lg.emulated() for lg in logs):
        return " (⚠ emulated)"
    if any(lg.name in srcs and lg.deterministic() for lg in logs):
        return " (deterministic: 1 cycle = 1 instruction)"
    return ""


# Optional bench columns, shown only when some record of the suite has them.
BENCH_EXTRA = ("unit", "secure", "rng_share_pct")


def bench_row(r, extra, base):
    """One bench table row (without the log column)."""
    variant = r.get("rng")
    if flag(r.get("available")) is False:
        variant = f"{fmt(variant)} (unavailable)"
    row = [variant, r.get("metric"), r.get("min"), r.get("median"), r.get("mean"),
           r.get("p99"), r.get("max"), r.get("var"), ens_samples(r)]
    row += [r.get(k) for k in extra]
    if base:
        b, m = base.get((r["source"], r.get("metric"))), num(r.get("median"))
        row.append(f"{m / b:.2f}×" if b and m is not None else None)
    return row


def section_bench(records, logs):
    bench = of_type(records, "bench")
    out = ["## Benchmarks", ""]
    if not bench:
        return out + ["_No bench records._", ""]
    multi = multi_source(records)
    emu = {lg.name for lg in logs if lg.emulated()}
    suites = sorted({str(r.get("suite", "?")) for r in bench}, key=ordered(SUITE_ORDER))
    for suite in suites:
        rows = [r for r in bench if str(r.get("suite", "?")) == suite]
        metrics = list(dict.fromkeys(str(r.get("metric")) for r in rows))
        rows.sort(key=lambda r: metrics.index(str(r.get("metric"))))  # stable: log order
        base = {(r["source"], r.get("metric")): num(r.get("median")) for r in rows
                if r.get("rng") == BASELINE and num(r.get("median"))}
        extra = [k for k in BENCH_EXTRA if any(k in r for r in rows)]
        head = (["log"] if multi else []) + ["variant", "metric", "min", "median", "mean",
                                             "p99", "max", "var", "ensembles×samples"]
        head += extra + ([f"vs {BASELINE}"] if base else [])
        body = [([r["source"] + (" ⚠" if r["source"] in emu else "")] if multi else [])
                + bench_row(r, extra, base) for r in rows]
        out += [f"### Suite `{suite}`{suite_caveat(rows, logs)}", "", md_table(head, body), ""]
    return out


def section_aslr(records):
    aslr = of_type(records, "aslr")
    out = ["## ASLR entropy", ""]
    if not aslr:
        return out + ["_No aslr records._", ""]
    multi = multi_source(records)
    first = {}
    for r in aslr:
        first.setdefault((r["source"], r.get("rng"), r.get("profile")), len(first))
    aslr = sorted(aslr, key=lambda r: (first[(r["source"], r.get("rng"), r.get("profile"))],
                                       ordered(REGION_ORDER)(r.get("region"))))
    head = (["log"] if multi else []) + ["variant", "profile", "region", "samples", "distinct",
                                         "bits_changed", "entropy_bits", "expected_bits",
                                         "chi2_p"]
    body = [([r["source"]] if multi else []) +
            [r.get(k) for k in ("rng", "profile", "region", "samples", "distinct",
                                "bits_changed", "entropy_bits", "expected_bits", "chi2_p")]
            for r in aslr]
    return out + [md_table(head, body), ""]


def success_pct(r):
    t, s = num(r.get("trials")), num(r.get("successes"))
    return 100.0 * s / t if t and s is not None else None


def section_attack(records):
    att = of_type(records, "attack")
    out = ["## Attack lab", ""]
    if not att:
        return out + ["_No attack records._", ""]
    multi = multi_source(records)
    regions = any("region" in r for r in att)  # the kernel reports each region apart
    head = (["log"] if multi else []) + ["strategy", "variant", "proc_leak_fix", "profile"] + \
        (["region"] if regions else []) + ["trials", "successes", "success %", "mean_guesses"]
    body = []
    for r in att:
        pct = success_pct(r)
        body.append(([r["source"]] if multi else []) +
                    [r.get("strategy"), r.get("rng"), r.get("proc_leak_fix"), r.get("profile")] +
                    ([r.get("region")] if regions else []) +
                    [r.get("trials"), r.get("successes"),
                     None if pct is None else f"{pct:.1f}", r.get("mean_guesses")])
    return out + [md_table(head, body), ""]


def section_tests(records):
    tests, sums = of_type(records, "test"), of_type(records, "summary")
    out = ["## Tests", ""]
    if not tests and not sums:
        return out + ["_No test records._", ""]
    count = {k: sum(1 for t in tests if str(t.get("result")).lower() == k)
             for k in ("pass", "fail", "skip")}
    other = len(tests) - sum(count.values())
    rows = [("test records", len(tests)), ("pass", count["pass"]), ("fail", count["fail"]),
            ("skip", count["skip"])] + ([("unknown result", other)] if other else [])
    out += [md_table(["", "count"], rows), ""]
    for s in sums:
        out.append(f"Summary record (`{s['source']}`): passed {fmt(s.get('passed'))}, "
                   f"failed {fmt(s.get('failed'))}, skipped {fmt(s.get('skipped'))}, "
                   f"status {fmt(s.get('status'))}.")
        if tests and num(s.get("failed")) is not None and num(s.get("failed")) != count["fail"]:
            out.append(f"_Note: the summary's failed count differs from the "
                       f"{count['fail']} failing test records seen._")
    if sums:
        out.append("")
    fails = [t for t in tests if str(t.get("result")).lower() == "fail"]
    if fails:
        multi = multi_source(records)
        out += ["### Failures", "",
                md_table((["log"] if multi else []) + ["test", "detail"],
                         [([t["source"]] if multi else []) + [t.get("name"), t.get("detail")]
                          for t in fails]), ""]
    elif tests:
        out += ["No test failed.", ""]
    return out


# ------------------------------------------------------------------ plots --

def label(r, multi, *keys):
    parts = [str(r.get(k, "?")) for k in keys]
    return (f"{os.path.basename(r['source'])}:" if multi else "") + " ".join(parts)


def source_colours(rows):
    """One colour per log, so multi-log plots stay readable."""
    srcs = list(dict.fromkeys(r["source"] for r in rows))
    return [f"C{srcs.index(r['source']) % 10}" for r in rows]


def plot_rng_cycles(plt, records, path, emu):
    """Median cycles per call per variant, whisker min..p99."""
    rows = [r for r in of_type(records, "bench")
            if r.get("suite") == "rng" and num(r.get("median")) is not None]
    metrics = [r.get("metric") for r in rows]
    if not rows:
        return "no `bench` records with suite `rng`"
    metric = "cycles_per_call" if "cycles_per_call" in metrics else metrics[0]
    rows = sorted((r for r in rows if r.get("metric") == metric), key=lambda r: num(r["median"]))
    multi = multi_source(records)
    med = [num(r["median"]) for r in rows]
    low = [num_or(r.get("min"), m) for m, r in zip(med, rows)]    # whisker ends
    high = [num_or(r.get("p99"), m) for m, r in zip(med, rows)]
    fig, ax = plt.subplots(figsize=(8, max(2.5, 1.5 + 0.45 * len(rows))))
    ax.barh([label(r, multi, "rng") for r in rows], med,
            xerr=[[max(0, m - lo) for m, lo in zip(med, low)],
                  [max(0, hi - m) for m, hi in zip(med, high)]],
            color=source_colours(rows), ecolor="black", capsize=3)
    positive = [v for v in low + med if v > 0]
    if positive and max(high + med) / min(positive) > 30:   # wide spread
        ax.set_xscale("log")
    ax.set_xlabel(f"{metric} (median, whisker min..p99)")
    ax.set_title("RNG cost per call" + (" — EMULATED run(s): not guest cycles" if emu else ""))
    save(plt, fig, path)


def plot_fork_share(plt, records, path, emu):
    rows = [r for r in of_type(records, "bench")
            if r.get("suite") == "fork" and num(r.get("rng_share_pct")) is not None]
    if not rows:
        return "no `bench` fork records with `rng_share_pct`"
    multi = multi_source(records)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 1.5 + 0.45 * len(rows))))
    ax.barh([label(r, multi, "rng") for r in rows], [num(r["rng_share_pct"]) for r in rows],
            color=source_colours(rows))
    ax.invert_yaxis()
    ax.set_xlabel("RNG share of fork cost (%)")
    ax.set_title("RNG share of fork" + (" — EMULATED" if emu else ""))
    save(plt, fig, path)


def plot_aslr_entropy(plt, records, path, _emu):
    """One panel per profile: entropy bars per region and variant, expected
    bits as a black tick per region."""
    rows = [r for r in of_type(records, "aslr") if num(r.get("entropy_bits")) is not None]
    if not rows:
        return "no `aslr` records with `entropy_bits`"
    multi = multi_source(records)
    profiles = sorted({str(r.get("profile")) for r in rows})
    fig, axes = plt.subplots(len(profiles), 1, figsize=(10, 3.8 * len(profiles)), squeeze=False)
    for ax, prof in zip(axes[:, 0], profiles):
        sub = [r for r in rows if str(r.get("profile")) == prof]
        regions = sorted({str(r.get("region")) for r in sub}, key=ordered(REGION_ORDER))
        variants = list(dict.fromkeys(label(r, multi, "rng") for r in sub))
        width = 0.8 / max(1, len(variants))
        for vi, var in enumerate(variants):
            vals = {str(r.get("region")): num(r["entropy_bits"]) for r in sub
                    if label(r, multi, "rng") == var}
            xs = [i - 0.4 + width * (vi + 0.5) for i, reg in enumerate(regions) if reg in vals]
            ax.bar(xs, [vals[reg] for reg in regions if reg in vals], width, label=var)
        for i, reg in enumerate(regions):
            exp = [num(r.get("expected_bits")) for r in sub if str(r.get("region")) == reg]
            exp = [e for e in exp if e is not None]
            if exp:
                ax.hlines(max(exp), i - 0.45, i + 0.45, colors="black", linewidth=2,
                          label="expected" if i == 0 else None)
        # The Shannon estimate cannot exceed log2(samples): show that ceiling.
        samples = [num(r.get("samples")) for r in sub if num(r.get("samples"))]
        if samples:
            ax.axhline(math.log2(max(samples)), color="grey", linestyle=":",
                       label="log2(samples) ceiling")
        ax.set_xticks(range(len(regions)), regions)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.3)  # headroom for the legend
        ax.set_ylabel("entropy (bits)")
        ax.set_title(f"ASLR entropy, profile {prof}")
        ax.legend(fontsize="small", ncol=3, loc="upper left")
    save(plt, fig, path)


def merge_attack_cells(rows):
    """One bar per (log, strategy, variant, fix, profile): regions pooled, so a
    full matrix (hundreds of records) stays a readable plot."""
    cells = {}
    for r in rows:
        key = (r.get("source"), r.get("strategy"), r.get("rng"), r.get("proc_leak_fix"),
               r.get("profile"))
        c = cells.setdefault(key, dict(r, trials=0, successes=0))
        c["trials"] += num(r.get("trials")) or 0
        c["successes"] += num(r.get("successes")) or 0
    return list(cells.values())


def plot_attack(plt, records, path, _emu):
    rows = [r for r in of_type(records, "attack") if success_pct(r) is not None]
    if not rows:
        return "no `attack` records with `trials` and `successes`"
    if any("region" in r for r in rows):
        rows = merge_attack_cells(rows)
    multi = multi_source(records)
    profiles = len({r.get("profile") for r in rows}) > 1
    labels = [label(r, multi, "strategy", "rng").replace(" ", " / ") +
              f" / fix={r.get('proc_leak_fix', '?')}" +
              (f" / {r.get('profile')}" if profiles else "") for r in rows]
    pcts = [success_pct(r) for r in rows]
    fig, ax = plt.subplots(figsize=(9, max(2.5, 1.5 + 0.4 * len(rows))))
    ax.barh(labels, pcts, color=["tab:red" if p > 0 else "tab:green" for p in pcts])
    for y, pct in enumerate(pcts):  # 0 % bars are invisible: print the value
        ax.text(min(pct, 88) + 1, y, f"{pct:.0f}%", va="center", fontsize="small")
    ax.invert_yaxis()               # log order, top to bottom
    ax.set_xlim(0, 100)
    ax.set_xlabel("attack success rate (%)")
    ax.set_title("Attack lab (fix = proc_leak_fix; regions pooled)")
    save(plt, fig, path)


def save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


PLOTS = (("rng_cycles.png", plot_rng_cycles), ("fork_share.png", plot_fork_share),
         ("aslr_entropy.png", plot_aslr_entropy), ("attack.png", plot_attack))


def make_plots(records, out_dir, emu):
    """Draw every plot; returns Markdown lines (images or skip notes)."""
    lines = ["## Plots", ""]
    notes = []
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        return lines + [f"_Plots skipped: matplotlib unavailable ({err}); "
                        "run with /usr/bin/python3 and python3-matplotlib._", ""]
    for name, fn in PLOTS:
        path = os.path.join(out_dir, name)
        try:
            skipped = fn(plt, records, path, emu)
        except Exception as err:  # a plot must never sink the report
            plt.close("all")
            skipped = f"plotting failed ({type(err).__name__}: {err})"
            print(f"{PROG}: warning: {name}: {skipped}", file=sys.stderr)
        if skipped:
            if os.path.exists(path):
                os.remove(path)  # no stale plot from an earlier run
            notes.append(f"- `{name}` skipped: {skipped}.")
        else:
            lines += [f"![{name}]({name})", ""]
    return lines + notes + ([""] if notes else [])


def write_report(logs, records, out_dir, path):
    emu_sources = {lg.name for lg in logs if lg.emulated()}
    counts = {}
    for r in records:
        counts[r["type"]] = counts.get(r["type"], 0) + 1
    lines = ["# aslrbench report", ""]
    lines += section_warning(logs)
    lines += [f"Logs: {', '.join(f'`{lg.name}`' for lg in logs)}. Records: "
              + ", ".join(f"{t} {n}" for t, n in counts.items())
              + f". Warnings: {sum(lg.nwarn for lg in logs)}.", ""]
    lines += section_boot(logs)
    lines += section_bench(records, logs)
    lines += section_aslr(records)
    lines += section_attack(records)
    lines += section_tests(records)
    lines += make_plots(records, out_dir, bool(emu_sources))
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines).rstrip() + "\n")


# ---------------------------------------------------------------- compare --

def column_labels(logs):
    """cpu_model from the first boot record, else the file name; made unique."""
    labels, seen = [], set()
    for lg in logs:
        model = next((b.get("cpu_model") for b in lg.boots() if b.get("cpu_model")), None)
        lab = str(model) if model else os.path.basename(lg.name)
        if lab in seen:
            lab = f"{lab} ({lg.name})"
        seen.add(lab)
        labels.append(lab + (" ⚠" if lg.emulated() else ""))
    return labels


def compare_markdown(logs):
    keys, cells = [], []
    for lg in logs:
        col = {}
        for r in of_type(lg.records, "bench"):
            key = (r.get("suite"), r.get("rng"), r.get("metric"))
            if key not in keys:
                keys.append(key)
            col[key] = r.get("median")  # a repeated key: the last run wins
        cells.append(col)
    keys = [k for k in keys if any(num(c.get(k)) is not None for c in cells)]
    labels = column_labels(logs)
    rows = [list(k) + [c.get(k) for c in cells] for k in keys]
    lines = ["# aslrbench: machines compared (median)", ""]
    lines += [md_table(["log", "label", "tsc_hz", "emulated"],
                       [(lg.name, lab, next((b.get("tsc_hz") for b in lg.boots()), None),
                         lg.emulated()) for lg, lab in zip(logs, labels)]), ""]
    if any(lg.emulated() for lg in logs):
        lines += ["> **⚠ Columns marked ⚠ come from emulated runs: their cycle figures "
                  "measure the emulator, not the guest.**", ""]
    lines += [md_table(["suite", "rng", "metric"] + labels, rows) if rows
              else "_No bench records in any log._", ""]
    return "\n".join(lines)


# ------------------------------------------------------------------- main --

def load(paths):
    """Read every log; returns (logs, ok) where ok is False if one failed."""
    logs, ok = [], True
    for path in paths:
        try:
            logs.append(read_log(path))
        except OSError as err:
            print(f"{PROG}: error: {path}: cannot read: {err.strerror or err}", file=sys.stderr)
            ok = False
    return logs, ok


def main(argv=None):
    ap = argparse.ArgumentParser(prog="report.py", description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+", metavar="LOG", help="serial log file(s)")
    ap.add_argument("--out", default="build/report", metavar="DIR",
                    help="output directory (default build/report)")
    ap.add_argument("--compare", action="store_true",
                    help="write compare.md: one column per log, median per (suite, rng, metric)")
    args = ap.parse_args(argv)

    logs, ok = load(args.logs)
    records = [r for lg in logs for r in lg.records]
    if not records and not ok:
        return 2                  # the read error has been reported
    if not records:
        print(f"{PROG}: error: no `@@ ` record found in "
              f"{', '.join(args.logs)}", file=sys.stderr)
        return 1
    for lg in logs:
        if not lg.records:
            print(f"{PROG}: warning: {lg.name}: no record found", file=sys.stderr)
    try:
        os.makedirs(args.out, exist_ok=True)
        if args.compare:
            text = compare_markdown(logs)
            with open(os.path.join(args.out, "compare.md"), "w", encoding="utf-8") as fh:
                fh.write(text)
            sys.stdout.write(text)
        else:
            write_csv(records, os.path.join(args.out, "results.csv"))
            write_json(records, os.path.join(args.out, "results.json"))
            write_report(logs, records, args.out, os.path.join(args.out, "report.md"))
            print(f"{PROG}: {len(records)} records from {len(logs)} log(s) → {args.out}/",
                  file=sys.stderr)
    except OSError as err:
        print(f"{PROG}: error: cannot write to {args.out}: {err}", file=sys.stderr)
        return 2
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
