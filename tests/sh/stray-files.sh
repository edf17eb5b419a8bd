#!/usr/bin/env bash
# TAP: no test leaves a file behind in the source tree.
#
# Usage: tests/sh/stray-files.sh --snapshot FILE
#        tests/sh/stray-files.sh [--since FILE]
#
# A file "left behind" is one git would show as untracked: not committed and
# not ignored (build/ and results/ are ignored, so what tests write there is
# never counted).  A developer's own untracked work must not fail the run, so
# the check compares two moments: scripts/test.sh takes a --snapshot of the
# untracked files before its first suite, and runs this script with --since
# that snapshot after its last suite or boot; any untracked file that was not
# there before was written during the run, by a test, and fails it.  (A file
# the developer creates in the tree while `make test` runs counts too.)
#
# Without --since it only checks itself on a throw-away git repository: a
# file written after the snapshot is reported, an ignored one and one that
# was already there are not.  Outside a git checkout the tree check is skipped.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

# untracked DIR: the untracked, non-ignored files under DIR, one path a line, sorted.
untracked() { git -C "$1" ls-files --others --exclude-standard | LC_ALL=C sort; }
# new_since DIR SNAPSHOT: the untracked files of DIR that SNAPSHOT does not list.
new_since() { LC_ALL=C comm -13 "$2" <(untracked "$1"); }

case ${1:-} in
--snapshot)
	[ $# -eq 2 ] || { echo "usage: $0 --snapshot FILE" >&2; exit 2; }
	if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
		untracked "$root" >"$2"
	else
		: >"$2"
	fi
	exit 0
	;;
--since)
	[ $# -eq 2 ] || { echo "usage: $0 --since FILE" >&2; exit 2; }
	case $2 in /*) snapshot=$2 ;; *) snapshot=$PWD/$2 ;; esac # the self-test below changes directory
	;;
"") ;;
*) echo "usage: $0 --snapshot FILE | [--since FILE]" >&2; exit 2 ;;
esac

# ---- the check on a throw-away repository ------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stray-files.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
mkdir -p "$repo/build" && cd "$repo" || exit 2
{ git init -q && printf 'build/\n' >.gitignore && : >tracked &&
	git add .gitignore tracked &&
	git -c user.name=t -c user.email=t@t commit -qm t; } >/dev/null 2>&1
tap_check $? "a throw-away git repository" || { tap_done; exit; }
echo "work in progress" >developer-notes.txt
untracked "$repo" >"$tmp/before"
: >build/test-output.log
echo changed >tracked
out=$(new_since "$repo" "$tmp/before")
[ -z "$out" ]
tap_check $? "a file in an ignored directory, a changed tracked file and untracked work from before are not reported" "reported: $out"
: >./--no-such-option
mkdir -p sub && : >sub/left.tmp
out=$(new_since "$repo" "$tmp/before")
[ "$out" = $'--no-such-option\nsub/left.tmp' ]
tap_check $? "files written after the snapshot are reported, one a line" "reported: $out"

# ---- the tree itself -----------------------------------------------------------
if [ "${1:-}" = --since ]; then
	if ! git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
		tap_skip "no test left a file in the tree" "not a git checkout"
	elif [ ! -r "$snapshot" ]; then
		tap_fail "no test left a file in the tree" "cannot read the snapshot $snapshot"
	else
		out=$(new_since "$root" "$snapshot")
		[ -z "$out" ]
		tap_check $? "no test left a file in the tree (untracked, not ignored, new since the run began)" \
			"left behind: ${out//$'\n'/$'\n'left behind: }"
	fi
fi
tap_done
