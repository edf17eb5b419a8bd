#!/usr/bin/env bash
# write-usb.sh: write an aslrbench image (hybrid ISO or raw GPT .img) to a USB
# stick, refusing anything that could destroy data the user did not mean to
# lose, then verify the write by reading it back.
#
# Usage: scripts/write-usb.sh [--force] [--yes] IMAGE DEVICE
#        (make usb DEV=/dev/sdX calls: scripts/write-usb.sh build/aslrbench.iso /dev/sdX)
#
#   --force, FORCE=1  also accept a disk that is not removable/USB, and loop devices
#   --yes,   YES=1    do not ask "Type YES to overwrite ...:" on the terminal
#
# Refused whatever the flags (exit 3): missing/unreadable/empty image; DEVICE
# missing, not a block device or not writable by us; a partition or another
# non-disk device (loop only with FORCE); the disk holding the running
# system's root filesystem (also through dm/LVM/md parents); DEVICE or any
# partition/holder mounted or used as swap; DEVICE in use by dm/LVM/md; image
# larger than DEVICE; no terminal to confirm on and no YES=1; an answer other
# than YES.
#
# Writes with dd bs=4M conv=fsync oflag=direct (without oflag=direct when the
# device does not support it), syncs, reads back exactly the image's byte
# count and compares SHA-256 sums (both printed).
#
# Exit status: 0 written and verified; 2 usage; 3 refused (nothing written);
#              4 write or verify failure; 1 unexpected error.
#
# Test hooks (for tests/sh/write-usb.sh only; never set them otherwise):
#   ASLRBENCH_LSBLK   executable run instead of `lsblk`, with lsblk's arguments;
#                     prints canned `lsblk -P` pairs output.
#   ASLRBENCH_MOUNTS  file read instead of /proc/self/mounts (when set,
#                     /proc/self/mountinfo and /sys are not consulted).
#   ASLRBENCH_SWAPS   file read instead of /proc/swaps.
set -euo pipefail

readonly EX_USAGE=2 EX_REFUSED=3 EX_WRITE=4
readonly COLS=NAME,PATH,TYPE,RM,HOTPLUG,TRAN,SIZE,MODEL,MOUNTPOINTS,MAJ:MIN,PKNAME

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

short_usage() {
    echo "usage: $0 [--force] [--yes] IMAGE DEVICE   (-h for help)" >&2
}

msg() { printf 'write-usb: %s\n' "$*" >&2; }
refuse() {
    msg "REFUSED: $*"
    msg "nothing was written."
    exit "$EX_REFUSED"
}
fail() {
    msg "FAILED: $*"
    exit "$EX_WRITE"
}

run_lsblk() {
    if [[ -n ${ASLRBENCH_LSBLK:-} ]]; then
        "$ASLRBENCH_LSBLK" "$@"
    else
        lsblk "$@"
    fi
}

# parse_pairs NAME: read `lsblk -P` output on stdin into associative array
# NAME: NAME[n] = number of rows, NAME[i,KEY] = value of KEY in row i.
parse_pairs() {
    local -n _t=$1
    local line rest n=0
    local re='^[[:space:]]*([A-Za-z0-9:_%.-]+)="([^"]*)"(.*)$'
    while IFS= read -r line || [[ -n $line ]]; do
        [[ -n ${line//[[:space:]]/} ]] || continue
        rest=$line
        while [[ $rest =~ $re ]]; do
            # shellcheck disable=SC2004 # associative array (nameref), not arithmetic
            _t[$n,${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
            rest=${BASH_REMATCH[3]}
        done
        n=$((n + 1))
    done
    _t[n]=$n
}

# query_pairs NAME [-s] DEV: lsblk -P rows of DEV and its children (or, with
# -s, its parents) into NAME.  Falls back to MOUNTPOINT for util-linux < 2.37.
query_pairs() {
    local name=$1 out
    shift
    if ! out=$(run_lsblk -P -b -o "$COLS" "$@" 2>/dev/null); then
        out=$(run_lsblk -P -b -o "${COLS/MOUNTPOINTS/MOUNTPOINT}" "$@") || return 1
    fi
    parse_pairs "$name" <<<"$out"
}

canon() { realpath -m -- "$1"; }
is_true() { [[ ${1:-} == 1 || ${1:-} == true ]]; }

# ---- arguments ---------------------------------------------------------------
force=0
yes=0
is_true "${FORCE:-}" && force=1
is_true "${YES:-}" && yes=1
args=()
while (($#)); do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    -f | --force) force=1 ;;
    -y | --yes) yes=1 ;;
    --)
        shift
        args+=("$@")
        break
        ;;
    -*)
        msg "unknown option: $1"
        short_usage
        exit "$EX_USAGE"
        ;;
    *) args+=("$1") ;;
    esac
    shift
done
if ((${#args[@]} != 2)) || [[ -z ${args[0]} || -z ${args[1]} ]]; then
    msg "need exactly IMAGE and DEVICE (e.g. make usb DEV=/dev/sdX)"
    short_usage
    exit "$EX_USAGE"
fi
image=${args[0]}
dev_arg=${args[1]}
mounts_file=${ASLRBENCH_MOUNTS:-/proc/self/mounts}
swaps_file=${ASLRBENCH_SWAPS:-/proc/swaps}

# ---- image -------------------------------------------------------------------
[[ -e $image ]] || refuse "image '$image' does not exist (build it with 'make iso')"
[[ -f $image ]] || refuse "image '$image' is not a regular file"
[[ -r $image ]] || refuse "image '$image' is not readable"
img_size=$(stat -L -c %s -- "$image")
((img_size > 0)) || refuse "image '$image' is empty"

# ---- device ------------------------------------------------------------------
[[ -e $dev_arg ]] || refuse "device '$dev_arg' does not exist"
dev=$(realpath -- "$dev_arg")
[[ -b $dev ]] || refuse "'$dev_arg' is not a block device"
[[ -w $dev ]] || refuse "no permission to write $dev (run as root, e.g. with sudo)"

# root_paths / root_mm: the device behind / and all its parents (partition,
# dm/LVM/md layers, disk), as canonical paths and MAJ:MIN numbers.
declare -A root_paths=() root_mm=()
find_root() {
    local src mm name s i
    local -a srcs=()
    src=$(awk '$2 == "/" { s = $1 } END { print s }' "$mounts_file")
    [[ $src == /* ]] && srcs+=("$src")
    if [[ -z ${ASLRBENCH_MOUNTS:-} ]]; then
        # /dev/root, btrfs subvolumes etc.: the kernel's own idea of the device
        mm=$(awk '$5 == "/" { m = $3 } END { print m }' /proc/self/mountinfo 2>/dev/null || true)
        if [[ $mm =~ ^[1-9][0-9]*:[0-9]+$ ]]; then
            root_mm[$mm]=1
            if [[ -e /sys/dev/block/$mm ]]; then
                name=$(basename "$(readlink -f "/sys/dev/block/$mm")")
                [[ -b /dev/$name ]] && srcs+=("/dev/$name")
            fi
        fi
    fi
    for s in "${srcs[@]}"; do
        local -A up=()
        if ! query_pairs up -s "$s"; then
            msg "warning: cannot resolve the disk behind / ($s) with lsblk -s"
            continue
        fi
        root_paths[$(canon "$s")]=1
        for ((i = 0; i < up[n]; i++)); do
            [[ -n ${up[$i,PATH]:-} ]] && root_paths[$(canon "${up[$i,PATH]}")]=1
            [[ -n ${up[$i,MAJ:MIN]:-} ]] && root_mm[${up[$i,MAJ:MIN]}]=1
        done
        unset up
    done
}

# check_device: every refusal about DEVICE; sets T (lsblk rows) and signature.
declare -A T
signature=
check_device() {
    local i p mp type pk src rest tran rm hp size
    declare -gA T=()
    query_pairs T "$dev" || refuse "lsblk cannot describe $dev, so its safety cannot be checked"
    ((T[n] > 0)) || refuse "lsblk reports nothing for $dev"

    type=${T[0,TYPE]:-}
    case $type in
    disk) ;;
    loop) ((force)) || refuse "$dev is a loop device (TYPE loop); set FORCE=1 (or --force) to write to it anyway" ;;
    part)
        pk=${T[0,PKNAME]:-}
        refuse "$dev is a partition (TYPE part), not a whole disk; give the disk${pk:+, e.g. /dev/$pk}"
        ;;
    *) refuse "$dev is not a whole disk (TYPE ${type:-unknown})" ;;
    esac

    # the running system's root filesystem
    declare -A mine=()
    for ((i = 0; i < T[n]; i++)); do
        p=$(canon "${T[$i,PATH]:-/dev/${T[$i,NAME]:-?}}")
        mine[$p]=$i
        mp=${T[$i,MOUNTPOINTS]:-${T[$i,MOUNTPOINT]:-}}
        if [[ -n ${root_paths[$p]:-} || -n ${root_mm[${T[$i,MAJ:MIN]:-x}]:-} || $'\n'${mp//\\x0a/$'\n'}$'\n' == *$'\n/\n'* ]]; then
            refuse "$dev holds the running system's root filesystem (found / on ${T[$i,NAME]:-$p})"
        fi
    done

    # mounted or swap: lsblk's view, then the kernel's mount and swap tables
    for ((i = 0; i < T[n]; i++)); do
        mp=${T[$i,MOUNTPOINTS]:-${T[$i,MOUNTPOINT]:-}}
        [[ -z $mp ]] || refuse "${T[$i,PATH]:-${T[$i,NAME]}} is mounted on ${mp//\\x0a/, } (unmount it first, e.g. udisksctl unmount -b ${T[$i,PATH]:-DEV})"
    done
    while read -r src mp rest; do
        [[ $src == /* ]] || continue
        if [[ -n ${mine[$(canon "$src")]:-} ]]; then
            refuse "$src is mounted on ${mp//\\040/ } (unmount it first)"
        fi
    done <"$mounts_file"
    if [[ -r $swaps_file ]]; then
        while read -r src rest; do
            [[ $src == /* ]] || continue
            if [[ -n ${mine[$(canon "$src")]:-} ]]; then
                refuse "$src is in use as swap (swapoff it first)"
            fi
        done <"$swaps_file"
    fi

    # held by device-mapper / LVM / md / multipath
    for ((i = 1; i < T[n]; i++)); do
        [[ ${T[$i,TYPE]:-} == part ]] && continue
        refuse "$dev is in use by ${T[$i,PATH]:-${T[$i,NAME]}} (TYPE ${T[$i,TYPE]:-?}); close/deactivate it first"
    done

    rm=${T[0,RM]:-0} hp=${T[0,HOTPLUG]:-0} tran=${T[0,TRAN]:-}
    if ! is_true "$rm" && ! is_true "$hp" && [[ $tran != usb ]] && ((!force)); then
        refuse "$dev is not removable and not on USB (RM=$rm HOTPLUG=$hp TRAN=${tran:-none}); if you are sure, set FORCE=1 (or --force)"
    fi

    size=${T[0,SIZE]:-}
    if ! [[ $size =~ ^[1-9][0-9]*$ ]]; then
        refuse "cannot determine the size of $dev"
    fi
    ((img_size <= size)) || refuse "image '$image' ($img_size bytes) is larger than $dev ($size bytes)"
    dev_size=$size
    signature="${T[0,MAJ:MIN]:-}|$size|${T[0,MODEL]:-}"
}

human() { numfmt --to=iec-i --suffix=B "$1" 2>/dev/null || echo "$1 bytes"; }

find_root
check_device
first_signature=$signature

# ---- show and confirm --------------------------------------------------------
{
    given=
    [[ $dev_arg == "$dev" ]] || given=" (given as $dev_arg)"
    echo "About to OVERWRITE $dev$given:"
    echo "  model: ${T[0,MODEL]:-unknown}  size: $(human "$dev_size")  transport: ${T[0,TRAN]:-unknown}  type: ${T[0,TYPE]}"
    echo "  current contents:"
    run_lsblk -o NAME,SIZE,TYPE,FSTYPE,LABEL,MODEL "$dev" 2>/dev/null | sed 's/^/    /' || true
    echo "  with: $image ($(human "$img_size"))"
} >&2

if ((yes)); then
    msg "YES=1: not asking for confirmation"
else
    ( : <>/dev/tty) 2>/dev/null ||
        refuse "no terminal to confirm on; set YES=1 (or --yes) to write without asking"
    exec 9<>/dev/tty
    printf 'Type YES to overwrite %s: ' "$dev" >&9
    answer=
    IFS= read -r answer <&9 || true
    exec 9>&-
    [[ $answer == YES ]] || refuse "not confirmed (answer '$answer' is not YES)"
fi

# The world may have changed while we waited (automounter, stick swapped).
find_root
check_device
[[ $signature == "$first_signature" ]] ||
    refuse "$dev changed while waiting for confirmation ($first_signature -> $signature)"

# ---- write -------------------------------------------------------------------
img_sum=$(sha256sum <"$image" | cut -d' ' -f1)
direct=()
if dd if=/dev/null of="$dev" bs=4096 count=0 conv=notrunc oflag=direct status=none 2>/dev/null; then
    direct=(oflag=direct)
else
    msg "note: $dev does not accept O_DIRECT; writing through the page cache"
fi
msg "writing $image to $dev ..."
dd if="$image" of="$dev" bs=4M conv=fsync,notrunc "${direct[@]}" status=progress ||
    fail "dd could not write $image to $dev"
sync
blockdev --flushbufs "$dev" 2>/dev/null || true # read back from the medium, not the cache

# ---- verify ------------------------------------------------------------------
read_back() { dd if="$dev" bs=4M count="$img_size" iflag="count_bytes$1" status=none; }
if ! dev_sum=$(read_back ,direct 2>/dev/null | sha256sum); then
    dev_sum=$(read_back "" | sha256sum) || fail "cannot read $dev back"
fi
dev_sum=${dev_sum%% *}
echo "image  sha256: $img_sum  ($image, $img_size bytes)"
echo "device sha256: $dev_sum  (first $img_size bytes of $dev)"
[[ $img_sum == "$dev_sum" ]] || fail "verification FAILED: $dev does not hold the image"
echo "OK: $dev written and verified; eject it before unplugging (e.g. udisksctl power-off -b $dev)."
