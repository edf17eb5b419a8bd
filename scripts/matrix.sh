#!/usr/bin/env bash
# Runs a grid of boots with GNU parallel and ingests every log into the store.
#
# Usage: scripts/matrix.sh [--variants a,b] [--profiles x86_64,ia32] [--hz 250,1000]
#                     [--seeds HEX,HEX] [--cmdline "k=v ..."] [--jobs N]
#                     [--sshlogin LOGIN]... [--iso FILE] [--timeout SEC]
#                     [--deterministic] [--out DIR] [--db DB] [--dry-run]
#
# The grid is the product of the lists given (rng=, aslr_profile=, hz=,
# seed= on the kernel command line), each boot running --cmdline (default
# "mode=bench") plus its grid point, via scripts/run-qemu.sh --cmdline.
# --jobs N boots at a time (default: one per local core; parallel's -j).
# --sshlogin LOGIN (repeatable, parallel's syntax, e.g. 4/user@host or ":"
# for this machine) spreads the boots over machines: each needs this project
# at the same path with the image built; logs come back with --return.
# Each log is DIR/NAME.log (default DIR build/matrix), NAME the grid point,
# and is ingested into DB (default results/aslrbench.sqlite) as soon as its
# boot ends.  Progress on stderr: "[k/N] NAME ok (elapsed 1m02s, ETA 3m10s)".
# --dry-run prints the boots (one per line: NAME<TAB>CMDLINE) and exits.
#
# MATRIX_RUN_QEMU replaces scripts/run-qemu.sh (same options; the tests use it).
# Exit status: 0 every boot passed; 1 some boot failed (its exit status is in
# the progress line; its log is still ingested); 2 bad arguments or a missing
# tool.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck disable=SC1091 # scripts/progress.sh, checked on its own
. "$here/scripts/progress.sh"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "matrix: $*" >&2; exit 2; }

# Internal: one boot, as parallel runs it (locally or over ssh).
if [ "${1:-}" = --run-one ]; then
	name=$2 cmdline=$3 out=$4 iso=$5 timeout=$6 det=$7
	printf 'start\t%s\t%s\n' "$name" "$(hostname)"
	mkdir -p "$out"
	rc=0
	extra=()
	[ "$det" = 1 ] && extra=(--deterministic)
	"${MATRIX_RUN_QEMU:-$here/scripts/run-qemu.sh}" --iso "$iso" --timeout "$timeout" "${extra[@]}" \
		--cmdline "$cmdline" --log "$out/$name.log" >/dev/null 2>"$out/$name.err" || rc=$?
	printf 'done\t%s\t%s\n' "$name" "$rc"
	exit 0
fi

variants="" profiles="" hzs="" seeds="" base="mode=bench" jobs="" iso="$here/build/aslrbench.iso"
timeout=600 det=0 out="$here/build/matrix" db="$here/results/aslrbench.sqlite" dry=0
sshlogins=()
need() { [ "$2" -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--variants) need "$1" $#; variants=$2; shift 2 ;;
	--profiles) need "$1" $#; profiles=$2; shift 2 ;;
	--hz) need "$1" $#; hzs=$2; shift 2 ;;
	--seeds) need "$1" $#; seeds=$2; shift 2 ;;
	--cmdline) need "$1" $#; base=$2; shift 2 ;;
	--jobs) need "$1" $#; jobs=$2; shift 2 ;;
	--sshlogin) need "$1" $#; sshlogins+=("$2"); shift 2 ;;
	--iso) need "$1" $#; iso=$2; shift 2 ;;
	--timeout) need "$1" $#; timeout=$2; shift 2 ;;
	--deterministic) det=1; shift ;;
	--out) need "$1" $#; out=$2; shift 2 ;;
	--db) need "$1" $#; db=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	*) echo "matrix: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case $timeout in '' | *[!0-9]*) die "--timeout needs whole seconds" ;; esac
case $jobs in *[!0-9]* | 0) die "--jobs needs a positive number" ;; esac
[ -n "$variants$profiles$hzs$seeds" ] || die "no grid: give at least one of --variants --profiles --hz --seeds"
check_list() { # check_list OPTION VALUE REGEX
	local v
	IFS=, read -ra items <<<"$2"
	for v in "${items[@]}"; do [[ $v =~ $3 ]] || die "$1: bad value '$v'"; done
}
check_list --variants "$variants" '^[a-z0-9.-]+$'
# The names the kernel knows, from the same rng/ sources (rngtool list), so a
# misspelt variant stops here, dry run included, not after the first boots.
if [ -n "$variants" ]; then
	rngtool=$here/build/host/rngtool
	[ -x "$rngtool" ] || make -C "$here" -s build/host/rngtool >&2 ||
		die "--variants: cannot build $rngtool to check the names"
	known=$("$rngtool" list | awk '{print $1}')
	IFS=, read -ra items <<<"$variants"
	for v in "${items[@]}"; do
		grep -qxF -- "$v" <<<"$known" ||
			die "--variants: unknown variant '$v' (known: $(paste -sd, <<<"$known" | sed 's/,/, /g'))"
	done
fi
check_list --profiles "$profiles" '^(x86_64|ia32)$'
check_list --hz "$hzs" '^[0-9]+$'
check_list --seeds "$seeds" '^[0-9a-fA-F]+$'

# The grid: NAME<TAB>CMDLINE per boot, each list's values in the given order.
grid=("$base|")
axis() { # axis KEY LIST SHORT
	local next=() g v cmd name
	[ -n "$2" ] || return 0
	IFS=, read -ra vals <<<"$2"
	for g in "${grid[@]}"; do
		cmd=${g%%|*} name=${g#*|}
		for v in "${vals[@]}"; do next+=("$cmd $1=$v|$name${name:+_}$3$v"); done
	done
	grid=("${next[@]}")
}
axis rng "$variants" ""
axis aslr_profile "$profiles" ""
axis hz "$hzs" "hz"
axis seed "$seeds" "seed"
lines=$(for g in "${grid[@]}"; do printf '%s\t%s\n' "${g#*|}" "${g%%|*}"; done)
total=$(wc -l <<<"$lines")
if [ "$dry" = 1 ]; then
	printf '%s\n' "$lines"
	exit 0
fi
command -v parallel >/dev/null || die "GNU parallel is not installed (scripts/deps.sh)"
[ -s "$iso" ] || die "no image $iso (make iso)"
mkdir -p "$out"

ingest() { # ON_DONE of progress_loop: store the log, whatever the boot's status
	local log="$out/$1.log"
	if [ -s "$log" ]; then
		/usr/bin/python3 "$here/scripts/report.py" ingest --db "$db" "$log" 2>&1 |
			grep -v '^report: [0-9]* log(s) added' | sed 's/^/  /' >&2 || true
	else
		echo "  $1: no log (see $out/$1.err)" >&2
	fi
}

popts=(--colsep '\t' --line-buffer --halt never)
[ -z "$jobs" ] || popts+=(--jobs "$jobs")
if [ ${#sshlogins[@]} -gt 0 ]; then
	for s in "${sshlogins[@]}"; do popts+=(--sshlogin "$s"); done
	popts+=(--workdir "$here" --return "$out/{1}.log" --return "$out/{1}.err")
fi
echo "matrix: $total boots of '$base' (${jobs:-one per core} at a time), logs in $out, store $db" >&2
rc=0
printf '%s\n' "$lines" |
	parallel "${popts[@]}" "$here/scripts/matrix.sh" --run-one '{1}' '{2}' "$out" "$iso" "$timeout" "$det" |
	progress_loop "$total" ingest || rc=$?
[ "$rc" -eq 0 ] || { echo "matrix: $rc of $total boots failed" >&2; exit 1; }
echo "matrix: all $total boots passed; report with: scripts/report.py --db $db --compare --html" >&2
