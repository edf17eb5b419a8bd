#!/bin/busybox sh
# shellcheck shell=dash
# The everyday things from Debian's busybox (static glibc) as init: its sh
# prints, forks and execs other programs (busybox applets and lx_musl),
# pipes between them, reads /proc and writes /tmp.  The busybox
# init boot runs it: init=/bin/busybox -- sh /bin/world.sh
bb=/bin/busybox
echo "world: busybox sh as pid $$"
$bb uname -sr
/bin/lx_musl say "exec'd through a pipe" | $bb tr a-z A-Z
echo "proc: $($bb cut -d' ' -f1,2 /proc/1/stat)"
$bb ls /proc | $bb grep -qx 1 && echo "proc: /proc lists pid 1"
echo "written to tmp" >/tmp/world.txt && echo "tmp: $($bb cat /tmp/world.txt)"
$bb rm /tmp/world.txt && [ ! -e /tmp/world.txt ] && echo "tmp: removed"
echo "world: done"
