# shellcheck shell=bash
# progress_loop N [ON_DONE]: reads job events from stdin, one per line,
#   start<TAB>NAME<TAB>WHERE        -> "[start] NAME on WHERE"
#   done<TAB>NAME<TAB>RC            -> "[k/N] NAME ok|failed (rc) (elapsed 1m02s, ETA 3m10s)"
# and prints progress on stderr.  ETA = elapsed / done * left: jobs of one
# grid cost about the same, and it counts whatever runs in parallel.
# ON_DONE NAME RC is called after each finished job (e.g. to ingest its log).
# Returns the number of failed jobs (capped at 100).  Sourced by
# scripts/matrix.sh and tests/sh/rng-quality.sh.

fmt_secs() { # 75 -> 1m15s
	local s=$1
	if [ "$s" -ge 3600 ]; then
		printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
	elif [ "$s" -ge 60 ]; then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

progress_loop() {
	local total=$1 on_done=${2:-} k=0 bad=0 t0=$SECONDS ev name arg el eta status
	while IFS=$'\t' read -r ev name arg; do
		case $ev in
		start) echo "[start] $name on $arg" >&2 ;;
		done)
			k=$((k + 1))
			el=$((SECONDS - t0))
			eta=$((el * (total - k) / k))
			status=ok
			[ "$arg" = 0 ] || { status="failed (exit $arg)"; bad=$((bad + 1)); }
			echo "[$k/$total] $name $status (elapsed $(fmt_secs "$el"), ETA $(fmt_secs "$eta"))" >&2
			[ -z "$on_done" ] || "$on_done" "$name" "$arg"
			;;
		*) [ -z "$ev$name$arg" ] || echo "  $ev${name:+ $name}${arg:+ $arg}" >&2 ;;
		esac
	done
	[ "$bad" -lt 100 ] || bad=100
	return "$bad"
}
