#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks that the kernel's #include lines only point down the layers.

    scripts/check-layers.py [--root DIR] [--verbose]

Reads every kernel/**/*.c and *.h under DIR (default: the repository), and
the ring-3 programs' userland/**/*.c and *.h, turns
each `#include "..."` into an edge between two directories (the first level
under kernel/: kernel/fs/proc counts as kernel/fs), and fails (exit 1) when

  - a file includes a directory of a higher layer (an upward include),
  - the directory graph has a cycle, even inside one layer,
  - a kernel directory is in no layer (a new one must be placed here),
  - an include names a file that does not exist,
  - rng/, common/ or bench/ (freestanding, host-buildable) include the
    kernel, or common/ includes bench/.

The layers are docs/design.md's ("Layers"), lowest first; its layout
table says what each directory holds.  A lower layer that must call up
does it through a hook it owns (a function pointer the upper layer sets),
never by an include.
"""
import argparse
import os
import re
import sys

LAYERS = [
    # lib: printk/panic, strings, formatting, errno; the boot parameters
    # parser (params, below lib: printk declares parameters too); the
    # user/kernel ABI (uapi).
    ("lib", ["kernel/params", "kernel/lib", "kernel/uapi"]),
    ("arch", ["kernel/arch"]),
    # char (random.c: get_random_int) sits below mm, whose layout code draws
    # from it; the ASLR rule sets (aslr/) implement mm's struct aslr_rules and
    # reach it through a linker section, so they sit above mm.
    ("mm", ["kernel/char", "kernel/mm", "kernel/aslr"]),
    ("proc", ["kernel/task", "kernel/security"]),
    ("fs", ["kernel/console", "kernel/fs"]),
    ("syscall", ["kernel/syscall"]),
    # run: what the run does (mode=, suite=, variants=...), read by every job.
    ("jobs", ["kernel/run", "kernel/init", "kernel/measure", "kernel/attack", "kernel/test"]),
]

# Code outside kernel/ that the kernel links: freestanding, never includes
# kernel headers.  rng/, common/ and the loader's boot/ header sit below
# everything; bench/ (the harness) is used by the jobs only.
EXTERNAL = {"rng": "lib", "common": "lib", "boot": "lib", "bench": "jobs"}

# Ring-3 programs (userland/): they see only the ABI, the shared
# freestanding library code and their own lib.
USER_DIR = "userland"
USER_MAY_INCLUDE = {"kernel/uapi", "kernel/lib", "userland", "common"}

# The freestanding code outside kernel/ (DESIGN: kernel -> bench -> rng):
# what each may include, so none of it grows a kernel dependency.  common/
# is the bottom (header helpers such as hex.h), open to all of them.
FREESTANDING = {"rng": {"rng", "common"}, "common": {"common"}, "bench": {"bench", "common", "rng"}}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def node_of(path):
    """kernel/fs/proc/base.c -> kernel/fs; rng/rng.h -> rng."""
    parts = path.split("/")
    if parts[0] == "kernel":
        return "/".join(parts[:2]) if len(parts) > 2 else "kernel"
    return parts[0]


def find_cycle(graph):
    """Returns one cycle as a list of nodes, or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--verbose", action="store_true", help="print the directory graph")
    args = ap.parse_args()
    root = os.path.abspath(args.root)

    rank = {}
    for i, (_, dirs) in enumerate(LAYERS):
        for d in dirs:
            rank[d] = i
    layer_index = {name: i for i, (name, _) in enumerate(LAYERS)}
    for ext, layer in EXTERNAL.items():
        rank[ext] = layer_index[layer]
    layer_name = [name for name, _ in LAYERS]

    errors = []
    graph = {}
    files = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "kernel")):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(dirpath, f), root))
    if not files:
        print(f"check-layers: no kernel/*.c or *.h under {root}", file=sys.stderr)
        return 2
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, USER_DIR)):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(dirpath, f), root))

    for rel in files:
        src = node_of(rel)
        if src == "kernel":
            errors.append(f"{rel}: a loose file at kernel/ top level (no layer)")
            continue
        if src != USER_DIR and src not in rank:
            errors.append(f"{rel}: {src} is in no layer (add it to LAYERS in scripts/check-layers.py)")
            continue
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                target = inc if "/" in inc else os.path.join(os.path.dirname(rel), inc)
                if not os.path.exists(os.path.join(root, target)):
                    errors.append(f"{rel}:{lineno}: includes {inc}, which does not exist")
                    continue
                dst = node_of(target)
                where = f"{rel}:{lineno}: {src} -> {dst} ({inc})"
                if src == USER_DIR:
                    if dst not in USER_MAY_INCLUDE:
                        errors.append(f"{where}: user programs see only "
                                      + ", ".join(sorted(USER_MAY_INCLUDE)))
                    continue
                if dst == src:
                    continue
                if dst not in rank:
                    errors.append(f"{where}: {dst} is in no layer")
                    continue
                if rank[dst] > rank[src]:
                    errors.append(f"{where}: upward include, layer {layer_name[rank[src]]} "
                                  f"-> {layer_name[rank[dst]]}")
                graph.setdefault(src, set()).add(dst)

    for top_dir, allowed in sorted(FREESTANDING.items()):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top_dir)):
            dirnames.sort()
            for f in sorted(filenames):
                if not f.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                    for lineno, line in enumerate(fh, 1):
                        m = INCLUDE_RE.match(line)
                        if m and "/" in m.group(1) and node_of(m.group(1)) not in allowed:
                            errors.append(f"{rel}:{lineno}: includes {m.group(1)}: {top_dir}/ "
                                          "is freestanding, it may include only "
                                          + ", ".join(sorted(allowed)))

    cycle = find_cycle(graph)
    if cycle:
        errors.append("include cycle between directories: " + " -> ".join(cycle))

    if args.verbose:
        for n in sorted(graph, key=lambda n: (rank.get(n, -1), n)):
            print(f"{n} ({layer_name[rank[n]]}) -> " + " ".join(sorted(graph[n])))
    for e in errors:
        print("check-layers: " + e, file=sys.stderr)
    if errors:
        return 1
    print(f"check-layers: {len(files)} files, {len(graph)} directories, "
          "every include points down, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
