#!/usr/bin/env bash
# TAP tests for the test driver itself, without booting: scripts/test.sh's
# boot table parsing and selection (--list with --boot/--group, unknown
# names, a broken table via BOOTS_CONF), and scripts/tap2junit.py's TAP to
# JUnit conversion (counts, skips, failures, escaped '#', a missing plan).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
T=scripts/test.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-driver-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. tests/sh/lib/tap.sh

# run ARGS...: sets rc, out, err
run() {
	"$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out") err=$(cat "$tmp/err")
}
names() { awk '{ print $1 }' "$tmp/out" | tr '\n' ' ' | sed 's/ $//'; }

# ---- the boot table and selection ------------------------------------------
# The boots in file order, read with awk (a parser apart from the driver's own).
all=$(awk '/^boot /{ printf "%s%s", sep, $2; sep = " " }' tests/qemu/boots.conf)
run $T --list
[[ $rc -eq 0 && $(names) == "$all" ]]
tap_check $? "--list: the $(wc -w <<<"$all") boots of tests/qemu/boots.conf, in order" "exit $rc" "$out"
run $T --list --group errors
[[ $rc -eq 0 && $(names) == "bad-cmdline no-kernel fault-report init-exit-code init-bad-interp init-noexec init-args-alone" ]]
tap_check $? "--list --group errors: the seven error boots" "$out"
run $T --list -T shell-leak -T cd
[[ $rc -eq 0 && $(names) == "cd shell-leak" ]]
tap_check $? "--list -T shell-leak -T cd: both, in file order" "$out"
run $T --list -G all
[[ $rc -eq 0 && $(names) == "$all" ]]
tap_check $? "group all is every boot" "$out"
run $T --boot nope
[[ $rc -eq 2 && -z $out && $err == *"no boot named 'nope'"* ]]
tap_check $? "unknown boot: exit 2, message on stderr" "exit $rc" "$err"
run $T --group nope
[[ $rc -eq 2 && -z $out && $err == *"no group 'nope'"* ]]
tap_check $? "unknown group: exit 2, message on stderr" "exit $rc" "$err"
run $T --boot
[[ $rc -eq 2 && $err == *"--boot needs a value"* ]]
tap_check $? "--boot without a name: exit 2" "exit $rc" "$err"
run $T --host-only --boot cd
[[ $rc -eq 2 && $err == *"runs nothing"* ]]
tap_check $? "--host-only with --boot: exit 2" "exit $rc" "$err"

# Every boot has an image, a timeout and a status, and names only checks
# that exist (the parser refuses the table otherwise, as below).
bad_conf() { # NAME REGEX: the table in $tmp/conf is refused with REGEX
	BOOTS_CONF=$tmp/conf run $T --list
	[[ $rc -eq 2 && -z $out ]] && grep -Eq -- "$2" <<<"$err"
	tap_check $? "broken table: $1" "exit $rc" "$err"
}
printf 'boot a\n  image iso\n  timeout 10\n  status 0\n  colour red\n' >"$tmp/conf"
bad_conf "unknown key, with file and line" "conf:5: unknown key 'colour'"
printf 'boot a\n  image iso\n  timeout 10\n' >"$tmp/conf"
bad_conf "a boot without status" "boot 'a' needs image, timeout and status"
printf 'boot a\n  image floppy\n  timeout 10\n  status 0\n' >"$tmp/conf"
bad_conf "unknown image" "conf:2: image must be iso, img, nokernel or lockdep"
printf 'boot a\n  image iso\n  timeout ten\n  status 0\n' >"$tmp/conf"
bad_conf "timeout not a number" "conf:3: timeout needs a number"
printf 'boot a\n  image iso\n  timeout 10\n  status 0\n  check no-such-check\n' >"$tmp/conf"
bad_conf "a check that does not exist" "conf:5: no check 'no-such-check'"
printf 'boot a\n  image iso\n  timeout 10\n  status 0\nboot a\n  image iso\n  timeout 10\n  status 0\n' >"$tmp/conf"
bad_conf "a boot named twice" "conf:5: boot 'a' twice"
printf '  image iso\n' >"$tmp/conf"
bad_conf "a key before any boot" "conf:1: 'image' before the first 'boot NAME'"

# A missing prerequisite is a SKIP, not a failure: no QEMU here.
QEMU=/no/such/qemu run $T --boot cd --tap "$tmp/skip.tap" --junit "$tmp/skip.xml"
[[ $rc -eq 0 && $(tail -n 1 "$tmp/out") == "0 passed, 0 failed, 1 skipped" ]] &&
	grep -qx 'ok 1 - qemu/cd # SKIP /no/such/qemu not installed (scripts/deps.sh)' "$tmp/skip.tap" &&
	grep -q '<skipped message="/no/such/qemu not installed' "$tmp/skip.xml"
tap_check $? "no QEMU: the boot is a SKIP in TAP and JUnit, exit 0, summary says 1 skipped" "exit $rc" "$out" "$err"
[[ $(head -n 1 "$tmp/skip.tap") == "TAP version 13" && $(tail -n 1 "$tmp/skip.tap") == "1..1" ]] &&
	diff <(head -n -1 "$tmp/out") "$tmp/skip.tap" >/dev/null
tap_check $? "stdout is the TAP file plus the summary line" "$out"
if command -v prove >/dev/null; then
	prove -e cat "$tmp/skip.tap" >"$tmp/prove.out" 2>&1
	tap_check $? "prove accepts the TAP file" "$(cat "$tmp/prove.out")"
	prove -e cat "$tmp/out" >"$tmp/prove.out" 2>&1
	tap_check $? "prove accepts stdout, summary line and all" "$(cat "$tmp/prove.out")"
else
	tap_skip "prove accepts the TAP file" "prove (Debian package perl) not installed"
	tap_skip "prove accepts stdout, summary line and all" "prove (Debian package perl) not installed"
fi

# ---- tap2junit -----------------------------------------------------------------
cat >"$tmp/t.tap" <<'EOT'
TAP version 13
ok 1 - kernel/cd: fork_cow
not ok 2 - kernel/cd: page_leak: 3 pages lost
ok 3 - qemu/cd: log says 'a \# b'
ok 4 - shellcheck # SKIP shellcheck not installed
# a comment
1..4
EOT
run scripts/tap2junit.py "$tmp/t.tap" "$tmp/t.xml"
[[ $rc -eq 0 ]] && /usr/bin/python3 - "$tmp/t.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == "testsuites" and (r.get("tests"), r.get("failures"), r.get("skipped")) == ("4", "1", "1"), r.attrib
s = {e.get("name"): e for e in r.findall("testsuite")}
assert list(s) == ["kernel/cd", "qemu/cd", "shellcheck"], list(s)
assert s["kernel/cd"].get("tests") == "2" and s["kernel/cd"].get("failures") == "1"
cases = r.findall(".//testcase")
assert [c.get("name") for c in cases] == ["fork_cow", "page_leak: 3 pages lost", "log says 'a # b'", "shellcheck"]
assert cases[1].find("failure") is not None and cases[3].find("skipped").get("message") == "shellcheck not installed"
PY
tap_check $? "tap2junit: 4 testcases in 3 suites, the failure, the skip, '\\#' unescaped" "exit $rc" "$err"
head -n -1 "$tmp/t.tap" >"$tmp/noplan.tap"
run scripts/tap2junit.py "$tmp/noplan.tap" "$tmp/n.xml"
[[ $rc -eq 1 && $err == *"plan None, 4 results"* && -s $tmp/n.xml ]]
tap_check $? "tap2junit: no plan is an error (exit 1), the XML is still written" "exit $rc" "$err"
run scripts/tap2junit.py "$tmp/none.tap" "$tmp/x.xml"
[[ $rc -eq 2 ]]
tap_check $? "tap2junit: unreadable TAP, exit 2" "exit $rc"

tap_done
