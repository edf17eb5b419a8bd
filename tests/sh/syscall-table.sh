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
doc = open(f"{top}/docs/linux-abi.md").read()
# The IA-32 section (the last) has its own table, held to kernel/uapi/syscall_32.h below.
readme, _, ia32_doc = doc.partition("\n## IA-32 programs")
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

# IA-32: kernel/uapi/syscall_32.h against the section's table, as above, and
# its numbers against the build machine's i386 numbers (asm/unistd_32.h),
# which come from Linux's syscall_32.tbl.
t32 = re.findall(r"^__SYSCALL_I386\((\d+),\s*([a-z0-9_]+),\s*([a-z0-9_]+)\)",
                 open(f"{top}/kernel/uapi/syscall_32.h").read(), re.M)
nr32 = {n: int(v) for v, n, _ in t32}
have32 = {n for _, n, e in t32 if e != "sys_ni_syscall"}
nums32 = [int(v) for v, _, _ in t32]
if len(t32) < 50 or nums32 != sorted(set(nums32)):
    print(f"FAIL syscall_32.h's numbers are not strictly increasing ({len(t32)} rows)")
seen32, rows32 = set(), 0
for line in ia32_doc.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) < 3 or not cells[0].startswith("`"):
        continue
    names = re.findall(r"`([a-z0-9_]+)`", cells[0])
    state = cells[2].strip("`")
    if not names or not (state.startswith("implemented") or state.startswith("ENOSYS")):
        continue
    want = state.startswith("implemented")
    rows32 += 1
    seen32.update(names)
    for n in names:
        if n not in nr32:
            print(f"FAIL i386 {n}: in docs/linux-abi.md's IA-32 table, not in syscall_32.h")
        elif (n in have32) != want:
            print(f"FAIL i386 {n}: the IA-32 table says {'implemented' if want else 'ENOSYS'}, "
                  f"syscall_32.h {'has' if n in have32 else 'lacks'} a handler")
    nums = [int(x) for x in re.findall(r"\d+", cells[1])]
    if nums != [nr32.get(n) for n in names]:
        print(f"FAIL i386 {' '.join(names)}: docs numbers {nums}, syscall_32.h's "
              f"{[nr32.get(n) for n in names]}")
for n in sorted(set(nr32) - seen32):
    print(f"FAIL i386 {n}: in syscall_32.h, in no row of the IA-32 table")
try:
    linux = dict(re.findall(r"#define __NR_([a-z0-9_]+)\s+(\d+)",
                            open("/usr/include/asm/unistd_32.h").read()))
    for n, v in nr32.items():
        if int(linux.get(n, -1)) != v:
            print(f"FAIL i386 {n}: syscall_32.h says {v}, asm/unistd_32.h {linux.get(n)}")
    print("LINUX32 checked")
except OSError:
    print("LINUX32 missing")
print(f"ROWS32 {rows32}")
PY
)
rows=$(sed -n 's/^ROWS //p' <<<"$out")
[ "${rows:-0}" -ge 30 ]
tap_check $? "docs/linux-abi.md's syscall tables have rows with a state ($rows)" "$out"
! grep '^FAIL' <<<"$out" | grep -vq '^FAIL i386 '
tap_check $? "every row agrees with kernel/uapi/syscall_64.h; every call is in a row" \
	"$(grep '^FAIL' <<<"$out" | grep -v '^FAIL i386 ')"
rows32=$(sed -n 's/^ROWS32 //p' <<<"$out")
[ "${rows32:-0}" -ge 15 ]
tap_check $? "docs/linux-abi.md's IA-32 table has rows with a state ($rows32)" "$out"
! grep -q '^FAIL i386 ' <<<"$out"
tap_check $? "every IA-32 row agrees with kernel/uapi/syscall_32.h; every i386 call is in a row" \
	"$(grep '^FAIL i386 ' <<<"$out")"
if grep -q '^LINUX32 checked' <<<"$out"; then
	tap_pass "syscall_32.h's numbers are the build machine's asm/unistd_32.h's"
else
	tap_skip "syscall_32.h's numbers against asm/unistd_32.h" "no /usr/include/asm/unistd_32.h"
fi
tap_done
