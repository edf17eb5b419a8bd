#!/usr/bin/env python3
"""paxtest records: the checks of make test (the table of make paxtest is
scripts/report.py paxtest).

  paxtest.py check LOG 'TEST=RESULT'...   every record of LOG has the contract's
      fields; each named TEST has a record whose result is RESULT ("28 quality
      bits (guessed)", "Killed", ...; RESULT "bits>=N" wants N or more bits).
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


def main(argv):
    if len(argv) >= 3 and argv[1] == "check":
        return check(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
