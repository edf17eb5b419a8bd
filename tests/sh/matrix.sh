#!/usr/bin/env bash
# TAP: scripts/matrix.sh (grid, GNU parallel, progress, ingest) with a fake
# run-qemu.sh that writes a log naming its command line (no QEMU needed; the
# real 2x2 grid is in docs/usage.md).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
m=$root/scripts/matrix.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
has() { grep -qF -- "$2" "$1" || { echo "missing in $1: $2"; cat "$1"; return 1; }; }
runs() { # runs RC ARGS...
	local want=$1 rc=0
	shift
	"$m" "$@" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
	[[ $rc == "$want" ]] || { echo "exit $rc, want $want"; cat "$tmp/stderr"; return 1; }
}
if ! command -v parallel >/dev/null; then
	echo "1..0 # SKIP GNU parallel not installed (scripts/deps.sh)"
	exit 0
fi

tap_run "--help: exit 0" runs 0 --help
tap_run "--help: usage on stdout" has "$tmp/stdout" "scripts/matrix.sh [--variants a,b] [--profiles x86_64,ia32]"
tap_run "no grid: exit 2" runs 2
tap_run "no grid: says why on stderr" has "$tmp/stderr" "no grid"
tap_run "unknown option: exit 2" runs 2 --bogus
tap_run "unknown option: named" has "$tmp/stderr" "matrix: unknown option '--bogus'"
tap_run "bad profile: exit 2" runs 2 --profiles amd64
tap_run "bad seed: exit 2" runs 2 --seeds xyz
tap_run "misspelt variant, dry run: exit 2" runs 2 --dry-run --variants md4-2.6.30,md4-2.6.3
tap_run "misspelt variant: named with the known ones" has "$tmp/stderr" "unknown variant 'md4-2.6.3' (known: prandom,"
tap_run "misspelt variant: no boot listed" eq "$(wc -c <"$tmp/stdout")" 0
tap_run "dry run 2x2x2" runs 0 --dry-run --variants prandom,rdrand --profiles x86_64,ia32 --hz 100,250
tap_run "dry run: 8 boots" eq "$(wc -l <"$tmp/stdout")" 8
tap_run "dry run: name and command line" has "$tmp/stdout" "rdrand_ia32_hz100	mode=bench rng=rdrand aslr_profile=ia32 hz=100"
tap_run "dry run: --cmdline is the base" runs 0 --dry-run --seeds 01,02 --cmdline "mode=attack"
tap_run "dry run: seeds" has "$tmp/stdout" "seed02	mode=attack seed=02"

# A fake run-qemu.sh: the log's boot record carries the command line; rng=chacha20-wide fails.
cat >"$tmp/fake-run-qemu" <<'FAKE'
#!/bin/bash
while [ $# -gt 0 ]; do
	case $1 in --cmdline) c=$2; shift 2 ;; --log) l=$2; shift 2 ;; --iso|--timeout) shift 2 ;; *) shift ;; esac
done
printf '@@ {"type":"boot","platform":"aslrbench","cpu_model":"Fake CPU","tsc_hz":1000000000,"cmdline":"%s"}\n' "$c" >"$l"
printf '@@ {"type":"bench","suite":"rng","rng":"x","metric":"cycles_per_call","median":5}\n' >>"$l"
case $c in *rng=chacha20-wide*) exit 1 ;; esac
FAKE
chmod +x "$tmp/fake-run-qemu"
echo fake >"$tmp/fake.iso"
export MATRIX_RUN_QEMU=$tmp/fake-run-qemu
db=$tmp/store.sqlite
boots() { sqlite3 "$db" 'select count(*) from boots' 2>/dev/null ||
	/usr/bin/python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from boots").fetchone()[0])' "$db"; }
tap_run "2x2 grid on 2 jobs: exit 0" runs 0 --variants prandom,rdrand --profiles x86_64,ia32 --jobs 2 \
	--iso "$tmp/fake.iso" --out "$tmp/logs" --db "$db"
tap_run "progress: [k/N] name ok (elapsed, ETA)" eval "grep -cE '^\[[1-4]/4\] (prandom|rdrand)_(x86_64|ia32) ok \(elapsed [0-9]+s, ETA [0-9]+s\)$' '$tmp/stderr' | grep -qx 4"
tap_run "progress: last line is 4/4 with ETA 0s" eval "grep -E '^\[4/4\]' '$tmp/stderr' | grep -q 'ETA 0s'"
tap_run "progress: running boots named" has "$tmp/stderr" "[start] prandom_ia32 on"
tap_run "four logs written" eq "$(find "$tmp/logs" -name '*.log' | wc -l)" 4
tap_run "the store holds all four boots" eq "$(boots)" 4
tap_run "same grid again: nothing duplicated" runs 0 --variants prandom,rdrand --profiles x86_64,ia32 --jobs 2 \
	--iso "$tmp/fake.iso" --out "$tmp/logs" --db "$db"
tap_run "same grid again: still four boots" eq "$(boots)" 4
tap_run "a failing boot: exit 1" runs 1 --variants prandom,chacha20-wide --jobs 1 --iso "$tmp/fake.iso" --out "$tmp/logs2" --db "$db"
tap_run "a failing boot: named with its status" has "$tmp/stderr" "[2/2] chacha20-wide failed (exit 1)"
tap_run "a failing boot: its log is still ingested" eq "$(boots)" 6
tap_run "--sshlogin : (this machine, parallel's syntax)" runs 0 --variants md5-3.x --sshlogin : \
	--iso "$tmp/fake.iso" --out "$tmp/logs3" --db "$db"
tap_run "--sshlogin: log back and ingested" eq "$(boots)" 7
# make rng-quality's engine: the same report in parallel as one after the other.
rq=$root/tests/sh/rng-quality.sh
if [ -x "$root/build/host/rngtool" ] && command -v dieharder >/dev/null && command -v ent >/dev/null; then
	"$rq" --quick --variants "prandom md4-2.6.30" --out "$tmp/rq-seq.md" >/dev/null 2>&1
	"$rq" --quick --jobs 2 --variants "prandom md4-2.6.30" --out "$tmp/rq-par.md" \
		>"$tmp/rq-par.tap" 2>"$tmp/rq-par.err"
	tap_run "rng-quality --jobs 2: same report as sequential" cmp "$tmp/rq-seq.md" "$tmp/rq-par.md"
	tap_run "rng-quality --jobs 2: one TAP plan, renumbered" eval "tail -1 '$tmp/rq-par.tap' | grep -qx '1..10' && grep -q '^ok 10 - ent md4-2.6.30' '$tmp/rq-par.tap'"
	tap_run "rng-quality --jobs 2: [k/N] progress" has "$tmp/rq-par.err" "[2/2] "
else
	tap_skip "rng-quality --jobs" "build/host/rngtool, dieharder or ent missing"
fi
tap_run "shellcheck" shellcheck -x "$m" "$root/scripts/progress.sh" "$rq" "${BASH_SOURCE[0]}"
tap_done
