#!/usr/bin/env bash
# Runs each libFuzzer target briefly (FUZZ_SECONDS, default 5); `make fuzz` runs longer.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=SCRIPTDIR/lib/tap.sh
. tests/sh/lib/tap.sh
secs=${FUZZ_SECONDS:-5}
for t in fuzz_proc_path fuzz_stat_format; do
	bin=build/host/$t
	corpus=build/fuzz-corpus/$t
	mkdir -p "$corpus" build/test-logs
	if [ ! -x "$bin" ]; then
		tap_fail "$t: $bin not built"
		continue
	fi
	if "$bin" -max_total_time="$secs" "$corpus" >"build/test-logs/$t.log" 2>&1; then
		tap_pass "$t: ${secs}s without a crash"
	else
		tap_fail "$t: crashed (see build/test-logs/$t.log)"
	fi
done
tap_done
