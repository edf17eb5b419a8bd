#!/usr/bin/env bash
# Runs each libFuzzer target briefly (FUZZ_SECONDS, default 5); `make fuzz` runs longer.
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${FUZZ_SECONDS:-5}
n=0 failed=0
for t in fuzz_proc_path fuzz_stat_format; do
	n=$((n + 1))
	bin=build/host/$t
	corpus=build/fuzz-corpus/$t
	mkdir -p "$corpus" build/test-logs
	if [ ! -x "$bin" ]; then
		echo "not ok $n - $t: $bin not built"
		failed=1
		continue
	fi
	if "$bin" -max_total_time="$secs" "$corpus" >"build/test-logs/$t.log" 2>&1; then
		echo "ok $n - $t: ${secs}s without a crash"
	else
		echo "not ok $n - $t: crashed (see build/test-logs/$t.log)"
		failed=1
	fi
done
echo "1..$n"
exit "$failed"
