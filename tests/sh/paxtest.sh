#!/bin/bash
# paxtest.sh - paxtest/ on the host, as TAP: paxtest-records turns paxtest's
# lines into records (run by busybox sh, the shell it gets in the kernel),
# paxtest/paxtest.py checks them and scripts/report.py paxtest tabulates them
# beside a Linux log (tests/sh/report-paxtest.sh tests that table in full).
#   - a test that dies silently (rettofunc2) leaves no newline: two records
#   - "N quality bits (guessed)" and the exhaustion tests' "N bits" are bits,
#     "No randomization" and NX results are null bits
#   - a bad RVA is refused with the usage (exit 2)
#   - paxtest/quality.py computes what randbody.c computes
set -u

here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$here/tests/sh/lib/tap.sh"

if ! command -v busybox >/dev/null; then
	echo "1..0 # SKIP busybox not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/paxtest-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# paxtest's own lines: NAME padded to 41 columns, ':', a space, RESULT.
cat >"$tmp/log" <<'END'
Mode: 1
Blackhat
Test results:
Executable stack                         : Killed
Executable anonymous mapping (mprotect)  : Vulnerable
Return to function (memcpy)              : Return to function (memcpy, PIE)         : Killed
Anonymous mapping randomization test     : 28 quality bits (guessed)
Heap randomization test (PIE)            : No randomization
Randomization under memory exhaustion @0 : 27 bits (guessed)
END
rec=paxtest/paxtest-records
cd "$here" || exit 2
busybox sh "$rec" --records blackhat ia32 6.x md4-2.6.30 1 <"$tmp/log" >"$tmp/out" 2>&1
tap_check $? "paxtest-records --records: exit 0" "$(cat "$tmp/out")"
n=$(grep -c '^@@ {"type":"paxtest"' "$tmp/out")
[ "$n" = 7 ]
tap_check $? "seven records from six lines (one line held two tests)" "got $n"
grep -qF '@@ {"type":"paxtest","test":"Return to function (memcpy)","bits":null,"result":"",' "$tmp/out"
tap_check $? "a test without output has an empty result"
grep -qF '"test":"Anonymous mapping randomization test","bits":28,"result":"28 quality bits (guessed)","rng":"md4-2.6.30","profile":"ia32","aslr_rules":"6.x","randomize_va_space":1,' "$tmp/out"
tap_check $? "quality bits, rng, profile, rules and rva in the record"
grep -qF '"test":"Randomization under memory exhaustion @0","bits":27,' "$tmp/out"
tap_check $? "the exhaustion tests' 'N bits (guessed)' are bits too"
grep -qF '"test":"Heap randomization test (PIE)","bits":null,"result":"No randomization"' "$tmp/out"
tap_check $? "No randomization: bits null"

tap_run "paxtest.py check: wanted results present" paxtest/paxtest.py check "$tmp/out" \
	"Executable stack=Killed" "Anonymous mapping randomization test=bits>=28" \
	"Return to function (memcpy, PIE)=Killed"
paxtest/paxtest.py check "$tmp/out" "Executable stack=Vulnerable" >/dev/null
[ $? = 1 ]
tap_check $? "paxtest.py check: a wrong result fails"
paxtest/paxtest.py check "$tmp/out" "Anonymous mapping randomization test=bits>=29" >/dev/null
[ $? = 1 ]
tap_check $? "paxtest.py check: too few bits fail"
grep -v '"test":"Executable stack"' "$tmp/out" | sed 's/"aslr_rules":"6.x",//' >"$tmp/bad"
paxtest/paxtest.py check "$tmp/bad" >/dev/null
[ $? = 1 ]
tap_check $? "paxtest.py check: a record without aslr_rules fails"

/usr/bin/python3 scripts/report.py paxtest --host "$tmp/log" "$tmp/out" >"$tmp/md"
grep -qF '| Anonymous mapping randomization test | 28 | 28 |' "$tmp/md" &&
	grep -qF '| Heap randomization test (PIE) | none | none |' "$tmp/md" &&
	grep -qF '| paxtest test | md4-2.6.30 ia32 rva=1 6.x | Linux host |' "$tmp/md"
tap_check $? "report.py paxtest: kernel and Linux columns" "$(cat "$tmp/md")"

busybox sh "$rec" --records blackhat x86_64 2.6.29 x 3 </dev/null >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && grep -q usage "$tmp/err"
tap_check $? "paxtest-records: a bad randomize_va_space is refused (exit 2)"
# paxtest/quality.py: randbody.c's estimator.  A bit set in exactly 35 % of
# 1500 addresses (525) is weak, in 526 it counts; a predictable Weyl
# sequence gets all 28 bits; equal addresses are "No randomization"; a
# counter only the bits it spans.
q=paxtest/quality.py
out=$(python3 -c '
for i in range(1500):
    print("%x" % ((i & 1) | (2 if i < 525 else 0) | (4 if i < 526 else 0)))' | "$q")
[ "$out" = "2 quality bits (guessed)" ]
tap_check $? "quality.py: 35 % is weak, one more is not" "got '$out'"
out=$(seq 0 1499 | awk '{ printf "%x\n", $1 * 2654435761 % 2^28 }' | "$q")
[ "$out" = "28 quality bits (guessed)" ]
tap_check $? "quality.py: a predictable Weyl sequence gets 28 bits" "got '$out'"
out=$(yes 7f0000001000 | head -n 1500 | "$q")
[ "$out" = "No randomization" ]
tap_check $? "quality.py: equal addresses" "got '$out'"
out=$(seq 0 1499 | awk '{ printf "%x\n", $1 }' | "$q" --mmap 8)
[ "$out" = "8 quality bits (guessed)" ]
tap_check $? "quality.py --mmap 8: 2.6.29's ia32 mmap_rnd of a counter" "got '$out'"
out=$(seq 0 1499 | awk '{ printf "%x\n", $1 }' | "$q" --mmap 28)
[ "$out" = "9 quality bits (guessed)" ]
tap_check $? "quality.py --mmap 28: a counter spans 11 bits, 9 of them balanced" "got '$out'"
printf '1000\nzz\n' | "$q" >/dev/null 2>&1
[ $? = 2 ]
tap_check $? "quality.py: a line that is not hex: exit 2"
seq 1 10 | "$q" >/dev/null 2>&1
[ $? = 2 ]
tap_check $? "quality.py: fewer than 1500 addresses: exit 2"
tap_done
