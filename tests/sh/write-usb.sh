#!/usr/bin/env bash
# TAP tests for scripts/write-usb.sh.  Every refusal is driven through the
# script's test hooks (ASLRBENCH_LSBLK/_MOUNTS/_SWAPS) against block-device
# nodes made with mknod on an unregistered major, so nothing can be written;
# the real write+verify uses a loop device on a sparse file (root + losetup,
# SKIPped otherwise).  Each check asserts the exit status AND the reason text.
# Usage: tests/sh/write-usb.sh        (exit status non-zero on any failure)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
W=$top/scripts/write-usb.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/write-usb-test.XXXXXX")
loopdev=
mnt=

# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    [[ -n $mnt ]] && umount "$mnt" 2>/dev/null
    [[ -n $loopdev ]] && losetup -d "$loopdev" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# shellcheck source=SCRIPTDIR/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
tap_plan 26

# run [VAR=value ...] -- ARGS...: run the script with no controlling terminal
# and stdin from /dev/null; sets rc and out (stdout + stderr).
run() {
    local -a envs=()
    while [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    out=$(env "${envs[@]}" setsid -w "$W" "$@" </dev/null 2>&1)
    rc=$?
}

# expect NAME CODE REGEX: assert the last run's exit status and output.
expect() {
    if [[ $rc -eq $2 ]] && grep -Eq -- "$3" <<<"$out"; then
        tap_pass "$1"
    else
        tap_fail "$1" "expected exit $2 and /$3/, got exit $rc; output:" "$out"
    fi
}

# ---- fixtures ----------------------------------------------------------------
img=$tmp/img.bin
head -c $((2 * 1024 * 1024)) /dev/urandom >"$img"
plain=$tmp/plain-file
: >"$plain"

cat >"$tmp/lsblk" <<'EOF'
#!/usr/bin/env bash
# fake lsblk: -s prints $FAKE_INV, -P prints $FAKE_TREE, else a canned table
inv=0 pairs=0
for a; do case $a in -s) inv=1 ;; -P) pairs=1 ;; esac; done
if ((inv)); then cat "${FAKE_INV:-/dev/null}"
elif ((pairs)); then cat "$FAKE_TREE"
else echo "NAME SIZE TYPE (canned)"; fi
EOF
chmod +x "$tmp/lsblk"
printf 'proc /proc proc rw 0 0\noverlay / overlay rw 0 0\n' >"$tmp/mounts"
printf 'Filename\tType\tSize\tUsed\tPriority\n' >"$tmp/swaps"

# a block major no driver has registered: nodes on it cannot be opened
major=
for m in $(seq 240 254); do
    if ! sed -n '/^Block/,$p' /proc/devices | awk '{print $1}' | grep -qx "$m"; then
        major=$m
        break
    fi
done
nodes=no
if [[ -n $major ]] && mknod "$tmp/sdz" b "$major" 0 2>/dev/null &&
    mknod "$tmp/sdz1" b "$major" 1 2>/dev/null; then
    nodes=yes
fi

# row NAME TYPE RM HOTPLUG TRAN SIZE MOUNTPOINTS MINOR PKNAME [PATH]
row() {
    printf 'NAME="%s" PATH="%s" TYPE="%s" RM="%s" HOTPLUG="%s" TRAN="%s" SIZE="%s" MODEL="%s" MOUNTPOINTS="%s" MAJ:MIN="%s:%s" PKNAME="%s"\n' \
        "$1" "${10:-$tmp/$1}" "$2" "$3" "$4" "$5" "$6" "$([[ $2 == disk ]] && echo Fake Stick)" "$7" "${major:-240}" "$8" "$9"
}
# tree FILE ROWS...: write a canned `lsblk -P` answer
tree() { local f=$tmp/$1; shift; printf '%s' "$@" >"$f"; }
usb_disk=$(row sdz disk 1 1 usb 67108864 "" 0 "")
usb_part=$(row sdz1 part 1 1 "" 33554432 "" 1 sdz)
tree usb "$usb_disk"$'\n' "$usb_part"$'\n'
hook=(ASLRBENCH_LSBLK="$tmp/lsblk" ASLRBENCH_MOUNTS="$tmp/mounts" ASLRBENCH_SWAPS="$tmp/swaps" FAKE_TREE="$tmp/usb")

needs_nodes() {
    [[ $nodes == yes ]] && return 0
    tap_skip "$1" "cannot mknod block-device nodes here (not root, or no free major)"
    return 1
}

# ---- usage -------------------------------------------------------------------
run -- ; expect "no arguments: usage, exit 2" 2 'usage: .*IMAGE DEVICE'
run -- --bogus "$img" /dev/null; expect "unknown option: usage, exit 2" 2 'unknown option: --bogus'
run -- "$img"; expect "one argument only: usage, exit 2" 2 'need exactly IMAGE and DEVICE'
run -- -h; expect "-h prints usage, exit 0" 0 'Usage: .*write-usb.sh \[--force\] \[--yes\] IMAGE DEVICE'

# ---- image and device --------------------------------------------------------
run "${hook[@]}" -- "$tmp/nope.iso" "$tmp/sdz"
expect "missing image refused" 3 "REFUSED: image '.*nope.iso' does not exist"
run "${hook[@]}" -- "$tmp" "$tmp/sdz"
expect "directory as image refused" 3 "REFUSED: image '.*' is not a regular file"
run "${hook[@]}" FORCE=1 YES=1 -- "$img" "$tmp/no-such-device"
expect "missing device refused" 3 "REFUSED: device '.*no-such-device' does not exist"
run "${hook[@]}" FORCE=1 YES=1 -- "$img" "$plain"
expect "plain file as DEVICE refused" 3 "REFUSED: '.*plain-file' is not a block device"

# ---- refusals through the hooks ----------------------------------------------
if needs_nodes "partition refused"; then
    tree part "$(row sdz1 part 1 1 "" 33554432 "" 1 sdz)"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/part" FORCE=1 YES=1 -- "$img" "$tmp/sdz1"
    expect "partition refused" 3 'REFUSED: .*sdz1 is a partition \(TYPE part\), not a whole disk; give the disk, e\.g\. /dev/sdz'
fi

if needs_nodes "other non-disk type (rom) refused"; then
    tree rom "$(row sdz rom 1 1 usb 67108864 "" 0 "")"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/rom" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "other non-disk type (rom) refused" 3 'REFUSED: .*sdz is not a whole disk \(TYPE rom\)'
fi

if needs_nodes "mounted partition (lsblk MOUNTPOINTS) refused"; then
    tree mnt "$usb_disk"$'\n' "$(row sdz1 part 1 1 "" 33554432 '/media/u/STICK\x0a/mnt' 1 sdz)"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/mnt" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "mounted partition (lsblk MOUNTPOINTS) refused" 3 'REFUSED: .*sdz1 is mounted on /media/u/STICK, /mnt'
fi

if needs_nodes "mounted partition (mounts table) refused"; then
    printf '%s\n' "overlay / overlay rw 0 0" "$tmp/sdz1 /media/u/MY\\040STICK vfat rw 0 0" >"$tmp/mounts-sdz1"
    run "${hook[@]}" ASLRBENCH_MOUNTS="$tmp/mounts-sdz1" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "mounted partition (mounts table) refused" 3 'REFUSED: .*sdz1 is mounted on /media/u/MY STICK'
fi

if needs_nodes "partition in use as swap refused"; then
    { cat "$tmp/swaps"; printf '%s\tpartition\t1048572\t0\t-2\n' "$tmp/sdz1"; } >"$tmp/swaps-sdz1"
    run "${hook[@]}" ASLRBENCH_SWAPS="$tmp/swaps-sdz1" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "partition in use as swap refused" 3 'REFUSED: .*sdz1 is in use as swap'
fi

if needs_nodes "root disk (/ on LVM on sdz2) refused even with FORCE YES"; then
    # / is /dev/mapper/vg-root; only `lsblk -s` knows it sits on sdz2 of sdz
    printf '%s\n' "/dev/mapper/vg-root / ext4 rw 0 0" >"$tmp/mounts-lvm"
    tree inv "$(row vg-root lvm 0 0 "" 8589934592 / 99 sdz2 /dev/mapper/vg-root)"$'\n' \
        "$(row sdz2 part 0 0 "" 33554432 "" 2 sdz)"$'\n' "$usb_disk"$'\n'
    run "${hook[@]}" ASLRBENCH_MOUNTS="$tmp/mounts-lvm" FAKE_INV="$tmp/inv" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "root disk (/ on LVM on sdz2) refused even with FORCE YES" 3 \
        "REFUSED: .*sdz holds the running system's root filesystem"
fi

if needs_nodes "root disk (lsblk shows / on a partition) refused"; then
    tree rootpart "$usb_disk"$'\n' "$(row sdz1 part 1 1 "" 33554432 '/boot/efi\x0a/' 1 sdz)"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/rootpart" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "root disk (lsblk shows / on a partition) refused" 3 \
        "REFUSED: .*sdz holds the running system's root filesystem \(found / on sdz1\)"
fi

if needs_nodes "disk held by dm-crypt refused"; then
    tree crypt "$usb_disk"$'\n' "$usb_part"$'\n' "$(row luks-1 crypt 0 0 "" 33554432 "" 77 sdz1 /dev/mapper/luks-1)"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/crypt" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "disk held by dm-crypt refused" 3 'REFUSED: .*sdz is in use by /dev/mapper/luks-1 \(TYPE crypt\)'
fi

if needs_nodes "non-removable non-USB disk refused without FORCE"; then
    tree sata "$(row sdz disk 0 0 sata 67108864 "" 0 "")"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/sata" YES=1 -- "$img" "$tmp/sdz"
    expect "non-removable non-USB disk refused without FORCE" 3 \
        'REFUSED: .*sdz is not removable and not on USB \(RM=0 HOTPLUG=0 TRAN=sata\); .*FORCE=1'
fi

if needs_nodes "FORCE=1 accepts a non-removable disk (stops at the tty question)"; then
    run "${hook[@]}" FAKE_TREE="$tmp/sata" FORCE=1 -- "$img" "$tmp/sdz"
    expect "FORCE=1 accepts a non-removable disk (stops at the tty question)" 3 'REFUSED: no terminal to confirm on'
fi

if needs_nodes "image larger than the device refused"; then
    tree small "$(row sdz disk 1 1 usb 1048576 "" 0 "")"$'\n'
    run "${hook[@]}" FAKE_TREE="$tmp/small" FORCE=1 YES=1 -- "$img" "$tmp/sdz"
    expect "image larger than the device refused" 3 'REFUSED: image .* \(2097152 bytes\) is larger than .*sdz \(1048576 bytes\)'
fi

if needs_nodes "no tty and no YES refused"; then
    run "${hook[@]}" -- "$img" "$tmp/sdz"
    if [[ $out == *"About to OVERWRITE $tmp/sdz"* && $out == *"Fake Stick"* ]]; then
        expect "no tty and no YES refused (after showing the device)" 3 'REFUSED: no terminal to confirm on; set YES=1'
    else
        tap_fail "no tty and no YES refused (after showing the device)" "device description missing:" "$out"
    fi
fi

if needs_nodes "answer other than YES on the tty refused"; then
    if command -v script >/dev/null; then
        out=$(printf 'yes\n' | env "${hook[@]}" timeout 10 script -qec "'$W' '$img' '$tmp/sdz'" /dev/null 2>&1)
        rc=$?
        expect "answer other than YES on the tty refused" 3 "Type YES to overwrite .*sdz: .*REFUSED: not confirmed \(answer 'yes' is not YES\)"
    else
        tap_skip "answer other than YES on the tty refused" "script(1) not installed"
    fi
fi

if needs_nodes "write failure exits 4"; then
    run "${hook[@]}" YES=1 -- "$img" "$tmp/sdz"
    expect "write failure exits 4" 4 'FAILED: dd could not write'
fi

# ---- real loop device ----------------------------------------------------------
loop_why=
if [[ $(id -u) != 0 ]]; then
    loop_why="not root"
elif ! command -v losetup >/dev/null; then
    loop_why="losetup not installed"
else
    truncate -s 64M "$tmp/disk.raw"
    loopdev=$(losetup -f --show "$tmp/disk.raw" 2>/dev/null) || loopdev=
    [[ -n $loopdev ]] || loop_why="losetup cannot attach a loop device here (container?)"
fi

if [[ -n $loop_why ]]; then
    tap_skip "loop device refused without FORCE" "$loop_why"
else
    run YES=1 -- "$img" "$loopdev"
    expect "loop device refused without FORCE" 3 "REFUSED: $loopdev is a loop device \(TYPE loop\); set FORCE=1"
fi

if [[ -n $loop_why ]]; then
    tap_skip "write + verify on a loop device" "$loop_why"
else
    # an odd size (not a multiple of 4 MiB) exercises the last partial block
    head -c $((5 * 1024 * 1024 + 1536)) /dev/urandom >"$tmp/odd.img"
    sum=$(sha256sum <"$tmp/odd.img" | cut -d' ' -f1)
    run FORCE=1 YES=1 -- "$tmp/odd.img" "$loopdev"
    if [[ $rc -eq 0 && $out == *"image  sha256: $sum"* && $out == *"device sha256: $sum"* ]] &&
        cmp -s -n "$(stat -c %s "$tmp/odd.img")" "$tmp/odd.img" "$loopdev"; then
        tap_pass "write + verify on a loop device"
    else
        tap_fail "write + verify on a loop device" "exit $rc; output:" "$out"
    fi
fi

if [[ -n $loop_why ]]; then
    tap_skip "mounted loop device refused" "$loop_why"
elif ! mkfs.ext4 -q -F "$loopdev" >/dev/null 2>&1 || ! mkdir -p "$tmp/mountpoint" ||
    ! mount "$loopdev" "$tmp/mountpoint" 2>/dev/null; then
    tap_skip "mounted loop device refused" "cannot mkfs/mount here"
else
    mnt=$tmp/mountpoint
    run FORCE=1 YES=1 -- "$img" "$loopdev"
    expect "mounted loop device refused" 3 "REFUSED: $loopdev is mounted on $mnt"
    umount "$mnt" && mnt=
fi

# the real root disk, with FORCE=1 but no YES and no tty: refused as root disk
rootdisk=$(lsblk -s -l -n -o PATH,TYPE "$(findmnt -n -o SOURCE / 2>/dev/null)" 2>/dev/null |
    awk '$2 == "disk" { print $1; exit }')
if [[ -z $rootdisk || ! -b $rootdisk ]]; then
    tap_skip "real root disk refused" "no block device behind / (container?)"
else
    run FORCE=1 -- "$img" "$rootdisk"
    expect "real root disk refused" 3 "REFUSED: $rootdisk holds the running system's root filesystem"
fi

tap_done
