#!/usr/bin/env bash
# The test driver behind `make test`, `make test-host` and `make test-qemu`.
#
# Usage: scripts/test.sh [OPTIONS]
#
#   --host-only        only the host suites: HOST_TESTS (from the Makefile),
#                      every executable tests/sh/*.sh, the reproducible-image
#                      check and shellcheck
#   --qemu-only        only the QEMU boots of tests/qemu/boots.conf
#   -T, --boot NAME    only the boot NAME (repeatable; implies --qemu-only)
#   -G, --group GROUP  only the boots in GROUP (repeatable; implies --qemu-only)
#   --list             list the boots (all, or those --boot/--group select)
#                      with their groups and command lines; exit 0
#   --tap FILE         where the TAP goes besides stdout (default build/test.tap)
#   --junit FILE       the JUnit XML (default build/test-results.xml)
#   -h, --help         this text, on stdout; exit 0
#
# Boots run side by side, one emulator per CPU (TEST_JOBS=N sets how many;
# TEST_JOBS=1 runs them one after the other); while the host suites run, the
# boots get one CPU fewer.  Results are reported in boots.conf order.
#
# Output: TAP version 13 on stdout (numbered results, "# SKIP" where a
# prerequisite is missing, the plan at the end), the same TAP in --tap FILE
# (pure TAP: `prove -e cat build/test.tap` accepts it), JUnit XML in --junit
# FILE, then one last plain line on stdout only: "N passed, N failed" (and
# ", N skipped" when some were).  Progress ("[k/N] name (elapsed, ETA)", and
# every 30 s which boot is still running) goes to stderr.  Logs of every
# suite and boot: build/test-logs/.
#
# Exit status: 0 every test passed (or was skipped); 1 some test failed;
# 2 bad arguments, an unknown boot or group, or a broken boots.conf.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here" || exit 2
logs=build/test-logs
boots_conf=${BOOTS_CONF:-tests/qemu/boots.conf} # another table: tests/sh/test-driver.sh
tap=build/test.tap
junit=build/test-results.xml

usage() { sed -n '/^# Usage:/,/^# 2 bad/p' "$0" | sed 's/^# \{0,1\}//'; }
die() {
	echo "test.sh: $*" >&2
	exit 2
}

run_host=1 run_qemu=1 list=0
want_boots=() want_groups=()
while [ $# -gt 0 ]; do
	case $1 in
	--host-only) run_qemu=0 ;;
	--qemu-only) run_host=0 ;;
	-T | --boot | -G | --group | --tap | --junit)
		{ [ $# -ge 2 ] && [ -n "$2" ]; } || die "$1 needs a value (see --help)"
		case $1 in
		-T | --boot) want_boots+=("$2") run_host=0 ;;
		-G | --group) want_groups+=("$2") run_host=0 ;;
		--tap) tap=$2 ;;
		--junit) junit=$2 ;;
		esac
		shift
		;;
	--list) list=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
[ "$run_host" = 1 ] || [ "$run_qemu" = 1 ] || die "--host-only with --qemu-only, --boot or --group runs nothing"

# ---- tests/qemu/boots.conf ---------------------------------------------------
# One index per boot; expectations and checks are newline-separated lists.
b_name=() b_groups=() b_image=() b_flags=() b_cmdline=() b_has_cmdline=() b_timeout=()
b_status=() b_keys=() b_stdin=() b_runs=() b_records=() b_expect=() b_check=()
parse_boots() {
	local key value i=-1 ln=0
	[ -r "$boots_conf" ] || die "cannot read $boots_conf"
	while IFS= read -r line || [ -n "$line" ]; do
		ln=$((ln + 1))
		[[ ! $line =~ ^[[:space:]]*(#|$) ]] || continue
		read -r key value <<<"$line"
		if [ "${line:0:1}" != " " ] && [ "${line:0:1}" != $'\t' ]; then
			{ [ "$key" = boot ] && [ -n "$value" ]; } || die "$boots_conf:$ln: expected 'boot NAME', got '$line'"
			case $value in *[!a-z0-9-]*) die "$boots_conf:$ln: boot name '$value': use a-z, 0-9 and -" ;; esac
			for n in "${b_name[@]}"; do [ "$n" != "$value" ] || die "$boots_conf:$ln: boot '$value' twice"; done
			i=$((i + 1))
			b_name[i]=$value b_groups[i]="" b_image[i]="" b_flags[i]="" b_cmdline[i]="" b_has_cmdline[i]=0
			b_timeout[i]="" b_status[i]="" b_keys[i]="" b_stdin[i]="" b_runs[i]=1 b_records[i]=no
			b_expect[i]="" b_check[i]=""
			continue
		fi
		[ "$i" -ge 0 ] || die "$boots_conf:$ln: '$key' before the first 'boot NAME'"
		case $key in
		groups) b_groups[i]=$value ;;
		image)
			case $value in iso | img | nokernel | lockdep) b_image[i]=$value ;; *) die "$boots_conf:$ln: image must be iso, img, nokernel or lockdep" ;; esac
			;;
		flags) b_flags[i]=$value ;;
		cmdline) b_cmdline[i]=$value b_has_cmdline[i]=1 ;;
		timeout | status | runs)
			case $value in '' | *[!0-9]*) die "$boots_conf:$ln: $key needs a number" ;; esac
			case $key in timeout) b_timeout[i]=$value ;; status) b_status[i]=$value ;; runs) b_runs[i]=$value ;; esac
			;;
		keys) b_keys[i]=$value ;;
		stdin) b_stdin[i]=$value ;;
		records)
			case $value in yes | no) b_records[i]=$value ;; *) die "$boots_conf:$ln: records must be yes or no" ;; esac
			;;
		expect) b_expect[i]+=$value$'\n' ;;
		check)
			declare -F "check_$(echo "${value%% *}" | tr - _)" >/dev/null ||
				die "$boots_conf:$ln: no check '${value%% *}' in tests/qemu/checks.sh"
			b_check[i]+=$value$'\n'
			;;
		*) die "$boots_conf:$ln: unknown key '$key'" ;;
		esac
	done <"$boots_conf"
	for ((i = 0; i < ${#b_name[@]}; i++)); do
		{ [ -n "${b_image[i]}" ] && [ -n "${b_timeout[i]}" ] && [ -n "${b_status[i]}" ]; } ||
			die "$boots_conf: boot '${b_name[i]}' needs image, timeout and status"
	done
}
# shellcheck source=SCRIPTDIR/../tests/qemu/checks.sh
. tests/qemu/checks.sh
parse_boots

# The boots to run: all, or those named or in a named group (file order).
selected=()
if [ "$run_qemu" = 1 ] || [ "$list" = 1 ]; then
	for w in "${want_boots[@]}"; do
		found=0
		for n in "${b_name[@]}"; do [ "$n" != "$w" ] || found=1; done
		[ "$found" = 1 ] || die "no boot named '$w' in $boots_conf (see --list)"
	done
	for g in "${want_groups[@]}"; do
		found=0
		for ((i = 0; i < ${#b_name[@]}; i++)); do
			case " all ${b_groups[i]} " in *" $g "*) found=1 ;; esac
		done
		[ "$found" = 1 ] || die "no group '$g' in $boots_conf (see --list)"
	done
	for ((i = 0; i < ${#b_name[@]}; i++)); do
		take=0
		[ ${#want_boots[@]} -gt 0 ] || [ ${#want_groups[@]} -gt 0 ] || take=1
		for w in "${want_boots[@]}"; do [ "$w" != "${b_name[i]}" ] || take=1; done
		for g in "${want_groups[@]}"; do
			case " all ${b_groups[i]} " in *" $g "*) take=1 ;; esac
		done
		[ "$take" = 0 ] || selected+=("$i")
	done
fi

if [ "$list" = 1 ]; then
	for i in "${selected[@]}"; do
		printf '%-14s %-16s %s\n' "${b_name[i]}" "${b_groups[i]:--}" \
			"$([ "${b_has_cmdline[i]}" = 1 ] && echo "${b_cmdline[i]}" || echo "(image default)")"
	done
	exit 0
fi

# ---- results: TAP lines, counted -------------------------------------------
mkdir -p "$logs" "$(dirname "$tap")" "$(dirname "$junit")"
num=0 passed=0 failed=0 skipped=0
failures=()
# Written under a name of its own and renamed at the end: a run never
# leaves a half-written TAP file, nor mixes its lines with another run's.
tap_part=$tap.$$.part
: >"$tap_part"
emit() {
	printf '%s\n' "$1"
	printf '%s\n' "$1" >>"$tap_part"
}
# A description may not hold a bare '#' (it would start a directive).
desc() { printf '%s' "${1//#/\\#}" | tr '\r\n' '  '; }
# What a failed boot printed, on stderr, so that a CI log shows why (the
# logs themselves stay on the machine that ran them): its FAIL and panic
# lines, its last lines and, if it timed out, where its CPUs were, for the
# first five logs the failures name.
show_failed_logs() {
	local log shown=0
	printf '%s\n' "$@" | grep -o 'build/test-logs/[^ ,)]*\.log' | awk '!seen[$0]++' |
		while read -r log && [ "$shown" -lt 5 ]; do
			[ -f "$log" ] || continue
			shown=$((shown + 1))
			echo "--- $log: its FAIL/panic lines, then its last 12 lines"
			grep -a -E '^(FAIL|not ok)|panic|PANIC' "$log" | head -20
			echo "..."
			tail -n 12 "$log" | tr -d '\r'
			# a timeout: where its CPUs were (scripts/hang-dump.py)
			grep -a '^hang-dump: ' "$log.err" 2>/dev/null || true
		done
}
pass() {
	num=$((num + 1)) passed=$((passed + 1))
	emit "ok $num - $(desc "$1")"
}
skip() {
	num=$((num + 1)) skipped=$((skipped + 1))
	emit "ok $num - $(desc "$1") # SKIP $(desc "${2:-}")"
}
fail() {
	num=$((num + 1)) failed=$((failed + 1))
	failures+=("$1${2:+: $2}")
	emit "not ok $num - $(desc "$1${2:+: $2}")"
}

# Turns one suite's TAP output into results; a suite that exits non-zero
# without reporting a failure still counts as one failure, one that skips
# as a whole ("1..0 # SKIP why") as one skip.
tap_suite() {
	local name=$1 log=$2 status=$3 line n_fail=0 n_any=0 rest why whole=""
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"1..0"*"# SKIP"* | "1..0"*"# skip"*) whole=${line#*# [Ss][Kk][Ii][Pp]} ;;
		"Bail out!"*) n_any=$((n_any + 1)) n_fail=$((n_fail + 1)); fail "$name" "$line" ;;
		"not ok"*) n_any=$((n_any + 1)) n_fail=$((n_fail + 1)); fail "$name: ${line#not ok }" ;;
		"ok "*"# SKIP"* | "ok "*"# skip"*)
			n_any=$((n_any + 1))
			rest=${line#ok } why=${rest#*# [Ss][Kk][Ii][Pp]}
			rest=${rest%%# [Ss][Kk][Ii][Pp]*}
			skip "$name: ${rest%"${rest##*[! ]}"}" "${why# }"
			;;
		"ok "*) n_any=$((n_any + 1)); pass "$name: ${line#ok }" ;;
		esac
	done <"$log"
	if [ "$status" -ne 0 ] && [ "$n_fail" -eq 0 ]; then
		fail "$name" "exited with status $status (log: $log)"
	elif [ "$n_any" -eq 0 ] && [ -n "$whole" ]; then
		skip "$name" "${whole# }"
	elif [ "$n_any" -eq 0 ]; then
		fail "$name" "reported no test (log: $log)"
	fi
}

# ---- progress on stderr ------------------------------------------------------
# Every suite and boot is one item; the ETA adds up the items left, each at
# its duration in the previous run (build/test-logs/durations.tsv), or at the
# mean of this run's items so far when it has none.
items=()
declare -A prev_secs=()
t0=$SECONDS item_k=0 done_secs=0
if [ -r "$logs/durations.tsv" ]; then
	while IFS=$'\t' read -r k v; do
		case $v in '' | *[!0-9]*) ;; *) prev_secs[$k]=$v ;; esac
	done <"$logs/durations.tsv"
fi
durations_new=$logs/durations.$$.new # this run's; merged at the end
: >"$durations_new"
hms() { if [ "$1" -ge 60 ]; then printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); else printf '%ds' "$1"; fi; }
# A boot's progress line: counted and shown, but not the item the host side
# is running (item_end and the heartbeat read item_label and item_t; a boot's
# time is its .secs file), so a boot may start in the middle of a suite.
item_progress() { # item_progress LABEL [WHAT]
	local j left=0 unknown=0 eta
	item_k=$((item_k + 1))
	for ((j = item_k - 1; j < ${#items[@]}; j++)); do
		if [ -n "${prev_secs[${items[j]}]:-}" ]; then
			case ${items[j]} in
			qemu/*) left=$((left + prev_secs[${items[j]}] / ${emulators:-1})) ;; # boots run side by side
			*) left=$((left + prev_secs[${items[j]}])) ;;
			esac
		else
			unknown=$((unknown + 1))
		fi
	done
	if [ "$unknown" -gt 0 ] && [ "$item_k" -gt 1 ]; then
		left=$((left + unknown * done_secs / (item_k - 1)))
	elif [ "$unknown" -gt 0 ]; then
		left=-1
	fi
	if [ "$left" -ge 0 ]; then eta="ETA $(hms "$left")"; else eta="ETA ?"; fi
	printf '[%d/%d] %s%s (elapsed %s, %s)\n' "$item_k" "${#items[@]}" "$1" "${2:+: $2}" \
		"$(hms $((SECONDS - t0)))" "$eta" >&2
}
item_start() { # item_start LABEL [WHAT]: a host item, which item_end closes
	item_label=$1 item_t=$SECONDS
	item_progress "$@"
}
item_end() {
	local d=$((SECONDS - item_t))
	done_secs=$((done_secs + d))
	printf '%s\t%s\n' "$item_label" "$d" >>"$durations_new"
}
# While an item runs, a background ticker says every 30 s which it is.  The
# item itself runs in the foreground: a background job of a script ignores
# SIGINT, which would break Ctrl-C for it and for the tests that send one.
hb_pid=""
heartbeat_start() {
	(
		t=0
		while sleep 1; do
			t=$((t + 1))
			[ $((t % 30)) -ne 0 ] || printf '      ... %s still running (%s)\n' "$item_label" "$(hms "$t")" >&2
		done
	) &
	hb_pid=$!
}
heartbeat_stop() {
	[ -z "$hb_pid" ] || { kill "$hb_pid" 2>/dev/null; wait "$hb_pid" 2>/dev/null; }
	hb_pid=""
}
trap 'heartbeat_stop; rm -f "$tap_part" "$durations_new" "${untracked_before:-}"' EXIT

# ---- host suites ---------------------------------------------------------------
host_suites=()
item_of() { case $1 in tests/sh/*) echo "sh/$(basename "$1" .sh)" ;; *) echo "host/$(basename "$1")" ;; esac; }
if [ "$run_host" = 1 ]; then
	for t in ${HOST_TESTS:-}; do host_suites+=("$t"); done
	for t in tests/sh/*.sh; do
		# stray-files runs last, against the snapshot taken before the first suite
		[ ! -x "$t" ] || [ "$t" = tests/sh/stray-files.sh ] || host_suites+=("$t")
	done
	for t in "${host_suites[@]}"; do items+=("$(item_of "$t")"); done
	items+=(reproducible-images shellcheck)
fi
for i in "${selected[@]}"; do items+=("qemu/${b_name[i]}"); done
[ "$run_host" = 0 ] || items+=(sh/stray-files)

# Runs host suite T with its output in LOG and returns its status.  Boots
# keep starting while it runs: a boot that ends during a long suite (report,
# screen) left its emulator idle until the suite ended, 124 s in all in one
# run.  The suite runs as a background job, which a script starts with
# SIGINT and SIGQUIT ignored; env gives them back their default (a suite
# that sends Ctrl-C to its own children needs it, and Ctrl-C on the
# terminal still reaches it with the rest of the process group).
suite_pid=""
run_suite() {
	env --default-signal=INT,QUIT "$1" >"$2" 2>&1 </dev/null &
	suite_pid=$!
	while kill -0 "$suite_pid" 2>/dev/null; do
		reap_boots
		launch_boots $((emulators - 1))
		sleep 0.5
	done
	wait "$suite_pid"
	local st=$?
	suite_pid=""
	return "$st"
}

host_tests() {
	local t name log st
	for t in "${host_suites[@]}"; do
		case $t in
		tests/sh/*) name=$(basename "$t" .sh) log="$logs/sh-$name.log" ;;
		*) name=$(basename "$t") log="$logs/host-$name.log" ;;
		esac
		reap_boots
		launch_boots $((emulators - 1))
		item_start "$(item_of "$t")"
		if [ ! -x "$t" ]; then
			skip "$name" "$t not built (make host-all)"
		else
			heartbeat_start
			run_suite "$t" "$log"
			st=$?
			heartbeat_stop
			tap_suite "$name" "$log" "$st"
		fi
		item_end
	done

	# The image recipe is reproducible: same inputs, same bytes.
	reap_boots
	launch_boots $((emulators - 1))
	item_start reproducible-images
	local r1 r2 d
	if [ ! -r build/boot/BOOTX64.EFI ] || [ ! -r build/kernel.esp.elf ]; then
		skip "reproducible ISO and disk image" "build/boot/BOOTX64.EFI or build/kernel.esp.elf missing (make all)"
	else
		r1=$(mktemp -d) r2=$(mktemp -d)
		for d in "$r1" "$r2"; do
			# the initramfs too: packed from a copy of iso/rootfs with fresh mtimes each time
			cp -r iso/rootfs "$d/rootfs" && touch "$d/rootfs/etc/motd" &&
				scripts/mkcpio.py "$d/initrd.cpio" --dir "$d/rootfs" &&
				iso/mkimage.sh esp "$d/esp.img" --efi build/boot/BOOTX64.EFI --kernel build/kernel.esp.elf \
				--cmdline-file iso/cmdline.txt --initrd "$d/initrd.cpio" >/dev/null 2>&1 &&
				iso/mkimage.sh iso "$d/a.iso" "$d/esp.img" >/dev/null 2>&1 &&
				iso/mkimage.sh img "$d/a.img" "$d/esp.img" >/dev/null 2>&1
		done
		if [ -s "$r1/a.iso" ] && cmp -s "$r1/a.iso" "$r2/a.iso" && cmp -s "$r1/a.img" "$r2/a.img"; then
			pass "reproducible ISO and disk image"
		else
			fail "reproducible images" "two builds of the same inputs differ (or failed)"
		fi
		rm -rf "$r1" "$r2"
	fi
	item_end

	reap_boots
	launch_boots $((emulators - 1))
	item_start shellcheck
	log="$logs/shellcheck.log"
	if ! command -v shellcheck >/dev/null; then
		skip shellcheck "shellcheck not installed (scripts/deps.sh)"
	elif shellcheck -x scripts/*.sh iso/*.sh tests/sh/*.sh tests/sh/lib/*.sh tests/sh/ltp/*.sh tests/qemu/*.sh .ci/run >"$log" 2>&1; then
		pass "shellcheck"
	else
		fail "shellcheck" "see $log"
	fi
	item_end
}

# ---- QEMU boots ----------------------------------------------------------------
kernel_records() {
	local name=$1 log=$2 n=0 tname result detail
	while IFS=$'\t' read -r tname result detail; do
		n=$((n + 1))
		case $result in
		pass) pass "kernel/$name: $tname" ;;
		skip) skip "kernel/$name: $tname" "$detail" ;;
		*) fail "kernel/$name: $tname" "$detail" ;;
		esac
	done < <(tests/qemu/records.py tests "$log")
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

# What a boot needs before it can run; prints why not, if not.
boot_missing() { # boot_missing I: why boot I cannot run here, or nothing
	local img f q=${QEMU:-qemu-system-x86_64} major
	img=$(boot_image "$1")
	[ -r "$img" ] || { echo "$img missing (make all build/nokernel.iso)"; return; }
	command -v "$q" >/dev/null || { echo "$q not installed (scripts/deps.sh)"; return; }
	for f in "${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}" "${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}"; do
		[ -r "$f" ] || { echo "firmware $f missing (scripts/deps.sh)"; return; }
	done
	# run-qemu.sh --x2apic's choice of QEMU, looked at the same way
	if [[ " ${b_flags[$1]} " == *" --x2apic "* ]] && [ -z "${QEMU_X2APIC:-}" ]; then
		major=$("$q" --version 2>/dev/null | sed -n '1s/.*version \([0-9]*\)\..*/\1/p')
		[ "${major:-0}" -ge 10 ] || [ -x build/qemu-backport/qemu-system-x86_64 ] ||
			echo "no QEMU whose TCG has x2APIC ($q is ${major:-?}.x; scripts/qemu-backport.sh fetches 10.0)"
	fi
}

# boot_one LOG INPUT ARGS...: one run-qemu.sh, INPUT (if any) on its stdin.
boot_one() {
	local log=$1 input=$2
	shift 2
	if [ -n "$input" ]; then
		printf '%s' "$input" | scripts/run-qemu.sh --log "$log" "$@" >/dev/null 2>"$log.err"
	else
		scripts/run-qemu.sh --log "$log" "$@" </dev/null >/dev/null 2>"$log.err"
	fi
}

# ---- QEMU boots, several at once ----------------------------------------------
# Boots run in the background, up to $emulators emulators at a time (one per core:
# TEST_JOBS, default the number of CPUs); a boot takes a lane per run, and
# boots with three or more CPUs run one at a time (boot_wide).  While the host suites run in
# the foreground the boots get one core fewer.  Results are judged in boots.conf order, so the TAP does not depend
# on which boot finishes first.
emulators=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $emulators in '' | *[!0-9]* | 0) die "TEST_JOBS must be a positive number, got '$emulators'" ;; esac
# TEST_SMP=N: every boot whose stanza names no --smp runs with N CPUs (the
# sweep that checks the tests pass on several CPUs, not part of make test).
case ${TEST_SMP:-1} in *[!0-9]* | 0) die "TEST_SMP must be a positive number, got '$TEST_SMP'" ;; esac
declare -A lane_pid=() lane_t0=()
lanes_used=0 wide_running=0 next_launch=0

boot_args() { # boot_args I: run-qemu.sh's arguments for boot I, in the array args
	local i=$1 keys
	local -a flags
	read -ra flags <<<"${b_flags[i]}"
	args=(--iso "$(boot_image "$i")" --timeout "${b_timeout[i]}" "${flags[@]}")
	if [ -n "${TEST_SMP:-}" ] && [[ " ${b_flags[i]} " != *" --smp "* ]]; then
		args+=(--smp "$TEST_SMP")
	fi
	[ "${b_has_cmdline[i]}" = 0 ] || args+=(--cmdline "${b_cmdline[i]}")
	if [ -n "${b_keys[i]}" ]; then
		printf -v keys '%b' "${b_keys[i]}"
		args+=(--keys "$keys")
	fi
}

# A boot's lanes: one per run.  TCG runs each vCPU on a host thread, but a
# vCPU with nothing to run halts, and since an AP's tick over a lone task and
# the RNG's calls left the big kernel lock, a four-CPU boot keeps about one
# core busy: usb used 87 s of CPU in 71 s alone, and beside a one-CPU boot it
# took 72 s (scale 29 s against 22 s alone, smp8 29 against 26, smp-cpu-up
# 20 against 17; the one-CPU boot beside each as long as alone).  Two such
# boots side by side would put eight vCPUs on two cores, so a boot with three
# or more CPUs is "wide" and wide boots run one at a time.  (Before those
# changes a four-CPU boot beside another took 2.6 to 4.5 times as long as
# alone, its vCPUs spinning for the lock while the host ran the other
# emulator, and each took every core.)  --deterministic is never wide:
# -icount runs every vCPU round robin on one thread.
boot_wide() {
	local -a flags words
	local k w smp=${TEST_SMP:-1}
	read -ra flags <<<"${b_flags[$1]}"
	for ((k = 0; k < ${#flags[@]}; k++)); do
		case ${flags[k]} in
		--deterministic) return 1 ;;
		--smp) smp=${flags[k + 1]:-1} ;;
		esac
	done
	read -ra words <<<"${b_cmdline[$1]}"
	for w in "${words[@]}"; do
		case $w in
		cpus=[0-9]* | nr_cpus=[0-9]*) [ "${w#*=}" -ge "$smp" ] || smp=${w#*=} ;;
		esac
	done
	[ "$smp" -ge 3 ]
}

# The order boots start in: boots.conf's, but those that take every lane
# (runs N) last, one after the other.  Mixed, each would wait for the lanes
# to drain, and a lane would idle through every such wait.  A wide boot waits
# while another runs, and the boots behind it start meanwhile.  Results are
# still judged in boots.conf order.  Each boot's lanes and width are worked
# out once (launch_boots looks at the waiting ones every half second).
b_need=() b_wide=() launch_order=()
for i in "${selected[@]}"; do
	b_need[i]=${b_runs[i]}
	[ "${b_need[i]}" -le "$emulators" ] || b_need[i]=$emulators
	b_wide[i]=0
	! boot_wide "$i" || b_wide[i]=1
done
for i in "${selected[@]}"; do [ "${b_need[i]}" -ge "$emulators" ] || launch_order+=("$i"); done
for i in "${selected[@]}"; do [ "${b_need[i]}" -lt "$emulators" ] || launch_order+=("$i"); done

boot_log() { # boot_log I R: the log of run R (1-based) of boot I
	if [ "${b_runs[$1]}" = 1 ]; then echo "$logs/qemu-${b_name[$1]}.log"; else echo "$logs/qemu-${b_name[$1]}-$2.log"; fi
}

# Starts boot I in the background; its runs write their exit statuses to
# LOG.status, and the boot its seconds to qemu-NAME.secs when all are done.
launch_boot() {
	local i=$1 name=${b_name[$1]} input="" r what
	local -a args
	what="${b_cmdline[i]:-default command line}, timeout ${b_timeout[i]}s"
	[ "${b_runs[i]}" = 1 ] || what+=", ${b_runs[i]} runs in parallel"
	item_progress "qemu/$name" "booting ($what)"
	rm -f "$logs/qemu-$name.secs"
	for ((r = 1; r <= b_runs[i]; r++)); do rm -f "$(boot_log "$i" "$r").status"; done
	boot_args "$i"
	[ -z "${b_stdin[i]}" ] || printf -v input '%b' "${b_stdin[i]}"
	(
		t=$SECONDS
		for ((r = 1; r <= b_runs[i]; r++)); do
			log=$(boot_log "$i" "$r")
			(
				boot_one "$log" "$input" "${args[@]}"
				echo $? >"$log.status"
			) &
		done
		wait
		echo $((SECONDS - t)) >"$logs/qemu-$name.secs"
	) &
	lane_pid[$i]=$! lane_t0[$i]=$SECONDS
	lanes_used=$((lanes_used + b_need[i])) wide_running=$((wide_running + b_wide[i]))
}

# Starts the waiting boots, in launch order, while they fit in CAP
# emulators (a boot needing more than CAP starts alone once nothing else
# runs).  A wide boot waits while another wide one runs, and while a host
# suite runs (CAP is one short then): beside a suite, usb took 94 s instead
# of 72.  The boots behind it may start meanwhile.  next_launch: the first
# boot not yet started.
launch_boots() {
	local cap=$1 k i why
	[ "$cap" -gt 0 ] || return 0
	for ((k = next_launch; k < ${#launch_order[@]}; k++)); do
		i=${launch_order[k]}
		[ -z "${lane_pid[$i]:-}" ] || continue
		if [ "$lanes_used" -gt 0 ] && [ $((lanes_used + b_need[i])) -gt "$cap" ]; then break; fi
		[ "${b_wide[i]}" = 0 ] || { [ "$wide_running" = 0 ] && [ "$cap" = "$emulators" ]; } || continue
		why=$(boot_missing "$i")
		if [ -n "$why" ]; then
			item_progress "qemu/${b_name[i]}" "skipped: $why"
			lane_pid[$i]=skipped
		else
			launch_boot "$i"
		fi
	done
	while [ "$next_launch" -lt "${#launch_order[@]}" ] && [ -n "${lane_pid[${launch_order[next_launch]}]:-}" ]; do
		next_launch=$((next_launch + 1))
	done
}

boot_image() {
	case ${b_image[$1]} in
	iso) echo build/aslrbench.iso ;;
	img) echo build/aslrbench.img ;;
	nokernel) echo build/nokernel.iso ;;
	lockdep) echo build/lockdep/aslrbench.iso ;;
	esac
}

# Frees the emulators of the boots that have ended.
reap_boots() {
	local i
	for i in "${!lane_pid[@]}"; do
		case ${lane_pid[$i]} in skipped | reaped) continue ;; esac
		# the .secs file is the boot's last act (kill -0 alone would see a zombie)
		[ -e "$logs/qemu-${b_name[i]}.secs" ] || ! kill -0 "${lane_pid[$i]}" 2>/dev/null || continue
		wait "${lane_pid[$i]}" 2>/dev/null
		lane_pid[$i]=reaped
		lanes_used=$((lanes_used - b_need[i])) wide_running=$((wide_running - b_wide[i]))
	done
}

# Waits for boot I, starting others as emulators free up; every 30 s says
# which boots are still running.
await_boot() {
	local i=$1 t=$SECONDS j running
	while :; do
		reap_boots
		launch_boots "$emulators"
		case ${lane_pid[$i]:-} in skipped | reaped) return ;; esac
		sleep 0.5
		if [ $(((SECONDS - t) % 30)) -eq 29 ] && [ "$SECONDS" != "${last_beat:-}" ]; then
			last_beat=$SECONDS running=""
			for j in "${!lane_pid[@]}"; do
				case ${lane_pid[$j]} in skipped | reaped) ;; *) running+=" ${b_name[j]} ($(hms $((SECONDS - lane_t0[$j]))))" ;; esac
			done
			printf '      ... still running:%s\n' "$running" >&2
		fi
	done
}

# Stops every boot still running (Ctrl-C, kill): run-qemu.sh stops its QEMU on TERM.
kill_tree() {
	local c
	for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
	kill -TERM "$1" 2>/dev/null
}
stop_boots() {
	local i
	for i in "${!lane_pid[@]}"; do
		case ${lane_pid[$i]} in skipped | reaped) ;; *) kill_tree "${lane_pid[$i]}" ;; esac
	done
}
trap '[ -z "$suite_pid" ] || kill_tree "$suite_pid"; stop_boots; exit 130' INT TERM

# The results of boot I, once it has ended.
judge_boot() {
	local i=$1 name=${b_name[$1]} r log st line check_name what secs
	local -a args
	await_boot "$i"
	if [ "${lane_pid[$i]}" = skipped ]; then
		skip "qemu/$name" "$(boot_missing "$i")"
		return
	fi
	boot_logs=()
	for ((r = 1; r <= b_runs[i]; r++)); do
		log=$(boot_log "$i" "$r")
		boot_logs+=("$log")
		st=$(cat "$log.status" 2>/dev/null) || st=""
		what="exit status"
		[ "${b_runs[i]}" = 1 ] || what="run $r exit status"
		if [ "$st" = "${b_status[i]}" ]; then
			pass "qemu/$name: $what $st"
		else
			fail "qemu/$name: $what" "run-qemu.sh exited ${st:-?}, expected ${b_status[i]} (log: $log, stderr: $log.err)"
		fi
	done
	# shellcheck disable=SC2034 # read by the checks (tests/qemu/checks.sh)
	boot=$name
	for log in "${boot_logs[@]}"; do
		[ "${b_records[i]}" = no ] || kernel_records "$name" "$log"
		while IFS= read -r line; do
			[ -z "$line" ] || expect_text "qemu/$name" "$log" "$line"
		done <<<"${b_expect[i]}"
	done
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		read -ra args <<<"$line"
		check_name=$(echo "${args[0]}" | tr - _)
		"check_$check_name" "${args[@]:1}"
	done <<<"${b_check[i]}"
	secs=$(cat "$logs/qemu-$name.secs" 2>/dev/null) || secs=0
	printf '%s\t%s\n' "qemu/$name" "$secs" >>"$durations_new"
	done_secs=$((done_secs + secs))
}

# Which untracked files the tree holds before any test runs: a test that
# writes into the tree (rather than build/ or a temporary directory) leaves a
# file this list lacks, which tests/sh/stray-files.sh reports at the end.
untracked_before=$logs/untracked-before.$$.txt # per run: test-driver.sh runs test.sh inside test.sh
tests/sh/stray-files.sh --snapshot "$untracked_before"

emit "TAP version 13"
[ "$run_host" = 0 ] || host_tests
for i in "${selected[@]}"; do judge_boot "$i"; done
if [ "$run_host" = 1 ]; then
	item_start sh/stray-files
	tests/sh/stray-files.sh --since "$untracked_before" >"$logs/sh-stray-files.log" 2>&1 </dev/null
	tap_suite stray-files "$logs/sh-stray-files.log" $?
	item_end
fi

# The durations of a partial run refresh only the items it ran.
touch "$logs/durations.tsv"
awk -F '\t' 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' \
	"$durations_new" "$logs/durations.tsv" >"$logs/durations.$$.tmp"
mv "$logs/durations.$$.tmp" "$logs/durations.tsv"
rm -f "$durations_new"

if [ ${#failures[@]} -gt 0 ]; then
	emit "# failures:"
	for f in "${failures[@]}"; do emit "#   $(desc "$f")"; done
	show_failed_logs "${failures[@]}" >&2
fi
emit "1..$num"
mv "$tap_part" "$tap"
printf '[done] %d tests in %s\n' "$num" "$(hms $((SECONDS - t0)))" >&2
if ! scripts/tap2junit.py "$tap" "$junit"; then
	echo "test.sh: could not write $junit" >&2
	failed=$((failed + 1))
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
