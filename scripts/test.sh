#!/usr/bin/env bash
# The test driver behind `make test`.
#
#   scripts/test.sh [--host-only | --qemu-only]      (HOST_TESTS from the Makefile)
#
# Every suite reports TAP-style lines ("ok N - name", "not ok N - name");
# kernel boots report "@@ {"type":"test",...}" records, which are turned into
# the same lines.  The last line is the total: "N passed, N failed".
# Logs of every suite and boot are kept in build/test-logs/.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
logs=build/test-logs
mkdir -p "$logs"
passed=0 failed=0 skipped=0
failures=()
run_host=1 run_qemu=1
case ${1:-} in
--host-only) run_qemu=0 ;;
--qemu-only) run_host=0 ;;
esac

pass() { passed=$((passed + 1)); echo "ok - $1"; }
skip() { skipped=$((skipped + 1)); echo "ok - $1 # SKIP $2"; }
fail() {
	failed=$((failed + 1))
	failures+=("$1${2:+: $2}")
	echo "not ok - $1${2:+: $2}"
}

# Counts the TAP lines of one suite's output; a suite that exits non-zero
# without reporting a failure still counts as one failure.
tap_suite() {
	local name=$1 log=$2 status=$3 line n_fail=0 n_any=0
	while IFS= read -r line; do
		case $line in
		"not ok"*) n_any=$((n_any + 1)); n_fail=$((n_fail + 1)); fail "$name: ${line#not ok }" ;;
		"ok "*"# SKIP"* | "ok "*"# skip"*) n_any=$((n_any + 1)); skip "$name: ${line#ok }" "" ;;
		"ok "*) n_any=$((n_any + 1)); pass "$name: ${line#ok }" ;;
		esac
	done <"$log"
	if [ "$status" -ne 0 ] && [ "$n_fail" -eq 0 ]; then
		fail "$name" "exited with status $status (log: $log)"
	elif [ "$n_any" -eq 0 ]; then
		fail "$name" "reported no test (log: $log)"
	fi
}

host_tests() {
	local t name log
	for t in ${HOST_TESTS:-}; do
		name=$(basename "$t")
		log="$logs/host-$name.log"
		"$t" >"$log" 2>&1
		tap_suite "$name" "$log" $?
	done
	for t in tests/sh/*.sh; do
		[ -x "$t" ] || continue
		name=$(basename "$t" .sh)
		log="$logs/sh-$name.log"
		"$t" >"$log" 2>&1
		tap_suite "$name" "$log" $?
	done
	log="$logs/shellcheck.log"
	if shellcheck scripts/*.sh iso/*.sh tests/sh/*.sh .ci/run >"$log" 2>&1; then
		pass "shellcheck"
	else
		fail "shellcheck" "see $log"
	fi
}

# boot NAME EXPECTED_STATUS [run-qemu.sh args...]: boots, checks the status,
# and turns the kernel's test records into results.
boot() {
	local name=$1 want=$2 log="$logs/qemu-$1.log" st
	shift 2
	scripts/run-qemu.sh --log "$log" "$@" >/dev/null 2>"$log.err"
	st=$?
	if [ "$st" -ne "$want" ]; then
		fail "qemu/$name" "run-qemu.sh exited $st, expected $want (log: $log)"
		return 1
	fi
	pass "qemu/$name: exit status $st"
	return 0
}

kernel_records() {
	local name=$1 log="$logs/qemu-$1.log" n=0
	while IFS=$'\t' read -r tname result detail; do
		n=$((n + 1))
		case $result in
		pass) pass "kernel/$name: $tname" ;;
		skip) skip "kernel/$name: $tname" "$detail" ;;
		*) fail "kernel/$name: $tname" "$detail" ;;
		esac
	done < <(/usr/bin/python3 - "$log" <<'PY'
import json, sys
for raw in open(sys.argv[1], encoding="utf-8", errors="replace"):
    i = raw.find("@@ ")
    if i < 0:
        continue
    try:
        r = json.loads(raw[i + 3:])
    except ValueError:
        continue
    if r.get("type") == "test":
        print(f'{r.get("name")}\t{r.get("result")}\t{r.get("detail", "")}')
PY
	)
	[ "$n" -gt 0 ] || fail "kernel/$name" "no test records in $log"
}

expect_text() {
	local name=$1 file=$2 text=$3
	if grep -qF -- "$text" "$file"; then
		pass "$name: log says '$text'"
	else
		fail "$name" "'$text' not in $file"
	fi
}

qemu_tests() {
	boot cd 0 --cmdline "mode=test" --timeout 300
	kernel_records cd
	expect_text qemu/cd "$logs/qemu-cd.log" "stack smashing detected in t_canary"
	expect_text qemu/cd "$logs/qemu-cd.log" "segfault at 0 ip"
	boot usb 0 --usb --cmdline "mode=test" --timeout 300
	kernel_records usb
	if boot bad-cmdline 2 --cmdline "mode=nonsense" --timeout 120; then
		expect_text qemu/bad-cmdline "$logs/qemu-bad-cmdline.log" "bad value 'nonsense' for mode (accepted: bench|test|shell|attack)"
	fi
	if boot no-kernel 4 --iso build/nokernel.iso --timeout 120; then
		expect_text qemu/no-kernel "$logs/qemu-no-kernel.log" 'cannot read \aslrbench\kernel.elf'
	fi
	if boot fault-report 3 --cmdline "mode=test suite=fault_unhandled" --timeout 120; then
		for s in "page fault at 0xffffc00000400000" "RIP=" "CR2=" "backtrace"; do
			expect_text qemu/fault-report "$logs/qemu-fault-report.log" "$s"
		done
	fi
}

[ "$run_host" = 0 ] || host_tests
[ "$run_qemu" = 0 ] || qemu_tests

if [ ${#failures[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
