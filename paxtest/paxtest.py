#!/usr/bin/env python3
"""paxtest records: checks for make test and the table of make paxtest.

  paxtest.py check LOG 'TEST=RESULT'...   every record of LOG has the contract's
      fields; each named TEST has a record whose result is RESULT ("28 quality
      bits (guessed)", "Killed", ...; RESULT "bits>=N" wants N or more bits).
  paxtest.py table [--host LOG] LOG...    a Markdown table: one row per test,
      one column per run (rng, profile, randomize_va_space, aslr_rules) of the
      kernel logs' records, and a column for a plain paxtest log of Linux.
"""
import json
import sys

FIELDS = ("test", "bits", "result", "rng", "profile", "aslr_rules", "randomize_va_space")


def records(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip("\r\n")
            if not line.startswith("@@ "):
                continue
            try:
                rec = json.loads(line[3:])
            except json.JSONDecodeError:
                continue
            if rec.get("type") == "paxtest":
                out.append(rec)
    return out


def host_results(path):
    """A log of /usr/bin/paxtest itself: NAME padded to 41 columns, ':', RESULT."""
    res, on = {}, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("Test results:"):
                on = True
                continue
            while on and len(line) > 41 and line[41] == ":":
                rest = line[43:]
                if len(rest) > 41 and rest[41] == ":":
                    res[line[:41].strip()] = ""
                    line = rest
                    continue
                res[line[:41].strip()] = rest.strip()
                break
    return res


def check(path, wants):
    recs, bad = records(path), 0
    if not recs:
        print(f"not ok - {path}: no paxtest records")
        return 1
    for rec in recs:
        missing = [k for k in FIELDS if k not in rec]
        if missing or not (rec["bits"] is None or isinstance(rec["bits"], int)):
            print(f"not ok - record of {rec.get('test')!r}: missing {missing} or bad bits")
            bad += 1
    if not bad:
        print(f"ok - {len(recs)} paxtest records, each with {', '.join(FIELDS)}")
    by = {r["test"]: r for r in recs}
    for want in wants:
        name, _, result = want.partition("=")
        rec = by.get(name)
        if rec is None:
            print(f"not ok - {name}: no record")
            bad += 1
        elif result.startswith("bits>="):
            ok = rec["bits"] is not None and rec["bits"] >= int(result[6:])
            print(f"{'ok' if ok else 'not ok'} - {name}: {rec['result']} (want {result})")
            bad += not ok
        else:
            ok = rec["result"] == result
            print(f"{'ok' if ok else 'not ok'} - {name}: {rec['result']!r} (want {result!r})")
            bad += not ok
    print(f"paxtest check: {len(recs)} records, {bad} problems")
    return 1 if bad else 0


def cell(result):
    if result.endswith("bits (guessed)"):
        return result.split()[0]
    return {"No randomization": "none", "": "(no output)"}.get(result, result)


def table(host, paths):
    cols, rows = [], {}
    for p in paths:
        for r in records(p):
            col = (r["rng"], r["profile"], r["randomize_va_space"], r["aslr_rules"])
            if col not in cols:
                cols.append(col)
            rows.setdefault(r["test"], {})[col] = (cell(r["result"]), r.get("seconds"))
    hres = host_results(host) if host else {}
    for name in hres:
        rows.setdefault(name, {})
    head = [f"{c[0]} {c[1]} rva={c[2]} {c[3]}" for c in cols]
    if host:
        head.append("Linux host")
    print("| paxtest test | " + " | ".join(head) + " |")
    print("|---" * (len(head) + 1) + "|")
    for name, by in rows.items():
        cells = [by[c][0] if c in by else "" for c in cols]
        if host:
            cells.append(cell(hres[name]) if name in hres else "")
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "check":
        return check(argv[2], argv[3:])
    if len(argv) >= 2 and argv[1] == "table":
        args, host = argv[2:], None
        if args[:1] == ["--host"] and len(args) >= 2:
            host, args = args[1], args[2:]
        return table(host, args)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
