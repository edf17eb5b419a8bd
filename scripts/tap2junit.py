#!/usr/bin/env python3
"""Turns the TAP of scripts/test.sh (build/test.tap) into JUnit XML.

Every "ok"/"not ok" line becomes one <testcase>; "not ok" a <failure>, a
"# SKIP" directive a <skipped>.  The text before the first ": " of a
description ("kernel/cd", "qemu/bench", "test_ptrace") is the test's
classname, and one <testsuite> per classname holds its cases, in TAP order.
Exit status: 0 written; 1 the TAP has no plan or a plan that does not match
its results (the XML is still written); 2 bad arguments or unreadable input.
"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

RESULT = re.compile(r"^(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?(.*)$")
DIRECTIVE = re.compile(r"\s+#\s*(SKIP|TODO)\b\s*(.*)$", re.IGNORECASE)
PLAN = re.compile(r"^1\.\.(\d+)")


def parse(lines):
    cases, plan = [], None
    for line in lines:
        line = line.rstrip("\r\n")
        m = PLAN.match(line)
        if m:
            plan = int(m.group(1))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        ok, desc = m.group(1) == "ok", m.group(3)
        kind, reason = None, ""
        d = DIRECTIVE.search(desc)
        # A directive is a '#' the writer left unescaped ("\#" is text).
        if d and not desc[: d.start() + 1].rstrip().endswith("\\"):
            kind, reason, desc = d.group(1).upper(), d.group(2), desc[: d.start()]
        desc = desc.replace("\\#", "#").strip()
        suite, sep, name = desc.partition(": ")
        if not sep:
            suite, name = desc, desc
        cases.append({"ok": ok, "suite": suite, "name": name, "kind": kind, "reason": reason})
    return cases, plan


def build(cases):
    root = ET.Element("testsuites", name="aslrbench make test")
    suites = {}
    for c in cases:
        s = suites.get(c["suite"])
        if s is None:
            s = suites[c["suite"]] = ET.SubElement(root, "testsuite", name=c["suite"])
        tc = ET.SubElement(s, "testcase", classname=c["suite"], name=c["name"])
        if c["kind"] == "SKIP":
            ET.SubElement(tc, "skipped", message=c["reason"])
        elif not c["ok"] and c["kind"] != "TODO":
            ET.SubElement(tc, "failure", message=c["name"])
    for s in list(root) + [root]:
        tcs = s.iter("testcase")
        tcs = list(tcs)
        s.set("tests", str(len(tcs)))
        s.set("failures", str(sum(1 for t in tcs if t.find("failure") is not None)))
        s.set("skipped", str(sum(1 for t in tcs if t.find("skipped") is not None)))
        s.set("errors", "0")
    return ET.ElementTree(root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="\n".join(__doc__.splitlines()[2:]),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tap", help="the TAP file (e.g. build/test.tap)")
    ap.add_argument("xml", help="the JUnit XML to write (e.g. build/test-results.xml)")
    a = ap.parse_args()
    try:
        with open(a.tap, encoding="utf-8", errors="replace") as f:
            cases, plan = parse(f)
    except OSError as e:
        print(f"tap2junit: {e}", file=sys.stderr)
        return 2
    tree = build(cases)
    ET.indent(tree)
    tree.write(a.xml, encoding="utf-8", xml_declaration=True)
    if plan is None or plan != len(cases):
        print(f"tap2junit: {a.tap}: plan {plan}, {len(cases)} results", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
