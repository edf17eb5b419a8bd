#!/usr/bin/env bash
# TAP: LTP (the Linux Test Project), unmodified, as a peer suite.  The tests
# of tests/ltp/tests.txt are built static (glibc) from the LTP source in
# LTP_SRC (tests/sh/ltp/build.sh, cached in build/ltp/), then run by the same
# runner (tests/sh/ltp/guest.sh) inside Linux 6.12 (scripts/linux-ref.sh)
# and inside aslrbench (aslr_rules=6.x), with LTP_SMP CPUs each.
#
# Per test: a test that does not pass under 6.12 is a skip naming its 6.12
# result; one that passes there must pass under aslrbench, or be listed in
# tests/ltp/known-fail.txt with its reason (then a skip).  A listed test that
# passes fails (the list must shrink), unless its reason starts "racy:".
# A boot of aslrbench that dies (panic, hang) fails, naming the test that
# was running; the tests after it run in a new boot.  The share of the tests
# passing under 6.12 that pass under aslrbench and the totals are TAP
# comments and build/test-logs/ltp-summary-smpN.txt (logs: ltp-*.log).
#
# Environment:
#   LTP_SRC          an LTP tarball or checkout; none: every check skips,
#                    saying how to get one
#   LTP_SMP          CPUs of both kernels (default 2)
#   LTP_TIMEOUT      seconds a test may run before it counts as hung (60;
#                    signal06 took 34 s under 6.12 on a loaded host)
#   LTP_RUNTIME_MUL  LTP's own: scales runtime-bound tests (default 0.02)
#   LTP_BATCH_MB     binaries per boot at most (default 160); a boot gets
#                    --memory 4 times that plus 512 MB
#   LTP_KERNELS      which to run (default "6.12 aslrbench")
#   LTP_REF_FRESH=1  run 6.12 again rather than take its kept results
# Usage: tests/sh/ltp.sh   (make ltp LTP_SRC=...)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
cd "$top" || exit 1
list=tests/ltp/tests.txt
known=tests/ltp/known-fail.txt
logs=$top/build/test-logs
mkdir -p "$logs"
smp=${LTP_SMP:-2} per_test=${LTP_TIMEOUT:-60} runtime_mul=${LTP_RUNTIME_MUL:-0.02}
batch_mb=${LTP_BATCH_MB:-160} kernels=${LTP_KERNELS:-6.12 aslrbench}

usage_error() {
	echo "ltp.sh: $*" >&2
	exit 2
}
for v in LTP_SMP:"$smp" LTP_TIMEOUT:"$per_test" LTP_BATCH_MB:"$batch_mb"; do
	case ${v#*:} in '' | *[!0-9]* | 0) usage_error "${v%%:*} must be a positive whole number, not '${v#*:}'" ;; esac
done
case $runtime_mul in '' | *[!0-9.]*) usage_error "LTP_RUNTIME_MUL must be a number, not '$runtime_mul'" ;; esac
for k in $kernels; do
	case $k in 6.12 | aslrbench) ;; *) usage_error "LTP_KERNELS: '$k' is neither 6.12 nor aslrbench" ;; esac
done
tag=smp$smp
summary=$logs/ltp-summary-$tag.txt

whole_skip() {
	tap_plan 1
	tap_skip "LTP as a peer suite" "$1"
	tap_done
	exit
}

# ---- prerequisites and the build -----------------------------------------------
[ -n "${LTP_SRC:-}" ] || whole_skip "no LTP source: give LTP_SRC=an LTP tarball or checkout \
(git clone https://github.com/linux-test-project/ltp; the tested commit is 695827725f4f), \
e.g. make ltp LTP_SRC=../ltp"
{ [ -r build/initrd.cpio ] && [ -r build/aslrbench.iso ]; } ||
	whole_skip "build/initrd.cpio or build/aslrbench.iso missing (make all)"
command -v "${QEMU:-qemu-system-x86_64}" >/dev/null || whole_skip "QEMU missing (scripts/deps.sh)"
for t in autoconf automake pkg-config gcc make; do
	command -v "$t" >/dev/null || whole_skip "$t missing (scripts/deps.sh)"
done
# the 6.12 package: its kernel, and its .config for both kernels' tests
fetch_err=$(scripts/linux-ref.sh --fetch 2>&1 >/dev/null) ||
	whole_skip "the Linux 6.12 kernel package cannot be fetched: $(tail -n 1 <<<"$fetch_err")"
kconfig=$(find build/linux-ref/root/boot -name "config-*" 2>/dev/null | sort | head -n 1)
[ -r "$kconfig" ] || whole_skip "no config-* in build/linux-ref/root/boot/ (delete build/linux-ref to fetch again)"

t0=$SECONDS
cache=$(tests/sh/ltp/build.sh "$LTP_SRC" "$list" 2>"$logs/ltp-build.log")
st=$?
if [ "$st" != 0 ]; then
	tap_fail "ltp: build the listed tests from LTP_SRC=$LTP_SRC" "$(grep '^ltp-build: ' "$logs/ltp-build.log" | tail -n 3)"
	tap_done
	exit "$st"
fi
# the listed tests, "TAG COMMAND ARGS", in order
mapfile -t tests < <(sed -e 's/[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' "$list")
tap_pass "ltp: build ${#tests[@]} tests from LTP_SRC ($(basename "$cache"), $((SECONDS - t0)) s)"

# ---- batches: consecutive tests, their directories' binaries split evenly -------
# into as few boots as keep each within batch_mb; batch K: $run/batch-K.txt,
# its binaries hard-linked in batch-K.bin/.
declare -A key_of=() size_of=()
while read -r c d; do key_of[$c]=${d//\//_}; done <"$cache/dirs.txt"
all_mb=0
for line in "${tests[@]}"; do
	read -r _ cmd _ <<<"$line"
	k=${key_of[$cmd]}
	[ -z "${size_of[$k]:-}" ] || continue
	size_of[$k]=$(du -sm "$cache/bin/$k" | cut -f1)
	all_mb=$((all_mb + size_of[$k]))
done
nb=$(((all_mb + batch_mb - 1) / batch_mb))
share_mb=$(((all_mb + nb - 1) / nb))
run=$cache/run-$tag
rm -rf "$run"
mkdir -p "$run"
rm -f "$logs"/ltp-*-"$tag"-b*.log "$logs"/ltp-*-"$tag"-b*.log.err
nb=0 used=0
declare -A in_batch=()
for line in "${tests[@]}"; do
	read -r _ cmd _ <<<"$line"
	k=${key_of[$cmd]}
	if [ -z "${in_batch[$k]:-}" ]; then
		if [ "$nb" = 0 ] || [ "$used" -ge "$share_mb" ] || [ $((used + size_of[$k])) -gt "$batch_mb" ]; then
			nb=$((nb + 1)) used=0 in_batch=()
			mkdir -p "$run/batch-$nb.bin"
		fi
		in_batch[$k]=1 used=$((used + size_of[$k]))
		cp -al "$cache/bin/$k/." "$run/batch-$nb.bin/"
	fi
	echo "$line" >>"$run/batch-$nb.txt"
done

# ---- the boots ----------------------------------------------------------------------
# boot KERNEL BIN LIST LOG: one boot running LIST; its status.
boot() {
	local kernel=$1 bin=$2 lst=$3 log=$4 n mem secs
	n=$(wc -l <"$lst")
	mem=$(($(du -sm "$bin" | cut -f1) * 4 + 512))
	# every test at its timeout, and the firmware and boot
	secs=$((n * (per_test + 5) + 120))
	# the tests, the runner and its list; users and groups the tests look up
	# (nobody); Linux 6.12's .config, for the tests that read one
	local -a adds=(--add "$bin=/opt/ltp/testcases/bin" --add tests/sh/ltp/guest.sh=/opt/ltp/guest.sh
		--add "$lst=/opt/ltp/list.txt" --add tests/ltp/passwd=/etc/passwd --add tests/ltp/group=/etc/group
		--add "$kconfig=/opt/ltp/kconfig")
	local cmd="sh /opt/ltp/guest.sh /opt/ltp/list.txt $per_test $runtime_mul"
	if [ "$kernel" = 6.12 ]; then
		scripts/linux-ref.sh --smp "$smp" --memory "$mem" --timeout "$secs" --log "$log" "${adds[@]}" \
			--run "$cmd" >/dev/null 2>"$log.err"
	else
		scripts/run-qemu.sh --smp "$smp" --memory "$mem" --timeout "$secs" --log "$log" "${adds[@]}" \
			--cmdline "aslr_rules=6.x init=/bin/busybox -- $cmd" </dev/null >/dev/null 2>"$log.err"
	fi
}

# marks LOG: the runner's lines, CRs gone, each from its "@@ltp" on.
marks() { tr -d '\r' <"$1" | grep -ao '@@ltp .*'; }

# run_kernel KERNEL: every batch under KERNEL; results in $run/KERNEL.res as
# "TAG STATUS SECS" (STATUS: the runner's, or "died" for the test the kernel
# died in).  A boot that dies is a TAP result naming the test; the batch's
# remaining tests run in a new boot (at most 3 deaths in all).
run_kernel() {
	local kernel=$1 b part log lst deaths=0 running done_n left st
	: >"$run/$kernel.res"
	for ((b = 1; b <= nb; b++)); do
		lst=$run/batch-$b.txt part=1
		while [ -s "$lst" ]; do
			log=$logs/ltp-$kernel-$tag-b$b.$part.log
			t0=$SECONDS
			boot "$kernel" "$run/batch-$b.bin" "$lst" "$log"
			st=$?
			marks "$log" | awk '$2 == "end" { print $3, $4, $5 }' >>"$run/$kernel.res"
			done_n=$(marks "$log" | sed -n 's/^@@ltp done \([0-9]*\)$/\1/p')
			what="ltp: $kernel boot of batch $b part $part ($(wc -l <"$lst") tests, $((SECONDS - t0)) s)"
			if [ -n "$done_n" ]; then
				tap_pass "$what ran to its end"
				break
			fi
			running=$(marks "$log" | awk '$2 == "start" { t = $3 } $2 == "end" { t = "" } END { print t }')
			tap_fail "$what died while ${running:-no test} was running (status $st)" \
				"log: $log" "$(tr -d '\r' <"$log" | tail -n 25)" "$(tail -n 5 "$log.err")"
			[ -z "$running" ] || echo "$running died 0" >>"$run/$kernel.res"
			deaths=$((deaths + 1))
			[ "$deaths" -lt 3 ] || { echo "ltp.sh: $kernel died 3 times; the rest not run" >&2; return; }
			# the tests after the one that was running (all again if none had started)
			left=$run/batch-$b.left-$part.txt
			if [ -n "$running" ]; then
				awk -v t="$running" 'f { print } $1 == t { f = 1 }' "$lst" >"$left"
			else
				awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$run/$kernel.res" "$lst" >"$left"
				[ "$(wc -l <"$left")" -lt "$(wc -l <"$lst")" ] || : >"$left"
			fi
			lst=$left part=$((part + 1))
		done
	done
}

# Linux 6.12's results are kept (build/ltp/ID/ref-KEY/) and used again while
# nothing they depend on changes: the LTP build, the list, the runner and its
# files, the kernel, the CPUs, the timeouts, the batches.  Only complete runs
# (every boot to its end) are kept.  LTP_REF_FRESH=1 runs 6.12 again.
ref_key=$({
	cat "$list" tests/sh/ltp/guest.sh tests/ltp/passwd tests/ltp/group "$kconfig"
	find build/linux-ref/root/boot -name 'vmlinuz-*' | sort
	echo "$smp $per_test $runtime_mul $batch_mb"
} | sha256sum | cut -c1-16)
ref_cache=$cache/ref-$ref_key
for k in $kernels; do
	if [ "$k" = 6.12 ] && [ "${LTP_REF_FRESH:-0}" != 1 ] && [ -r "$ref_cache/6.12.res" ]; then
		cp "$ref_cache/6.12.res" "$run/"
		cp "$ref_cache"/ltp-6.12-*.log "$logs/"
		tap_pass "ltp: 6.12 results of an earlier run with the same inputs ($ref_cache; LTP_REF_FRESH=1 runs 6.12 again)"
		continue
	fi
	failed_before=$tap_failed
	run_kernel "$k"
	if [ "$k" = 6.12 ] && [ "$tap_failed" = "$failed_before" ]; then
		rm -rf "$ref_cache"
		mkdir -p "$ref_cache"
		cp "$run/6.12.res" "$logs"/ltp-6.12-"$tag"-b*.log "$ref_cache/"
	fi
done

# ---- per test ---------------------------------------------------------------------
# class STATUS: its class in $cls (pass fail broken conf crashed hung died
# notrun) and a description in $dsc (the class, and the status when it says
# more); no subshell, as it runs twice per test.
class() {
	case $1 in
	'') cls=notrun ;;
	hung | died) cls=$1 ;;
	*[!0-9]*) cls=broken ;;
	0) cls=pass ;;
	32) cls=conf ;;
	*)
		if [ "$1" -gt 128 ]; then cls=crashed
		elif (($1 & 2)); then cls=broken
		elif (($1 & 5)); then cls=fail
		else cls=broken
		fi
		;;
	esac
	case $cls in
	pass | conf | hung | died | notrun) dsc=$cls ;;
	crashed) dsc="crashed (signal $(($1 - 128)))" ;;
	*) dsc="$cls (exit $1)" ;;
	esac
}
declare -A st_of=() why=() total=()
for k in $kernels; do
	while read -r t s _; do st_of[$k:$t]=$s; done <"$run/$k.res"
done
while read -r t r; do
	case $t in '' | '#'*) continue ;; esac
	why[$t]=$r
done <"$known"
# Each test's output, split once from its kernel's logs: $run/out/KERNEL/TAG.
for k in $kernels; do
	mkdir -p "$run/out/$k"
	cat "$logs"/ltp-"$k"-"$tag"-b*.log 2>/dev/null | tr -d '\r' | awk -v dir="$run/out/$k" '
		/@@ltp start / { sub(/.*@@ltp start /, ""); f = dir "/" $1; print "" >f; next }
		/@@ltp end / { if (f != "") close(f); f = ""; next }
		f != "" { print >>f }'
done
output() { [ ! -r "$run/out/$2/$1" ] || tail -n 25 "$run/out/$2/$1"; }
counted=0 passed=0
printf '%-28s %-18s %-18s %s\n' TEST 6.12 aslrbench KNOWN >"$summary.tmp"
for line in "${tests[@]}"; do
	read -r t _ <<<"$line"
	ref=${st_of[6.12:$t]:-} ab=${st_of[aslrbench:$t]:-}
	class "$ref"
	rc=$cls rd=$dsc
	class "$ab"
	ac=$cls ad=$dsc
	total[6.12:$rc]=$((${total[6.12:$rc]:-0} + 1))
	total[aslrbench:$ac]=$((${total[aslrbench:$ac]:-0} + 1))
	printf '%-28s %-18s %-18s %s\n' "$t" "$rd" "$ad" "${why[$t]:-}" >>"$summary.tmp"
	k=${why[$t]:-}
	case " $kernels " in *" 6.12 "*) ;; *) rc=pass ;; esac
	if [ "$ac" = died ]; then
		tap_fail "ltp: $t" "the aslrbench kernel died while it ran (see the boot's result above)"
	elif [ "$rc" != pass ]; then
		tap_skip "ltp: $t" "6.12: $rd; not counted (aslrbench: $ad)"
		continue
	fi
	[ "$ac" = died ] && { counted=$((counted + 1)); continue; }
	counted=$((counted + 1))
	case $ac:${k:+known} in
	pass:)
		passed=$((passed + 1))
		tap_pass "ltp: $t"
		;;
	pass:known)
		passed=$((passed + 1))
		case $k in
		racy:*) tap_pass "ltp: $t" ;;
		*) tap_fail "ltp: $t" "passes, but $known lists it as failing (${k%%:*}): remove it there" ;;
		esac
		;;
	*:known) tap_skip "ltp: $t" "known: $k (aslrbench: $ad)" ;;
	*) tap_fail "ltp: $t" "aslrbench: $ad, 6.12: pass; its output:" "$(output "$t" aslrbench)" ;;
	esac
done
# entries of the known list that name no listed test
declare -A listed=()
for line in "${tests[@]}"; do listed[${line%% *}]=1; done
for t in "${!why[@]}"; do
	[ -n "${listed[$t]:-}" ] ||
		tap_fail "ltp: $known names $t" "no such test in $list: remove it"
done

totals() {
	local c s=""
	for c in pass fail broken conf crashed hung died notrun; do s+=" $c ${total[$1:$c]:-0}"; done
	echo "$1 (smp $smp):$s"
}
share="?"
[ "$counted" = 0 ] || share=$(awk -v p="$passed" -v n="$counted" 'BEGIN { printf "%.1f", 100 * p / n }')
{
	echo "LTP $(basename "$cache"), ${#tests[@]} tests, $nb batches, LTP_TIMEOUT=$per_test LTP_RUNTIME_MUL=$runtime_mul"
	for k in $kernels; do totals "$k"; done
	echo "share: $passed of the $counted tests passing under 6.12 pass under aslrbench ($share %; target 97 %)"
	echo
	cat "$summary.tmp"
} >"$summary"
rm -f "$summary.tmp"
for k in $kernels; do tap_emit "# ltp $(totals "$k")"; done
tap_emit "# ltp share: $passed of the $counted tests passing under 6.12 pass under aslrbench ($share %; target 97 %); $summary"
tap_done
