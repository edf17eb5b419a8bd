"""Parsing of aslrbench serial logs into records, and the value helpers the
report, the plots and the store share (see report.py for the CLI).

A log is any serial capture: QEMU's, or a real machine's over a USB-serial
adapter (CRLF, ANSI escapes, firmware text, line noise, a truncated tail).
Records are `@@ {json with "type"}`; everything else is console text and is
ignored.  Bad records are reported on stderr as
`report: warning: LOG:LINE: reason` and skipped.
"""

import csv
import json
import math
import os
import re
import sys

import results_store

PROG = "report"
BASELINE = "md4-2.6.30"          # the relative-cost reference variant
MAX_WARNINGS = 50                # per log; the rest are only counted

# Fields docs/design.md ("Log records") promises per record type; a record lacking
# some is kept (and warned about), tables show "–" for the gaps.
REQUIRED = {
    "boot": (),
    "test": ("name", "result"),
    "bench": ("suite", "metric", "median"),     # not median when "available": false
    "aslr": ("rng", "profile", "region", "entropy_bits"),
    "attack": ("strategy", "rng", "trials", "successes"),
    "paxtest": ("test", "bits", "rng", "profile", "aslr_rules", "randomize_va_space"),
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

    def __init__(self, path, machine=None):
        self.name = path
        self.records = []
        self.nwarn = 0
        self.machine_override = machine

    def warn(self, lineno, reason):
        self.nwarn += 1
        if self.nwarn <= MAX_WARNINGS:
            print(f"{PROG}: warning: {self.name}:{lineno}: {reason}", file=sys.stderr)

    def finish(self):
        if self.nwarn > MAX_WARNINGS:
            print(f"{PROG}: warning: {self.name}: {self.nwarn - MAX_WARNINGS} "
                  "more warnings not shown", file=sys.stderr)

    def machine(self):
        """The machine's name: given (ingest --machine), else the first boot
        record's cpu_model, else the log's file name."""
        boot = next(iter(self.boots()), None)
        return results_store.machine_label(boot, self.machine_override,
                                           os.path.basename(self.name))

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


def run_time(boot, seconds=False):
    """The boot record's `time` (ISO 8601) as "YYYY-MM-DD HH:MM", or None."""
    t = boot.get("time") if boot else None
    if not isinstance(t, str) or len(t) < 16 or t[10] != "T":
        return None
    zone = " UTC" if t.endswith("Z") else ""
    return t[:10] + " " + t[11:19 if seconds else 16] + zone


def run_labels(logs):
    """One label per log, different for every log: the machine's name; for a
    machine with more than one log, the run's time and version from its boot
    record; the time to the second, then the file name, where still equal."""
    boots = [next(iter(lg.boots()), None) or {} for lg in logs]
    labels = [lg.machine() for lg in logs]

    def widen(extra):
        old = list(labels)
        for i, lab in enumerate(old):
            parts = [p for p in extra(i) if p]
            if old.count(lab) > 1 and parts:
                labels[i] = " · ".join([lab] + parts)

    widen(lambda i: (run_time(boots[i]), boots[i].get("version")))
    old = list(labels)
    for i, lab in enumerate(old):  # the same minute: to the second
        if old.count(lab) > 1 and run_time(boots[i]):
            labels[i] = lab.replace(run_time(boots[i]), run_time(boots[i], True), 1)
    widen(lambda i: (os.path.basename(logs[i].name),))
    widen(lambda i: (f"#{i + 1}",))
    return labels


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
