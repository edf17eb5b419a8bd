#!/usr/bin/env bash
# TAP: every repository path README.md, docs/ and the code's comments name
# exists (scripts/check-paths.py), and the check fails on a planted bad
# path, so it cannot pass by reading nothing.
# Usage: tests/sh/check-paths.sh   (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-paths.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

out=$(python3 "$top/scripts/check-paths.py" "$top" 2>&1)
tap_check $? "every repository path named in README.md, docs/ and comments exists" "$out"

# A copy of the checkout with one planted name of a file that is not there.
git -C "$top" ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$tmp" 2>/dev/null)
git -C "$tmp" init -q && git -C "$tmp" add -A >/dev/null 2>&1
# (The planted names are put together here, so this file names no bad path itself.)
d=kernel
printf '\nSee %s/task/no_such_file.c for the rest.\n' "$d" >>"$tmp/docs/design.md"
printf '/* Linux'"'"'s %s/no_such_linux_file.c: not ours, not checked. */\n' "$d" \
	>>"$tmp/kernel/task/task.c"
out=$(python3 "$top/scripts/check-paths.py" "$tmp" 2>&1)
st=$?
[ $st -eq 1 ] && grep -q "^docs/design.md:[0-9]*: $d/task/no_such_file.c\$" <<<"$out" &&
	! grep -q no_such_linux_file <<<"$out"
tap_check $? "a planted bad path in docs fails the check by name, a Linux path does not" \
	"exit status $st, output: $out"
tap_done
