#!/usr/bin/env bash
# capture-serial.sh: record the serial log of an aslrbench run on a real PC.
#
# Usage: scripts/capture-serial.sh [--device DEV] [--baud N] [--out FILE] [--until-summary]
#
#   --device DEV      serial port (default /dev/ttyUSB0)
#   --baud N          speed (default 115200); the port is set raw, no echo, 8N1,
#                     no flow control
#   --out FILE        log file, appended to (default
#                     aslrbench-$(hostname)-YYYYmmdd-HHMMSS.log)
#   --until-summary   stop by itself after the `@@ {"type":"summary",...}` record
#
# The log holds the bytes exactly as received (CRLF and all), which is what
# scripts/report.py reads; the terminal shows the same lines as they arrive.
# Stop with Ctrl-C at any time (exit 0; the log is kept).
# Exit status: 0 done; 1 --until-summary given but the port closed or the
# capture was interrupted before a summary; 2 usage or port problem.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}
bad() {
    printf 'capture-serial: %s\n' "$*" >&2
    echo "usage: $0 [--device DEV] [--baud N] [--out FILE] [--until-summary]   (-h for help)" >&2
    exit 2
}

device=/dev/ttyUSB0
baud=115200
out=
until_summary=0
while (($#)); do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    --device | --baud | --out)
        (($# >= 2)) || bad "$1 needs a value"
        case $1 in
        --device) device=$2 ;;
        --baud) baud=$2 ;;
        --out) out=$2 ;;
        esac
        shift
        ;;
    --device=*) device=${1#*=} ;;
    --baud=*) baud=${1#*=} ;;
    --out=*) out=${1#*=} ;;
    --until-summary) until_summary=1 ;;
    *) bad "unknown argument: $1" ;;
    esac
    shift
done
[[ $baud =~ ^[1-9][0-9]*$ ]] || bad "--baud needs a number, not '$baud'"
[[ -n $device ]] || bad "--device needs a value"
[[ -n $out ]] || out="aslrbench-$(hostname)-$(date +%Y%m%d-%H%M%S).log"

[[ -c $device ]] || bad "$device is not a character device (serial port)"
stty -F "$device" "$baud" raw -echo -echoe -echok -echoctl -echoke \
    cs8 -cstopb -parenb -ixon -ixoff -crtscts clocal cread ||
    bad "cannot configure $device at $baud baud (permissions? try the dialout group)"
: >>"$out" || bad "cannot write $out"
start=$(($(stat -c %s -- "$out") + 1))

# cat writes the raw bytes straight into the log; the reader below follows the
# log (so whatever it has seen is already saved) to echo lines and spot the
# summary record, then stops cat.
exec 3<"$device" || bad "cannot open $device"
cat <&3 >>"$out" 2>/dev/null &  # EIO when the port hangs up: reported below
catpid=$!
exec 3<&-
stopped=0
summary=0
stop() {
    stopped=1
    kill "$catpid" 2>/dev/null || true
}
trap stop INT TERM
trap 'kill "$catpid" 2>/dev/null || true' EXIT

printf 'capture-serial: capturing %s at %s baud into %s%s\n' "$device" "$baud" "$out" \
    "$( ((until_summary)) && echo ' until the summary record' || echo '; Ctrl-C to stop')" >&2

re='@@ *\{.*"type" *: *"summary"'
shopt -s lastpipe
tail -c "+$start" -s 0.2 --pid="$catpid" -f -- "$out" 2>/dev/null |
    while IFS= read -r line || [[ -n $line ]]; do
        printf '%s\n' "${line%$'\r'}"
        if ((until_summary)) && [[ $line =~ $re ]]; then
            summary=1
            kill "$catpid" 2>/dev/null || true
        fi
    done || true
wait "$catpid" 2>/dev/null || true

if ((summary)); then
    printf 'capture-serial: summary record seen; log saved in %s\n' "$out" >&2
elif ((stopped)); then
    printf 'capture-serial: stopped; log saved in %s\n' "$out" >&2
    ((!until_summary)) || exit 1
else
    printf 'capture-serial: %s closed (unplugged or hung up); log saved in %s\n' "$device" "$out" >&2
    ((!until_summary)) || exit 1
fi
