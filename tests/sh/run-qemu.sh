#!/usr/bin/env bash
# TAP tests for scripts/run-qemu.sh's own behaviour, without booting: --help,
# its usage errors (64, never the kernel's 2), a missing image (66), the
# kernel's statuses mapped through isa-debug-exit, and the filter that keeps
# the firmware's screen clears off the terminal but in the log.  A fake QEMU
# (QEMU=...) writes the serial stream and exits as the real one would.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
R=$root/scripts/run-qemu.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-qemu-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"

# run ARGS...: run-qemu.sh with stdin from /dev/null; sets rc, out, err.
run() {
	"$R" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out") err=$(cat "$tmp/err")
}

# ---- --help: all of it, on stdout, exit 0 -------------------------------------
run --help
[[ $rc -eq 0 && -z $err && $out == "Usage: scripts/run-qemu.sh"* && $out == *"124  timeout"* ]]
tap_check $? "--help: usage on stdout, nothing on stderr, exit 0" "exit $rc" "$err"
missing="" n_opts=0
while read -r opt; do
	n_opts=$((n_opts + 1))
	grep -Eq -- "^  (-h, )?$opt( |$)" "$tmp/out" || missing="$missing $opt"
done < <(sed -n 's/^\t\(--[a-z0-9-]*\)).*/\1/p; s/^\t-h | \(--help\)).*/\1/p' "$R")
[[ -z $missing && $n_opts -ge 14 && $(grep -c '^  -' "$tmp/out") -eq $n_opts ]]
tap_check $? "--help documents every option the parser knows" "undocumented:$missing"
missing=""
for st in 0 1 2 3 4 5 6 64 66 124 130; do
	grep -Eq "(^| )$st  " "$tmp/out" || missing="$missing $st"
done
[[ -z $missing ]]
tap_check $? "--help lists every exit status" "missing:$missing"
run -h
[[ $rc -eq 0 && $out == "Usage: "* ]]
tap_check $? "-h is --help" "exit $rc"

# ---- usage errors: 64 on stderr, nothing on stdout -----------------------------
usage_error() { # NAME REGEX ARGS...
	local name=$1 re=$2
	shift 2
	run "$@"
	[[ $rc -eq 64 && -z $out ]] && grep -Eq -- "$re" <<<"$err"
	tap_check $? "$name: exit 64, message on stderr" "exit $rc" "stdout: $out" "stderr: $err"
}
usage_error "unknown option" "unknown option '--bogus'.*--help" --bogus
usage_error "option without its value" "--timeout needs a value" --timeout
usage_error "bad --timeout" "--timeout needs whole seconds" --timeout 5s
usage_error "bad --memory" "--memory needs megabytes" --memory lots
usage_error "bad --smp" "--smp needs a CPU count" --smp 0
usage_error "bad --accel" "--accel must be auto, kvm or tcg" --accel xen
usage_error "bad --resolution" "--resolution needs WxH" --resolution big
run --iso "$tmp/none.iso"
[[ $rc -eq 66 ]] && grep -q "no image '$tmp/none.iso'" <<<"$err"
tap_check $? "missing image: exit 66" "exit $rc" "$err"
QEMU=$tmp/no-such-qemu "$R" --iso "$R" --accel tcg </dev/null >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc -eq 66 ]] && grep -q "missing $tmp/no-such-qemu" "$tmp/err"
tap_check $? "missing QEMU: exit 66" "exit $rc" "$(cat "$tmp/err")"

# ---- a fake QEMU: serial stream and exit status --------------------------------
# It writes SERIAL (printf format) to the serial pipe and exits with EXIT.
cat >"$tmp/qemu" <<'SH'
#!/usr/bin/env bash
[ "$1" != --version ] || { echo "QEMU emulator version 0.0-fake"; exit 0; }
p=/dev/stdout # a terminal on stdin: -chardev stdio
for a; do case $a in pipe,id=ser0,path=*) p=${a#*path=}.out ;; esac; done
printf "$FAKE_SERIAL" >"$p"
exit "$FAKE_EXIT"
SH
chmod +x "$tmp/qemu"
fake() { # EXIT SERIAL: one run with the fake QEMU, log in $tmp/log
	FAKE_EXIT=$1 FAKE_SERIAL=$2 QEMU=$tmp/qemu run --iso "$R" --accel tcg --timeout 20 --log "$tmp/log"
}
for pair in 33:0 35:1 37:2 39:3; do
	fake "${pair%:*}" 'aslrbench kernel: done\r\n'
	[[ $rc -eq ${pair#*:} ]]
	tap_check $? "isa-debug-exit ${pair%:*} -> exit ${pair#*:}" "exit $rc" "$err"
done
fake 1 'no status\r\n'
[[ $rc -eq 5 ]] && grep -q "without a kernel status" <<<"$err"
tap_check $? "QEMU ends without a status: exit 5" "exit $rc" "$err"

fw='\033[2J\033[01;01H\033[=3h\033[2J\033[01;01HBdsDxe: loading Boot0001\r\n\033cfirmware\033[?1049h\033[H\033[J\r\n'
fake 33 "${fw}aslrbench loader: starting\r\n\033[2Jkernel's own clear\r\n"
[[ $rc -eq 0 ]] && ! grep -q $'\e\\[2J\\|\e\\[01;01H\\|\e\\[=3h\\|\ec\\|\e\\[?1049h\\|\e\\[H\\|\e\\[J' <<<"$(sed -n 1,2p "$tmp/out")"
tap_check $? "firmware clears and homes are not on stdout" "$(od -c "$tmp/out" | head -8)"
grep -q '^BdsDxe: loading Boot0001' "$tmp/out" && grep -q '^firmware' "$tmp/out"
tap_check $? "... the firmware's text is" "$(od -c "$tmp/out" | head -8)"
grep -q $'\e\\[2Jkernel' "$tmp/out"
tap_check $? "... and nothing is filtered after the loader's first line" "$(od -c "$tmp/out" | tail -4)"
printf '%b' "${fw}aslrbench loader: starting\r\n\033[2Jkernel's own clear\r\n" | tr -d '\n' >"$tmp/want"
tr -d '\n' <"$tmp/log" | cmp -s - "$tmp/want"
tap_check $? "--log keeps the stream byte for byte" "$(od -c "$tmp/log" | head -8)"

# The records: all of them on a piped stdout and in the log; on a terminal
# (script(1)'s pseudo-terminal) the human view leaves them out.
recs='aslrbench kernel: entered\r\n@@ {"type":"boot"}\r\ntable row\r\n@@ {"type":"summary"}\r\n# '
fake 33 "$recs"
[[ $rc -eq 0 && $(grep -c '^@@ ' "$tmp/out") -eq 2 && $(grep -c '^@@ ' "$tmp/log") -eq 2 ]]
tap_check $? "piped stdout and --log: every @@ record" "$(cat "$tmp/out")"
if command -v script >/dev/null; then
	FAKE_EXIT=33 FAKE_SERIAL=$recs QEMU=$tmp/qemu script -qec \
		"$(printf '%q ' "$R" --iso "$R" --accel tcg --log "$tmp/log")" "$tmp/tty" </dev/null >/dev/null 2>&1
	rc=$?
	tr -d '\r' <"$tmp/tty" >"$tmp/tty.txt"
	[[ $rc -eq 0 ]] && ! grep -q '@@' "$tmp/tty.txt" && grep -q '^table row$' "$tmp/tty.txt" &&
		grep -q '^# ' "$tmp/tty.txt" && [[ $(grep -c '^@@ ' "$tmp/log") -eq 2 ]]
	tap_check $? "a terminal: the human view without the records, the log with them" \
		"exit $rc" "$(cat "$tmp/tty.txt")"
else
	tap_skip "a terminal: the human view without the records" "script(1) not installed"
fi

tap_done
