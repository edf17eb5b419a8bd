#!/usr/bin/env bash
# TAP: the system-call tables of docs/linux-abi.md say what the kernel really has.  Each
# row of the two tables (the file calls and the process ABI) whose state
# cell starts with "implemented" must name calls of the dispatch table
# (kernel/syscall/syscall.c), each row whose state is ENOSYS calls it has
# not; the numbers a row gives must be those of kernel/uapi/aslrbench.h
# (or syscall_names.c for calls the kernel lacks), in order; and every Linux
# call of the dispatch table must appear in some row.
# Usage: tests/sh/syscall-table.sh   (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"

out=$(python3 - "$top" <<'PY'
import re, sys
top = sys.argv[1]
readme = open(f"{top}/docs/linux-abi.md").read()
have = set(re.findall(r"\{__NR_([a-z0-9_]+),", open(f"{top}/kernel/syscall/syscall.c").read()))
nr = {n: int(v) for n, v in re.findall(r"#define __NR_([a-z0-9_]+)\s+(\d+)",
                                        open(f"{top}/kernel/uapi/aslrbench.h").read())}
for n, v in re.findall(r'\{(\d+), "([a-z0-9_]+)"\}',
                       open(f"{top}/kernel/syscall/syscall_names.c").read()):
    nr.setdefault(v, int(n))
# The project's own calls (numbers above Linux's range) are not Linux's ABI.
own = {n for n in have if nr.get(n, 0) >= 500}
seen, rows = set(), 0
for line in readme.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) < 3 or not cells[0].startswith("`"):
        continue
    names = [n for n in re.findall(r"`([a-z0-9_]+)`", cells[0])]
    if not names:
        continue
    state = cells[2].strip("`")
    if state.startswith("implemented"):
        want = True
    elif state.startswith("ENOSYS"):
        want = False
    else:
        continue
    rows += 1
    seen.update(names)
    for n in names:
        if (n in have) != want:
            print(f"FAIL {n}: docs/linux-abi.md says {'implemented' if want else 'ENOSYS'}, "
                  f"the dispatch table {'has' if n in have else 'lacks'} it")
    nums = [int(x) for x in re.findall(r"\d+", cells[1])]
    if nums:
        known = [nr.get(n) for n in names]
        if nums != known:
            print(f"FAIL {' '.join(names)}: docs/linux-abi.md numbers {nums}, the ABI's {known}")
for n in sorted(have - own - seen):
    print(f"FAIL {n}: in the dispatch table, in no row of docs/linux-abi.md")
print(f"ROWS {rows}")
PY
)
rows=$(sed -n 's/^ROWS //p' <<<"$out")
[ "${rows:-0}" -ge 30 ]
tap_check $? "docs/linux-abi.md's syscall tables have rows with a state ($rows)" "$out"
! grep -q '^FAIL' <<<"$out"
tap_check $? "every row agrees with kernel/syscall/syscall.c and the ABI numbers; every call is in a row" \
	"$(grep '^FAIL' <<<"$out")"
tap_done
