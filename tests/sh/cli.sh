#!/usr/bin/env bash
# TAP tests for the command line around the project: `make help` names every
# .PHONY target of the Makefile and its fragments, and every script in
# scripts/ that is a command (executable; report.py has its own tests in report.sh) prints its full usage
# on stdout for --help with exit 0, and for an unknown option exits non-zero
# with the error on stderr and nothing on stdout.  The scripts run from an
# empty temporary directory, and must leave it empty: a script that took the
# unknown option for a file name would write it there (mkcpio.py once wrote an
# empty archive called "--no-such-option" into the repository's root).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. tests/sh/lib/tap.sh

# ---- make help -------------------------------------------------------------
make --no-print-directory -s help >"$tmp/help" 2>"$tmp/help.err"
rc=$?
[[ $rc -eq 0 && ! -s $tmp/help.err && $(wc -l <"$tmp/help") -gt 10 ]]
tap_check $? "make help: exit 0, a list on stdout" "exit $rc" "$(cat "$tmp/help.err")"
phony=$(make --no-print-directory -pRrq -f Makefile 2>/dev/null | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | sort -u)
missing=""
for t in $phony; do
	[ "$t" != FORCE ] || continue # kernel/version.mk's always-remake prerequisite, not a target to run
	grep -Eq "^  $t +[^ ]" "$tmp/help" || missing="$missing $t"
done
[[ -n $phony && -z $missing ]]
tap_check $? "make help: one line for each of the $(wc -w <<<"$phony") .PHONY targets" "missing:$missing"

# ---- --help and a bad option on every script --------------------------------
cwd=$tmp/cwd
mkdir "$cwd" || exit 2
for s in scripts/*.sh scripts/*.py; do
	[ "$s" != scripts/report.py ] || continue
	[ -x "$s" ] || continue # a module another script loads (report_*.py, progress.sh)
	(cd "$cwd" && "$root/$s" --help </dev/null >"$tmp/out" 2>"$tmp/err")
	rc=$?
	[[ $rc -eq 0 && ! -s $tmp/err ]] && grep -q '[Uu]sage:' "$tmp/out" && [[ $(wc -l <"$tmp/out") -ge 3 ]]
	tap_check $? "$s --help: usage on stdout, exit 0" "exit $rc" "$(head -5 "$tmp/err")"
	(cd "$cwd" && "$root/$s" --no-such-option </dev/null >"$tmp/out" 2>"$tmp/err")
	rc=$?
	[[ $rc -ne 0 && ! -s $tmp/out && -s $tmp/err ]]
	tap_check $? "$s --no-such-option: error on stderr, exit $rc" "stdout: $(head -3 "$tmp/out")"
	left=$(ls -A "$cwd")
	[ -z "$left" ]
	tap_check $? "$s: --help and --no-such-option write no file into the working directory" "left: $left"
	rm -rf "${cwd:?}"/* "$cwd"/.[!.]* 2>/dev/null
done

tap_done
