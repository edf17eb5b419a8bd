#!/usr/bin/env bash
# TAP tests of the serial shell on a real terminal: scripts/run-qemu.sh
# --cmdline mode=shell in a tmux pane (a pseudo-terminal, as a person at the
# keyboard has), typed at with tmux send-keys.  The prompt must show before
# any Enter, typed characters must echo as they are typed, Ctrl-C must end
# a foreground `sleep 100` (the guest's tty turns the byte into SIGINT for
# the foreground process group), Ctrl-Z must stop one (`jobs`, `fg`),
# `poweroff` must end the run with status 0,
# and the pane's terminal settings must be the same afterwards.
# One boot of build/aslrbench.iso; skipped without tmux or the image.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
iso=$root/build/aslrbench.iso
# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$root/tests/sh/lib/tap.sh"
if ! command -v tmux >/dev/null; then
	echo "1..0 # SKIP tmux not installed (scripts/deps.sh)"
	exit 0
fi
if [ ! -s "$iso" ]; then
	echo "1..0 # SKIP build/aslrbench.iso not built (make iso)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/terminal-test.XXXXXX")
# A tmux server of its own (-L), without the user's configuration.
tm() { tmux -L "aslrbench-terminal-$$" -f /dev/null "$@"; }
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	# Ctrl-A x ends a QEMU still running in the pane, then the server goes.
	tm send-keys -t t C-a x 2>/dev/null && sleep 1
	tm kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
tap_plan 11

screen() { tm capture-pane -p -t t; }
# The pane without its blank lines, for the diagnostics.
shown() { screen | sed "/^ *$/d" | tail -"$1"; }
# The pane's last non-empty line.
last_line() { screen | sed '/^ *$/d' | tail -1; }
# wait_for SECONDS CMD...: poll CMD every 0.1 s; status 0 once it succeeds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
}
at_prompt() { [[ $(last_line) =~ ^#\ *$ ]]; }
shows() { screen | grep -qF -- "$1"; }
line_is() { [[ $(last_line) == "$1" ]]; }
listed() { shows timer_list && at_prompt; }

tm new-session -d -s t -x 160 -y 50 -c "$root" "bash --norc --noprofile" || {
	tap_fail "tmux session" "tmux new-session failed"
	tap_done
	exit
}
tm send-keys -t t "stty -a >$tmp/stty.before; scripts/run-qemu.sh --cmdline mode=shell; \
echo \$? >$tmp/rc; stty -a >$tmp/stty.after" Enter

# The prompt with no Enter pressed: output is passed on as it comes, not by lines.
wait_for 180 at_prompt
tap_check $? "the shell's prompt shows before any Enter" "$(shown 15)"

# Echo as typed: no Enter yet.
tm send-keys -t t -l "ls /pro"
wait_for 10 line_is "# ls /pro"
tap_check $? "typed characters echo before Enter" "last line: '$(last_line)'"

tm send-keys -t t -l "c"
tm send-keys -t t Enter
wait_for 20 listed
tap_check $? "ls /proc lists /proc" "$(shown 10)"

# Ctrl-C: back at a new prompt within 2 s.
tm send-keys -t t -l "sleep 100"
tm send-keys -t t Enter
wait_for 10 line_is "# sleep 100"
sleep 1
start=$(date +%s%N)
tm send-keys -t t C-c
wait_for 10 at_prompt
st=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ "$st" = 0 ] && [ "$ms" -le 2000 ]
tap_check $? "Ctrl-C ends sleep 100 and the prompt is back within 2 s (${ms} ms)" \
	"$(shown 6)"

tm send-keys -t t -l "echo alive\$((6*7))"
tm send-keys -t t Enter
wait_for 20 shows alive42
tap_check $? "the shell reads on after Ctrl-C" "$(shown 6)"

# Ctrl-Z: the tty sends SIGTSTP to the foreground job, which stops (the
# whole group, TASK_STOPPED); ash hears it through waitpid(WUNTRACED),
# lists it as Stopped, and fg continues it (SIGCONT) in the foreground.
tm send-keys -t t -l "sleep 100"
tm send-keys -t t Enter
wait_for 10 line_is "# sleep 100"
sleep 1
tm send-keys -t t C-z
wait_for 10 at_prompt
st=$?
shows Stopped
tap_check $((st || $?)) "Ctrl-Z stops sleep 100 and the prompt is back" "$(shown 6)"

tm send-keys -t t -l "jobs; cat /proc/\$(pidof sleep)/status | grep State"
tm send-keys -t t Enter
# (tmux shows the status file's tab as spaces)
wait_for 20 shows "T (stopped)"
st=$?
screen | grep -qE '^\[1\]\+ +Stopped +sleep 100'
tap_check $((st || $?)) "jobs lists it Stopped, /proc says T (stopped)" "$(shown 6)"

tm send-keys -t t -l "fg"
tm send-keys -t t Enter
wait_for 10 line_is "sleep 100"
tap_check $? "fg continues it in the foreground" "$(shown 6)"
sleep 1
tm send-keys -t t C-c
wait_for 10 at_prompt
tap_check $? "Ctrl-C then ends it" "$(shown 6)"

tm send-keys -t t -l "poweroff"
tm send-keys -t t Enter
wait_for 60 test -s "$tmp/stty.after"
rc=$(cat "$tmp/rc" 2>/dev/null)
[ "$rc" = 0 ]
tap_check $? "poweroff ends run-qemu.sh with status 0" "status '$rc'" "$(shown 6)"

diff "$tmp/stty.before" "$tmp/stty.after" >"$tmp/stty.diff" 2>&1
tap_check $? "the terminal's settings (stty -a) are unchanged afterwards" "$(cat "$tmp/stty.diff")"
tap_done
