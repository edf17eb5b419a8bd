# shellcheck shell=sh
# tests/sh/lib/tap.sh: the TAP helpers every tests/sh/*.sh sources (POSIX sh,
# so that /bin/sh tests can use it too).  Results are numbered in order;
# the plan comes first with tap_plan N, or at the end from tap_done.
#
#   tap_plan N               "1..N" now; tap_done checks that N ran
#   tap_pass NAME            ok
#   tap_fail NAME [DIAG...]  not ok; each DIAG (may span lines) as "#   " lines
#   tap_skip NAME REASON     ok ... # SKIP REASON
#   tap_check STATUS NAME [DIAG...]   pass when STATUS is 0, else fail
#   tap_run NAME CMD...      pass when CMD exits 0; else fail with CMD's
#                            output (stdout and stderr, 30 lines) as DIAG
#   tap_done                 the plan if none yet; returns 0 when nothing
#                            failed, 1 otherwise (end a test with it)
#   has FILE TEXT            FILE holds TEXT (a fixed string); else says so
#   lacks FILE TEXT          FILE does not hold TEXT
#   eq GOT WANT              the two strings are equal; else says both
# TAP_TO_STDERR=1 sends the lines to stderr (a report on stdout, say).
# tap_n and tap_failed hold the counts.

tap_n=0
tap_failed=0
tap_planned=

tap_emit() {
	if [ "${TAP_TO_STDERR:-0}" = 1 ]; then
		printf '%s\n' "$1" >&2
	else
		printf '%s\n' "$1"
	fi
}

tap_plan() {
	tap_planned=$1
	tap_emit "1..$1"
}

tap_pass() {
	tap_n=$((tap_n + 1))
	tap_emit "ok $tap_n - $1"
}

tap_skip() {
	tap_n=$((tap_n + 1))
	tap_emit "ok $tap_n - $1 # SKIP $2"
}

tap_fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	tap_emit "not ok $tap_n - $1"
	shift
	for tap_l in "$@"; do
		tap_emit "$(printf '%s\n' "$tap_l" | sed 's/^/#   /')"
	done
}

tap_check() {
	tap_st=$1
	shift
	if [ "$tap_st" -eq 0 ]; then
		tap_pass "$1"
	else
		tap_fail "$@"
	fi
}

# CMD runs in this shell (it may set variables); its output goes through a
# file of its own, removed after.
tap_run() {
	tap_name=$1
	shift
	tap_tmp=$(mktemp "${TMPDIR:-/tmp}/tap-run.XXXXXX") || return 1
	if "$@" >"$tap_tmp" 2>&1; then
		tap_pass "$tap_name"
	else
		tap_fail "$tap_name" "$(head -30 "$tap_tmp")"
	fi
	rm -f "$tap_tmp"
}

tap_done() {
	if [ -z "$tap_planned" ]; then
		tap_emit "1..$tap_n"
	elif [ "$tap_n" -ne "$tap_planned" ]; then
		tap_emit "# planned $tap_planned tests but ran $tap_n"
		tap_failed=$((tap_failed + 1))
	fi
	[ "$tap_failed" -eq 0 ]
}

has() { grep -qF -- "$2" "$1" || { echo "missing in $1: $2"; return 1; }; }
lacks() { ! grep -qF -- "$2" "$1" || { echo "unexpected in $1: $2"; return 1; }; }
eq() { [ "$1" = "$2" ] || { echo "expected '$2', got '$1'"; return 1; }; }
