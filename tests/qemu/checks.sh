# shellcheck shell=bash
# shellcheck disable=SC2154 # logs, boot and boot_logs come from scripts/test.sh
# The named checks of tests/qemu/boots.conf ("check NAME ARG..."), sourced by
# scripts/test.sh.  check_NAME (dashes become underscores) runs after the
# boot with the boot's name in $boot, its logs in the array boot_logs (one
# per run) and the stanza's arguments as "$@"; it reports through the
# driver's pass / fail / tap_suite.

# An awk check's verdict: pass with PASS_TEXT when it printed nothing, else
# fail NAME with what it printed (its problems, each after a space).
pass_if_empty() {
	local out=$1 pass_text=$2 name=$3
	if [ -z "$out" ]; then
		pass "qemu/$boot: $pass_text"
	else
		fail "qemu/$boot: $name" "${out# }"
	fi
}

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

# The QR codes dumped into DIR (run-qemu.sh --qr-dumps) read back by
# scripts/qr-decode.py (zbarimg): exactly the records the log held when the
# kernel built them ("qr: N records" line), the summary and the boot record
# first, the rest in the order printed.
check_qr_records() {
	local dir=$1 log=${boot_logs[0]} d="$logs/qemu-$boot-qr"
	awk '/^qr: [0-9]+ records/ {exit} {sub(/\r$/, "")} /^@@ / {print}' "$log" >"$d.all"
	{ grep -m1 '^@@ {"type":"summary"' "$d.all"; grep -m1 '^@@ {"type":"boot"' "$d.all"
		awk '/^@@ \{"type":"boot"/ && !b {b=1; next} /^@@ \{"type":"summary"/ && !s {s=1; next} {print}' "$d.all"; } >"$d.want"
	if ! scripts/qr-decode.py --out "$d.got" "$dir" 2>"$d.err"; then
		fail "qemu/$boot: the QR codes decode" "$(cat "$d.err")"
	elif [ -s "$d.want" ] && diff "$d.want" "$d.got" >"$d.diff"; then
		pass "qemu/$boot: the QR codes give the log's $(wc -l <"$d.got") records"
	else
		fail "qemu/$boot: the QR codes give the log's records" "see $d.diff"
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

# paxtest: every paxtest record has the contract's fields, and each
# ARG, TEST=RESULT with '_' for a space in TEST, names a test whose record has
# that result (paxtest/paxtest.py check; RESULT bits>=N: N or more bits).
check_paxtest() {
	local out="$logs/qemu-$boot-paxtest.log" wants=() a
	for a in "$@"; do wants+=("${a//_/ }"); done
	paxtest/paxtest.py check "${boot_logs[0]}" "${wants[@]}" >"$out" 2>&1
	tap_suite paxtest "$out" $?
}

# No line of the console starts with TEXT (a kernel message that belongs in
# the log, not on the console, at the boot's loglevel).
check_absent_line() {
	local text="$*"
	if grep -a -q -F -x -e "$text" <(cut -c "1-${#text}" "${boot_logs[0]}"); then
		fail "qemu/$boot: no console line starts with '$text'" \
			"$(grep -a -n -F -e "$text" "${boot_logs[0]}" | head -3)"
	else
		pass "qemu/$boot: no console line starts with '$text'"
	fi
}

# Between paxtest's "Test results:" and paxtest-records' summary every line
# is paxtest's own (NAME padded to 41 columns, ':', the result) or one of its
# "@@" records: nothing of the kernel's is interleaved.
check_paxtest_clean() {
	local stray
	stray=$(tr -d '\r' <"${boot_logs[0]}" | sed -n '/^Test results:/,/^paxtest-records:/p' |
		grep -a -v -e '^Test results:$' -e '^paxtest-records:' -e '^@@ ' -e '^.\{41\}: ')
	if [ -z "$stray" ]; then
		pass "qemu/$boot: paxtest's output is whole, no kernel line inside it"
	else
		fail "qemu/$boot: paxtest's output is whole" "$(head -5 <<<"$stray")"
	fi
}

# The kernel unpacked every entry of the image's initramfs (build/initrd.cpio,
# counted here from its newc headers) plus EXTRA more (run-qemu.sh --add).
check_initramfs_entries() {
	local extra=${1:-0} n
	n=$(python3 - build/initrd.cpio <<'PY'
import sys
data, i, n = open(sys.argv[1], "rb").read(), 0, 0
while data[i:i + 6] == b"070701":
    namesize, filesize = int(data[i + 94:i + 102], 16), int(data[i + 54:i + 62], 16)
    if data[i + 110:i + 109 + namesize] == b"TRAILER!!!":
        break
    n += 1
    i = (i + 110 + namesize + 3) & ~3
    i = (i + filesize + 3) & ~3
print(n)
PY
)
	if grep -a -q "initramfs: $((n + extra)) entries unpacked" "${boot_logs[0]}"; then
		pass "qemu/$boot: initramfs: all $((n + extra)) entries unpacked"
	else
		fail "qemu/$boot: initramfs: $((n + extra)) entries unpacked" \
			"$(grep -a 'entries unpacked' "${boot_logs[0]}")"
	fi
}

# The kernel's chacha20-batched values after a reseed from its 6.x input
# pool (kernel/test/test_crng.c printed the pool's inputs and the values)
# are what rngtool replay --inputs and the Python reference compute.
check_crng_replay() {
	local log=${boot_logs[0]} in="$logs/qemu-$boot.inputs" want got n tool=build/host/rngtool
	grep -a '^crng-replay: \(mix\|extract\) ' "$log" | tr -d '\r' | sed 's/^crng-replay: //' >"$in"
	want=$(grep -a '^crng-replay: u32 ' "$log" | tr -d '\r' | awk '{print $3}')
	n=$(printf '%s\n' "$want" | grep -c .)
	if [ "$n" -lt 48 ] || ! grep -q '^extract ' "$in"; then
		fail "qemu/$boot: crng replay" "the log has $n values and $(grep -c '^extract ' "$in") extractions"
		return
	fi
	got=$("$tool" replay chacha20-batched --inputs "$in" --count "$n" 2>&1)
	if [ "$got" = "$want" ]; then
		pass "qemu/$boot: rngtool replay --inputs gives the kernel's $n values after its reseed"
	else
		fail "qemu/$boot: rngtool replay --inputs" "differs from the kernel's values ($in)"
	fi
	got=$(python3 tests/ref/crng_ref.py --inputs "$in" "$n" 2>&1)
	if [ "$got" = "$want" ]; then
		pass "qemu/$boot: Linux 6.12's input pool (tests/ref/crng_ref.py) gives the same $n values"
	else
		fail "qemu/$boot: crng_ref.py --inputs" "differs from the kernel's values ($in)"
	fi
}

# The scale suite (kernel/measure/scale.c) on N CPUs: every variant's rate
# from 1..N CPUs, in the kernel and from one pinned process per CPU (draws,
# forks and execs); urandom-2.6.29 takes 2.6.29's pool locks on every call (at
# least account's and extract_buf's) and, from two CPUs on, writes lines
# another CPU writes; the per-CPU designs (2.6.30's hash, 6.x's crng and
# batches) take no lock and share no line once each CPU has its key.
check_scale() {
	local n=$1 out
	out=$(tests/qemu/records.py scale "${boot_logs[0]}" | awk -F'\t' -v n="$n" '
		{ v[$1, $2, $3] = $4; rng[$1] = 1 }
		END {
			for (r in rng) {
				for (k = 1; k <= n; k++) {
					if (!((r, k, "calls_per_sec") in v) || v[r, k, "calls_per_sec"] <= 0)
						bad = bad " " r ": no rate with " k " CPUs"
					if (!((r, k, "ring3_calls_per_sec") in v) || v[r, k, "ring3_calls_per_sec"] <= 0)
						bad = bad " " r ": no ring-3 rate with " k " CPUs"
					# rng_draw runs without the big kernel lock (two acquisitions a
					# 64-value call before, 0.031 a value).  The CPU running the suite still
					# takes it now and then, which shows per value only where the rate
					# collapses (urandom-2.6.29 on more vCPUs than host cores).
					if (!((r, k, "ring3_calls_per_sec_kernel_locks") in v))
						bad = bad " " r ": no ring-3 lock count with " k " CPUs"
					else if (r != "urandom-2.6.29" && v[r, k, "ring3_calls_per_sec_kernel_locks"] > 0.001)
						bad = bad " " r ": " v[r, k, "ring3_calls_per_sec_kernel_locks"] " kernel lock acquisitions per ring-3 draw with " k " CPUs"
					if (!((r, k, "ring3_forks_per_sec") in v) || v[r, k, "ring3_forks_per_sec"] <= 0)
						bad = bad " " r ": no fork rate with " k " CPUs"
					if (!((r, k, "ring3_execs_per_sec") in v) || v[r, k, "ring3_execs_per_sec"] <= 0)
						bad = bad " " r ": no exec rate with " k " CPUs"
					# The copy-on-write faults of the child (its stack) and of the parent
					# (reuse once the child is gone): 2.0 a fork, mm.c handle_mm_fault_unlocked.
					if (!((r, k, "ring3_forks_per_sec_faults_unlocked") in v) || v[r, k, "ring3_forks_per_sec_faults_unlocked"] < 1)
						bad = bad " " r ": " v[r, k, "ring3_forks_per_sec_faults_unlocked"] " faults without the big kernel lock per fork with " k " CPUs"
					# the cycles a fork holds the big lock: the serial part of it
					if (!((r, k, "ring3_forks_per_sec_kernel_held") in v) || v[r, k, "ring3_forks_per_sec_kernel_held"] <= 0)
						bad = bad " " r ": no big-lock cycles per fork with " k " CPUs"
				}
				locks = v[r, n, "lock_acquisitions_per_call"]
				shared = v[r, n, "shared_line_writes_per_call"]
				if (r == "urandom-2.6.29") {
					if (locks < 2) bad = bad " " r ": " locks " locks per call"
					if (n > 1 && shared < 1) bad = bad " " r ": " shared " shared lines per call"
				} else if (r == "chacha20-batched" || r == "md4-2.6.30") {
					if (locks > 0.05 || shared > 0.05)
						bad = bad " " r ": " locks " locks and " shared " shared lines per call"
				}
			}
			if (!("urandom-2.6.29" in rng) || !("chacha20-batched" in rng)) bad = bad " variants missing"
			if (bad != "") print bad
		}')
	# every process the suite made is gone: orphans left to init filled the
	# task table once (b_scale did not start: -EAGAIN, from the fifth variant on four CPUs)
	out+=$(awk '/^scale: task slots in use:/ { seen = 1; if ($6 != $10) print " task slots: " $6 " before the suite, " $10 " after" }
		END { if (!seen) print " no task slot count" }' "${boot_logs[0]}")
	pass_if_empty "$out" "scale: rates (draws, forks, execs) from 1..$n CPUs, ring-3 draws and forks' page faults without the big kernel lock; 2.6.29's pool locks and shares lines, the per-CPU designs do not; every process it made is gone" "scale"
}

# The fork suite under the deterministic clock (instructions): every
# variant's fork+exit+wait at most MAX, every one with the same page-table
# and copied-page counts, the medians minus their RNG's share within 1 % of
# each other (the variants' forks differ by their generator alone), and the
# big kernel lock held for at most 60 % of that (the page tables are copied
# and freed without it).
check_fork_cost() {
	local max=$1 out
	out=$(tests/qemu/records.py fork "${boot_logs[0]}" | awk -F'\t' -v max="$max" '
		$3 == "-" || $4 == "-" || $5 == "-" || $6 == "-" { bad = bad " " $1 ": no breakdown"; next }
		{
			n++
			if ($2 + 0 > max + 0) bad = bad " " $1 ": " $2 " > " max
			# the page tables are copied and freed without the big lock
			if (($6 - $3) * 100 > ($2 - $3) * 60)
				bad = bad " " $1 ": big lock held " ($6 - $3) " of " ($2 - $3) " outside the RNG"
			if (n == 1) { pt = $4; cp = $5 }
			else if ($4 != pt || $5 != cp) bad = bad " " $1 ": " $4 " pt pages, " $5 " copied"
			rest = $2 - $3
			if (n == 1 || rest < lo) lo = rest
			if (n == 1 || rest > hi) hi = rest
		}
		END {
			if (n < 2) bad = bad " fewer than 2 fork records"
			else if ((hi - lo) * 100 > lo) bad = bad sprintf(" median - rng spans %d..%d", lo, hi)
			if (bad != "") print bad
		}')
	pass_if_empty "$out" "fork at most $max instructions, variants differ by their RNG alone, big lock held for at most 60 % of it" "fork cost"
}
