#!/usr/bin/env python3
"""Every repository path the docs and the code's comments name must exist.

  scripts/check-paths.py [-h] [TOP]

Reads README.md, docs/*.md and the tracked C, asm, shell, Python and make
files under TOP (default: this checkout).  A word that starts with one of
the tree's top directories (kernel/, rng/, tests/, ...) and names no file
or directory of TOP fails, one line each: "FILE:LINE: PATH".  Not checked:
  - a Linux path written as Linux's: "linux/kernel/fork.c", or right after
    "Linux's", "Linux 6.6's", "6.12's" and the like (a Linux version);
  - a prefix of tracked paths ("userland/test/t_") or a pattern with an
    upper-case word standing for a name ("tests/linux/NAME.c");
  - the paths of tests/sh/check-paths.allow, each with its reason (what a
    build or a run makes, names that only look like paths): "PATH<TAB>why"
    anywhere, "FILE:PATH<TAB>why" in FILE only.
Exit status 1 when a path is missing, 0 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys

ROOTS = "kernel|rng|tests|scripts|docs|userland|common|bench|boot|iso|paxtest|results"
PATH = re.compile(r"(?<![A-Za-z0-9_./$-])((?:" + ROOTS + r")/[A-Za-z0-9_./-]*[A-Za-z0-9_])")
LINUX = re.compile(r"(?:Linux(?: [0-9][0-9.]*)?'s |linux/|[0-9]+\.[0-9]+(?:\.[0-9]+)?'s )$")
PLACEHOLDER = re.compile(r"(?:^|[/_.-])[A-Z][A-Z0-9]+(?:[/_.-]|$)")


def tracked(top):
    out = subprocess.run(["git", "-C", top, "ls-files"], capture_output=True, text=True,
                         check=False)
    if out.returncode:
        sys.exit(f"check-paths: {top} is not a git checkout")
    return out.stdout.split()


def checked(name):
    return (name == "README.md" or (name.startswith("docs/") and name.endswith(".md"))
            or name.endswith((".c", ".h", ".asm", ".S", ".sh", ".py", ".mk", ".inc")))


def allowed(top):
    allow = set()
    path = os.path.join(top, "tests/sh/check-paths.allow")
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                allow.add(line.split("\t")[0].strip())
    return allow


def is_allowed(allow, name, path):
    return path in allow or f"{name}:{path}" in allow


def main():
    ap = argparse.ArgumentParser(
        description="Every repository path README.md, docs/ and the code's comments name "
        "must exist; one line per missing one, exit status 1.")
    ap.add_argument("top", nargs="?", default=".", help="the checkout (default: .)")
    top = ap.parse_args().top
    files = tracked(top)
    prefixes = set(files)
    for f in files:
        for i in range(1, len(f)):
            prefixes.add(f[:i])
    allow = allowed(top)
    missing = 0
    for name in files:
        if not checked(name):
            continue
        try:
            text = open(os.path.join(top, name), encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        for m in PATH.finditer(text):
            p = m.group(1).rstrip(".")
            before = text[max(0, m.start() - 24):m.start()]
            if (LINUX.search(before) or p in prefixes or is_allowed(allow, name, p)
                    or os.path.exists(os.path.join(top, p)) or PLACEHOLDER.search(p)):
                continue
            print(f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {p}")
            missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
