#!/bin/sh
# bench-host smoke test (TAP): a tiny run (--samples 10 --ensembles 2) must
# exit 0 and log parseable "@@" records: a linux boot record, the timer
# floor, a cycles_per_call record for every rng variant and the 4 peers
# (numbers when available, "available":false otherwise), the crng table's
# records and a summary.
# Nothing here depends on speed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BENCH_HOST:-$root/build/host/bench-host}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

if [ ! -x "$bin" ]; then
	tap_fail "bench-host built ($bin missing)"
	tap_done
	exit 1
fi

if "$bin" --samples 10 --ensembles 2 --cold-samples 2 --no-fifo \
	--log "$tmp/log" >"$tmp/out" 2>"$tmp/err"; then
	tap_pass "bench-host --samples 10 --ensembles 2 exits 0"
else
	tap_fail "bench-host --samples 10 --ensembles 2 exits 0" "$(head -c 300 "$tmp/err")"
fi

if cmp -s "$tmp/out" "$tmp/log"; then
	tap_pass "--log file holds what was printed"
else
	tap_fail "--log file holds what was printed"
fi

grep '^@@ ' "$tmp/log" | sed 's/^@@ //' >"$tmp/records"

if command -v python3 >/dev/null 2>&1; then
	if python3 -c '
import json, sys
for i, line in enumerate(open(sys.argv[1]), 1):
    json.loads(line)
' "$tmp/records" 2>"$tmp/perr"; then
		tap_pass "every @@ record is valid JSON"
	else
		tap_fail "every @@ record is valid JSON" "$(tail -n 1 "$tmp/perr")"
	fi
else
	tap_skip "every @@ record is valid JSON" "no python3"
fi

check() { # check name pattern: some record matches pattern
	if grep -q -- "$2" "$tmp/records"; then
		tap_pass "$1"
	else
		tap_fail "$1" "no record matching $2"
	fi
}

check "boot record from linux with irqs_off:false" \
	'^{"type":"boot","platform":"linux",.*"irqs_off":false'
check "boot record has tsc_hz, invariant_tsc, hypervisor, kernel" \
	'"invariant_tsc":[a-z]*,"hypervisor":[a-z]*,.*"tsc_hz":[0-9]*,.*"kernel":"'
check "boot record names version and time (UTC)" \
	'"version":"[^"]*","time":"[0-9]\{4\}-[0-9]\{2\}-[0-9]\{2\}T[0-9]\{2\}:[0-9]\{2\}:[0-9]\{2\}Z"'
check "timer floor record" '"suite":"timer","rng":"none","metric":"cycles_per_call"'

fields='"min":[0-9.]*,"median":[0-9.]*,"mean":[0-9.]*,"p99":[0-9.]*,"max":[0-9.]*,"var":[0-9.]*,"ensembles":2,"samples":10,'
"$bin" --list >"$tmp/names"
while read -r name; do
	head='"suite":"rng","rng":"'"$name"'","metric":"cycles_per_call"'
	if grep -q -- "$head,\"available\":false" "$tmp/records"; then
		tap_pass "$name: reported unavailable"
	else
		check "$name: cycles_per_call with every statistic" "$head,\"unit\":\"cycles\",$fields"
	fi
done <"$tmp/names"

# One median per ensemble (--ensembles 2), for the reports' intervals.
check "bench records carry ens_medians, one per ensemble" \
	'"suite":"rng","rng":"md4-2.6.30","metric":"cycles_per_call",.*"ensembles":2,.*"ens_medians":\[[0-9.]*,[0-9.]*\]'

for peer in getrandom-syscall arc4random openssl-RAND_bytes libsodium-randombytes_random; do
	check "peer $peer measured" "\"rng\":\"$peer\",\"metric\":\"cycles_per_call\",\"unit\""
done

# The crng table: chacha20-batched, and chacha20-wide once per ChaCha20
# implementation, measured or (the CPU or OS lacks it) unavailable; CPUID
# chooses exactly one of those measured.
check "crng: chacha20-batched per u32 with refills" \
	'"suite":"crng","rng":"chacha20-batched","metric":"cycles_per_u32_stream","unit":"cycles",'
for impl in scalar sse2 ssse3 avx2 avx512f; do
	head='"suite":"crng","rng":"chacha20-wide/'"$impl"'","metric":"cycles_per_u32_stream"'
	if grep -q -- "$head,\"available\":false" "$tmp/records"; then
		tap_pass "crng: chacha20-wide/$impl reported unavailable"
	else
		check "crng: chacha20-wide/$impl per u32" "$head,\"unit\":\"cycles\",$fields"
		check "crng: chacha20-wide/$impl per byte" \
			'"suite":"crng","rng":"chacha20-wide/'"$impl"'","metric":"cycles_per_byte","unit":"cycles/byte",'
		check "crng: chacha20-wide/$impl cipher alone" \
			'"suite":"crng","rng":"chacha20-wide/'"$impl"'","metric":"cycles_per_byte_blocks","unit":"cycles/byte",'
	fi
done
chosen=$(grep -c '"suite":"crng","rng":"chacha20-wide/[a-z0-9]*","metric":"cycles_per_u32_stream",.*"chosen":true' "$tmp/records")
if [ "$chosen" = 1 ]; then
	tap_pass "crng: exactly one implementation chosen"
else
	tap_fail "crng: exactly one implementation chosen" "$chosen records say chosen"
fi

check "summary record with status 0" '^{"type":"summary",.*"failed":0,.*"status":0}$'

# Argument errors: an unknown option is named as such, even when last.
arg_err() { # arg_err NAME WANT ARGS...: exit 2, WANT on stderr, nothing on stdout
	name=$1 want=$2 rc=0
	shift 2
	"$bin" "$@" >"$tmp/aout" 2>"$tmp/aerr" || rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$tmp/aout" ] && grep -qF -- "$want" "$tmp/aerr"; then
		tap_pass "$name"
	else
		tap_fail "$name" "exit $rc; $(head -c 200 "$tmp/aerr")"
	fi
}
arg_err "--bogus says unknown option, not needs a value" "bench-host: unknown option --bogus" --bogus
arg_err "--bogus before a value too" "bench-host: unknown option --bogus" --bogus 3
arg_err "--samples without value: needs a value" "bench-host: --samples needs a value" --samples

tap_done
