"""The paxtest table of report.py: Debian's paxtest run in the
kernel, one `@@ {"type":"paxtest",...}` record per test and grid point.

A grid point is (rng, profile, randomize_va_space, aslr_rules); the table has
one row per paxtest test, in the order paxtest prints them, and one column per
grid point, in the order the logs give them, plus optionally a column for a
plain paxtest log of Linux (no records: paxtest's own "Test results:" lines).
A cell is the quality bits, "none" for "No randomization", or paxtest's words
(Killed, Vulnerable, ...); "(no output)" when the test printed nothing.  Two
different results for one test at one grid point (two boots) are both shown,
"28 / 27", never one silently kept.
"""

import sys

from report_logs import md_table

# Fields docs/design.md ("Log records") promises for a paxtest record.
FIELDS = ("test", "bits", "rng", "profile", "aslr_rules", "randomize_va_space")
# paxtest pads a test's name to this many columns, then ": RESULT".
NAME_COLS = 41


def point(rec):
    return (rec.get("rng"), rec.get("profile"), rec.get("randomize_va_space"),
            rec.get("aslr_rules"))


def point_label(p):
    rng, profile, rva, rules = ("?" if v is None else v for v in p)
    return f"{rng} {profile} rva={rva} {rules}"


def bad_record(rec):
    """Why a paxtest record cannot go into the table, or None."""
    missing = [k for k in FIELDS if k not in rec]
    if missing:
        return f"lacks {', '.join(missing)}"
    if not isinstance(rec["test"], str) or not rec["test"]:
        return "test is not a name"
    bits = rec["bits"]
    if bits is not None and (isinstance(bits, bool) or not isinstance(bits, int) or bits < 0):
        return f"bits is {bits!r}, not a whole number or null"
    if rec["randomize_va_space"] not in (0, 1, 2):
        return f"randomize_va_space is {rec['randomize_va_space']!r}"
    return None


def cell(rec):
    """A record's cell: bits win over the result text (the record's contract)."""
    if rec["bits"] is not None:
        return str(rec["bits"])
    return result_cell(rec.get("result"))


def result_cell(result):
    """paxtest's words for a test without bits."""
    if result is None:
        return "none"     # the contract's null bits without a result: no randomization
    result = str(result).strip()
    if result.endswith("bits (guessed)") and result.split()[0].isdigit():
        return result.split()[0]
    return {"No randomization": "none", "": "(no output)"}.get(result, result)


def host_results(path):
    """A log of /usr/bin/paxtest itself: NAME padded to 41 columns, ':',
    RESULT; a test that dies silently leaves no newline, so one line may hold
    two tests.  Returns {name: result}; OSError propagates."""
    res, on = {}, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("Test results:"):
                on = True
                continue
            while on and len(line) > NAME_COLS and line[NAME_COLS] == ":":
                rest = line[NAME_COLS + 2:]
                if len(rest) > NAME_COLS and rest[NAME_COLS] == ":":
                    res[line[:NAME_COLS].strip()] = ""
                    line = rest
                    continue
                res[line[:NAME_COLS].strip()] = rest.strip()
                break
    return res


def table(records, host=None, host_label="Linux host", warn=None):
    """Markdown lines of the paxtest table of these records (other types are
    ignored); host: {name: result} of a plain paxtest log.  A record that
    breaks the contract is left out and passed to warn(rec, reason)."""
    cols, rows = [], {}
    for rec in records:
        if rec.get("type") != "paxtest":
            continue
        why = bad_record(rec)
        if why:
            if warn:
                warn(rec, why)
            continue
        p = point(rec)
        if p not in cols:
            cols.append(p)
        cells = rows.setdefault(rec["test"], {}).setdefault(p, [])
        c = cell(rec)
        if c not in cells:
            cells.append(c)
    for name in host or {}:
        rows.setdefault(name, {})
    if not cols and not host:
        return []
    head = ["paxtest test"] + [point_label(p) for p in cols] + ([host_label] if host else [])
    body = []
    for name, by in rows.items():
        row = [name] + [" / ".join(by.get(p, [])) for p in cols]
        if host is not None:
            row.append(result_cell(host[name]) if name in host else "")
        body.append(row)
    return md_table(head, body).split("\n")


def warn_stderr(prog):
    """A warn() for table(): `PROG: warning: LOG:LINE: ...` on stderr."""
    def warn(rec, why):
        print(f"{prog}: warning: {rec.get('source')}:{rec.get('source_line')}: paxtest record "
              f"left out of the table: {why}", file=sys.stderr)
    return warn


def section(records, prog="report"):
    """report.md's paxtest section; nothing when the logs have no paxtest record."""
    if not any(r.get("type") == "paxtest" for r in records):
        return []
    lines = table(records, warn=warn_stderr(prog))
    return ["## paxtest", "",
            "Debian's paxtest in the kernel: quality bits per test and grid point "
            "(rng, profile, randomize_va_space, aslr_rules); \"none\" is \"No randomization\".",
            ""] + lines + [""]
