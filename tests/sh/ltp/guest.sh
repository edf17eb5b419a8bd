#!/bin/busybox sh
# tests/sh/ltp.sh's runner in the guest, the same under aslrbench and under
# Linux 6.12: runs each test of LIST (LTP's runtest format, TAG COMMAND
# [ARGS]) from $LTPROOT/testcases/bin, one at a time, each in a session of
# its own with a timeout, and prints one line per test for the host side:
#
#   @@ltp start TAG
#   @@ltp end TAG STATUS SECS     STATUS: the exit status (LTP's bit mask:
#                                 0 pass, 1 TFAIL, 2 TBROK, 4 TWARN, 32 TCONF
#                                 only), 128+N killed by signal N, or "hung"
#                                 (still running after TIMEOUT s: killed,
#                                 with its whole session)
#   @@ltp done N                  after the last of N tests
#
# The tests' own output comes in between.  A "start" without its "end" names
# the test the kernel died in.
# Usage: guest.sh LIST TIMEOUT RUNTIME_MUL
# shellcheck shell=sh
list=$1 timeout=$2
LTPROOT=/opt/ltp
# LTP's own per-test timeout (TBROK) stays inside ours; runtime-bound tests
# (fork, futex stress, ...) run a fraction of their default seconds.
LTP_RUNTIME_MUL=$3
LTP_TIMEOUT_MUL=1
TMPDIR=/tmp/ltp
PATH=$LTPROOT/testcases/bin:/bin:/sbin:/usr/bin:/usr/sbin
# Linux 6.12's .config (Debian's, the reference kernel's) for the tests that
# read one, under both kernels alike; plain output in the serial log.
KCONFIG_PATH=$LTPROOT/kconfig
LTP_COLORIZE_OUTPUT=0
export LTPROOT LTP_RUNTIME_MUL LTP_TIMEOUT_MUL TMPDIR PATH KCONFIG_PATH LTP_COLORIZE_OUTPUT
echo "@@ltp begin $(uname -r) cpus=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null || echo '?')"
n=0
while read -r tag cmd args; do
	case $tag in '' | '#'*) continue ;; esac
	n=$((n + 1))
	mkdir -p "$TMPDIR"
	cd "$TMPDIR" || exit 1
	echo "@@ltp start $tag"
	t0=$(date +%s)
	# setsid: the test leads a session and process group of its own (a
	# background job of a non-interactive shell is no group leader, so
	# setsid execs at once: the group's id is $!), which the watcher kills
	# whole.  ARGS split into words on purpose, as runltp does.
	# shellcheck disable=SC2086
	setsid "$cmd" $args </dev/null &
	pid=$!
	(
		sleep "$timeout"
		: >/tmp/ltp-hung
		kill -9 -"$pid"
	) &
	watcher=$!
	wait "$pid"
	st=$?
	kill -9 "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	[ ! -e /tmp/ltp-hung ] || st=hung
	# what a failed test left behind (LTP's library removes its own directory)
	[ "$st" = 0 ] || rm -rf "$TMPDIR" /tmp/ltp-hung
	# what the test left running in its group (children of a killed test),
	# and up to 5 s for it to be gone: under aslrbench's 64 tasks the next
	# test's fork got EAGAIN while a killed group was still exiting
	kill -9 -"$pid" 2>/dev/null
	i=0
	while kill -0 -"$pid" 2>/dev/null && [ "$i" -lt 5 ]; do
		sleep 1
		i=$((i + 1))
	done
	echo "@@ltp end $tag $st $(($(date +%s) - t0))"
	cd / || exit 1
done <"$list"
rm -rf "$TMPDIR"
echo "@@ltp done $n"
