# shellcheck shell=bash
# shellcheck disable=SC2154 # logs, boot and boot_logs come from scripts/test.sh
# The named checks of tests/qemu/boots.conf ("check NAME ARG..."), sourced by
# scripts/test.sh.  check_NAME (dashes become underscores) runs after the
# boot with the boot's name in $boot, its logs in the array boot_logs (one
# per run) and the stanza's arguments as "$@"; it reports through the
# driver's pass / fail / tap_suite.

# variants=: every bench record of the log that is about a variant (the
# timer floor's "rng" is "none") names one of the chosen ones, and
# each of them has one.
check_only_variants() {
	local got want
	got=$(grep -a '^@@ {"type":"bench"' "${boot_logs[0]}" | grep -ao '"rng":"[^"]*"' | grep -v '"rng":"none"' |
		sort -u | sed 's/"rng":"\(.*\)"/\1/' | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		pass "qemu/$boot: bench records for $want only"
	else
		fail "qemu/$boot: bench records of the chosen variants" "got '$got', want '$want'"
	fi
}

# Two runs gave the same "@@" records, byte for byte.
check_identical_records() {
	local a=${boot_logs[0]} b=${boot_logs[1]:-} d="$logs/qemu-$boot.diff"
	if [ -z "$b" ]; then
		fail "qemu/$boot: identical records" "needs 'runs 2' in the stanza"
		return
	fi
	if diff <(grep -a '^@@ ' "$a" | tr -d '\r') <(grep -a '^@@ ' "$b" | tr -d '\r') >"$d"; then
		pass "qemu/$boot: two runs gave identical records"
	else
		fail "qemu/$boot: identical records" "the two runs differ (see $d)"
	fi
}

# The first run is within tolerance of a committed baseline (scripts/baseline.py).
check_baseline() {
	local tsv=$1 out="$logs/qemu-$boot-baseline.log"
	scripts/baseline.py check "${boot_logs[0]}" "$tsv" >"$out" 2>&1
	tap_suite baseline "$out" $?
}

# As uid 1000, init's stat fields 28-30 (startstack, kstkesp, kstkeip) read
# as zeros: the 2009 patch's rule.
check_stat_28_30_hidden() {
	local got
	got=$(tests/qemu/records.py stat-28-30 "${boot_logs[0]}")
	if [ "$got" = "0 0 0" ]; then
		pass "qemu/$boot: startstack, kstkesp, kstkeip of init read as 0 0 0"
	else
		fail "qemu/$boot: init's stat fields 28-30" "as uid 1000: '$got', expected '0 0 0'"
	fi
}

# With proc_leak_fix=0 the same three fields show real, non-zero values.
check_stat_28_30_leak() {
	local got
	got=$(tests/qemu/records.py stat-28-30 "${boot_logs[0]}")
	case $got in
	"" | *" 0"* | "0 "*) fail "qemu/$boot: init's stat fields 28-30" "with the fix off: '$got', expected three non-zero values" ;;
	*) pass "qemu/$boot: init's startstack, kstkesp, kstkeip leak: $got" ;;
	esac
}

# paxtest (issue 15): every paxtest record has the contract's fields, and each
# ARG, TEST=RESULT with '_' for a space in TEST, names a test whose record has
# that result (paxtest/paxtest.py check; RESULT bits>=N: N or more bits).
check_paxtest() {
	local out="$logs/qemu-$boot-paxtest.log" wants=() a
	for a in "$@"; do wants+=("${a//_/ }"); done
	paxtest/paxtest.py check "${boot_logs[0]}" "${wants[@]}" >"$out" 2>&1
	tap_suite paxtest "$out" $?
}
