#!/usr/bin/env bash
# TAP: docs/linux-abi.md's system-call tables say what the kernel really has.  Each
# row of the two tables (the file calls and the process ABI) whose state
# cell starts with "implemented" must name calls the system-call table
# (kernel/uapi/syscall_64.h) gives a handler, each row whose state is ENOSYS
# calls it has not (sys_ni_syscall or absent); the numbers a row gives must
# be the table's, in order; every Linux call with a handler must appear in
# some row; and the table's numbers increase.
# Usage: tests/sh/syscall-table.sh   (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"

out=$(python3 - "$top" <<'PY'
import re, sys
top = sys.argv[1]
readme = open(f"{top}/docs/linux-abi.md").read()
# The one hand-written list: __SYSCALL(nr, name, entry, fuzz), numbers ascending.
rows_tbl = re.findall(r"^__SYSCALL\((\d+),\s*([a-z0-9_]+),\s*([a-z0-9_]+),",
                      open(f"{top}/kernel/uapi/syscall_64.h").read(), re.M)
nr = {n: int(v) for v, n, _ in rows_tbl}
have = {n for _, n, e in rows_tbl if e != "sys_ni_syscall"}
nums = [int(v) for v, _, _ in rows_tbl]
if len(rows_tbl) < 100 or nums != sorted(set(nums)):
    print(f"FAIL the table's numbers are not strictly increasing ({len(rows_tbl)} rows)")
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
tap_check $? "every row agrees with kernel/uapi/syscall_64.h; every call is in a row" \
	"$(grep '^FAIL' <<<"$out")"
tap_done
