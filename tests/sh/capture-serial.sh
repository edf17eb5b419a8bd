#!/usr/bin/env bash
# TAP tests for scripts/capture-serial.sh against a pseudo-terminal pair made
# by socat (one end plays the board, the other the host's serial port); the
# socat cases are SKIPped when socat is not installed.
# Usage: tests/sh/capture-serial.sh        (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
C=$top/scripts/capture-serial.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture-serial-test.XXXXXX")
socat_pid=
cap_pid=

# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    [[ -n $cap_pid ]] && kill "$cap_pid" 2>/dev/null
    [[ -n $socat_pid ]] && kill "$socat_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
tap_plan 10

# ---- usage -------------------------------------------------------------------
out=$("$C" -h 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"Usage: "*"--until-summary"* ]]
tap_check $? "-h prints usage, exit 0" "exit $rc" "$out"
out=$("$C" --bogus 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"unknown argument: --bogus"*"usage: "* ]]
tap_check $? "unknown argument: usage, exit 2" "exit $rc" "$out"
out=$("$C" --baud fast 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"--baud needs a number"* ]]
tap_check $? "bad --baud: exit 2" "exit $rc" "$out"
out=$("$C" --device /dev/null --out "$tmp/null.log" 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"cannot configure /dev/null"* ]]
tap_check $? "not a serial port: exit 2" "exit $rc" "$out"

# ---- socat pty pair ----------------------------------------------------------
why=
if ! command -v socat >/dev/null; then
    why="socat not installed"
else
    socat -d -d "pty,raw,echo=0,link=$tmp/port" "pty,raw,echo=0,link=$tmp/board" 2>"$tmp/socat.err" &
    socat_pid=$!
    for _ in $(seq 50); do
        [[ -e $tmp/port && -e $tmp/board ]] && break
        sleep 0.1
    done
    [[ -e $tmp/port && -e $tmp/board ]] || why="socat could not make a pty pair: $(cat "$tmp/socat.err")"
fi

# start_capture LOG ARGS...: start the capture in the background (own process
# group, as a terminal job would be) and wait until it has opened the port.
start_capture() {
    local log=$1
    shift
    set -m
    # a test run started in the background inherits SIGINT ignored, which a
    # shell cannot trap: restore it, as a terminal's Ctrl-C finds it
    env --default-signal=INT "$C" --device "$tmp/port" --out "$log" "$@" >"$log.out" 2>"$log.err" &
    cap_pid=$!
    set +m
    log_has "$log.err" '^capture-serial: capturing' 5
}
# log_has LOG TEXT [SECONDS]: wait (up to 30 s on a loaded host) until the
# capture has written TEXT into LOG, so that what the test does next meets it
log_has() {
    for _ in $(seq "$((${3:-30} * 10))"); do
        grep -qa -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
# wait_exit SECONDS: wait for the capture to end; sets rc (124 on timeout)
wait_exit() {
    local i
    for ((i = 0; i < $1 * 10; i++)); do
        if ! kill -0 "$cap_pid" 2>/dev/null; then
            wait "$cap_pid"
            rc=$?
            cap_pid=
            return 0
        fi
        sleep 0.1
    done
    rc=124
}
# port_holders: processes other than socat that still have the port open
port_holders() {
    local pts f
    pts=$(readlink -f "$tmp/port")
    for f in /proc/[0-9]*/fd/*; do
        [[ $(readlink "$f" 2>/dev/null) == "$pts" ]] || continue
        f=${f#/proc/}
        [[ ${f%%/*} == "$socat_pid" ]] || echo "${f%%/*}"
    done
}

# what the board sends: console noise, records, CRLF, a NUL, then the summary
sent=$tmp/sent
{
    printf 'BdsDxe: loading Boot0001 "UEFI USB"\r\n'
    printf 'aslrbench: booting\r\n'
    printf '@@ {"type":"boot","cpu":"Fake CPU","tsc_hz":2400000000}\r\n'
    printf 'noise \0 with a NUL\r\n'
    printf '@@ {"type":"test","name":"rng.kat.half_md4","result":"pass"}\r\n'
    printf '@@ {"type": "summary", "passed": 1, "failed": 0, "skipped": 0, "exit": 0}\r\n'
} >"$sent"

if [[ -n $why ]]; then
    tap_skip "--until-summary stops by itself after the summary record" "$why"
    tap_skip "log holds exactly the bytes received (CRLF, NUL)" "$why"
    tap_skip "terminal shows the lines without CR" "$why"
    tap_skip "port released after the capture" "$why"
else
    log=$tmp/until.log
    if start_capture "$log" --until-summary; then
        cat "$sent" >"$tmp/board"
        wait_exit 30
    else
        rc=125
    fi
    [[ $rc -eq 0 ]] && grep -q 'summary record seen' "$log.err"
    tap_check $? "--until-summary stops by itself after the summary record" "exit $rc" "$(cat "$log.err" 2>/dev/null)"
    cmp -s "$sent" "$log"
    tap_check $? "log holds exactly the bytes received (CRLF, NUL)" "$(od -c "$log" | head -20)"
    [[ $(tail -n 1 "$log.out") == '@@ {"type": "summary", "passed": 1, "failed": 0, "skipped": 0, "exit": 0}' ]] &&
        ! grep -q $'\r' "$log.out"
    tap_check $? "terminal shows the lines without CR" "$(od -c "$log.out" | tail -5)"
    holders=$(port_holders)
    [[ -z $holders ]]
    tap_check $? "port released after the capture" "still open by pid(s): $holders"
fi

if [[ -n $why ]]; then
    tap_skip "without --until-summary: runs past the summary, Ctrl-C stops it (exit 0)" "$why"
else
    log=$tmp/ctrlc.log
    if start_capture "$log"; then
        cat "$sent" >"$tmp/board"
        sleep 1
        if kill -0 "$cap_pid" 2>/dev/null; then
            printf 'after the summary\r\n' >"$tmp/board"
            log_has "$log" 'after the summary'
            kill -INT -- "-$cap_pid" # what Ctrl-C does: the whole job
            wait_exit 30
        else
            rc=126 # ended by itself
        fi
    else
        rc=125
    fi
    [[ $rc -eq 0 ]] && cmp -s <(cat "$sent"; printf 'after the summary\r\n') "$log"
    tap_check $? "without --until-summary: runs past the summary, Ctrl-C stops it (exit 0)" \
        "exit $rc" "$(cat "$log.err" 2>/dev/null)" "$(od -c "$log" | tail -3)"
fi

if [[ -n $why ]]; then
    tap_skip "--until-summary: port closes before a summary, exit 1, log kept" "$why"
else
    log=$tmp/hangup.log
    if start_capture "$log" --until-summary; then
        printf 'aslrbench: booting\r\npartial' >"$tmp/board"
        log_has "$log" partial # read before the port goes (a loaded host is slow)
        kill "$socat_pid"
        wait "$socat_pid" 2>/dev/null
        socat_pid=
        wait_exit 30
    else
        rc=125
    fi
    [[ $rc -eq 1 && $(cat "$log") == $'aslrbench: booting\r\npartial' ]] && grep -q 'closed' "$log.err"
    tap_check $? "--until-summary: port closes before a summary, exit 1, log kept" \
        "exit $rc" "$(cat "$log.err" 2>/dev/null)"
fi

tap_done
