#!/usr/bin/env bash
# TAP: the expectations of the kernel's file-system tests, proved on the host
# Linux, and the initramfs packer.
#  - userland/test/t_vfs.c built with the host's gcc against glibc (through
#    tests/sh/vfs-host/shim/, the same calls returning -errno) and run under /tmp:
#    every check the kernel must pass, the host Linux passes too;
#  - scripts/mkcpio.py: the same tree packed twice (different mtimes,
#    another umask) gives identical bytes; --base/--add keeps, adds and
#    replaces entries; a hard link shares its inode and the data travels
#    with the first name; bad --add paths are refused;
#  - make's EXTRA=DIR (into a scratch BUILD directory).
# Usage: tests/sh/vfs-host.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vfs-host.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tap_plan 7

if gcc -std=gnu11 -O1 -Wall -Wextra -Werror -iquote "$top/tests/sh/vfs-host/shim" -I"$top" \
	-o "$tmp/t_vfs" "$top/userland/test/t_vfs.c" >"$tmp/cc.log" 2>&1; then
	tap_run "t_vfs's expectations hold on the host Linux ($(uname -r))" "$tmp/t_vfs"
else
	tap_fail "t_vfs builds against glibc" "$(cat "$tmp/cc.log")"
fi

mk() { mkdir -p "$1/etc" "$1/bin"; echo hi >"$1/etc/motd"; ln -s motd "$1/etc/issue"; ln "$1/etc/motd" "$1/etc/hard"; printf '#!/bin/sh\n' >"$1/bin/x"; chmod 755 "$1/bin/x"; }
(umask 022 && mk "$tmp/a")
(umask 002 && mk "$tmp/b")
touch -d @1 "$tmp/b/etc/motd"
SOURCE_DATE_EPOCH=42 "$top/scripts/mkcpio.py" "$tmp/a.cpio" --dir "$tmp/a"
SOURCE_DATE_EPOCH=42 "$top/scripts/mkcpio.py" "$tmp/b.cpio" --dir "$tmp/b"
tap_run "mkcpio: same tree, other mtimes and umask, same bytes" cmp "$tmp/a.cpio" "$tmp/b.cpio"

list=$("$top/scripts/mkcpio.py" --list "$tmp/a.cpio")
want=$(printf '%s\n' "40755 0 0 0 /bin" "100755 0 0 10 /bin/x" "40755 0 0 0 /etc" \
	"100644 0 0 3 /etc/hard" "120777 0 0 4 /etc/issue" "100644 0 0 0 /etc/motd")
[ "$list" = "$want" ]
tap_check $? "mkcpio: sorted entries, 0:0 owners, modes 0755/0644, data with the first hard link" \
	"got:" "$list"

echo new >"$tmp/new"
"$top/scripts/mkcpio.py" "$tmp/c.cpio" --base "$tmp/a.cpio" --add "$tmp/new" --add "$tmp/new=/etc/motd" \
	--add "$tmp/a/etc=/opt/etc"
list=$("$top/scripts/mkcpio.py" --list "$tmp/c.cpio")
case $list in
*"100644 0 0 4 /bin/new"*"100644 0 0 4 /etc/motd"*"40755 0 0 0 /opt"*"120777 0 0 4 /opt/etc/issue"*) ok=0 ;;
*) ok=1 ;;
esac
tap_check $ok "mkcpio --base/--add: default /bin/NAME, replaced file, a directory recursively" "$list"

"$top/scripts/mkcpio.py" "$tmp/d.cpio" --add "$tmp/new=/a/../b" >"$tmp/err" 2>&1
[ $? = 1 ] && grep -q "without '..'" "$tmp/err"
tap_check $? "mkcpio --add refuses a '..' image path" "$(cat "$tmp/err")"

"$top/scripts/mkcpio.py" "$tmp/d.cpio" --add "$tmp/none" >"$tmp/err" 2>&1
[ $? = 1 ] && grep -q "no such file" "$tmp/err"
tap_check $? "mkcpio --add refuses a missing host file" "$(cat "$tmp/err")"
# make's EXTRA=DIR: added, dropped again without it, refused when not a directory.
# The scratch BUILD starts from a copy of build/'s initramfs inputs, times
# kept, so make repacks the archive instead of compiling every program again
# (27 s of this suite alone, 41 s beside a boot); what is missing it builds.
mkdir -p "$tmp/build"
for d in user userland initrd-aslrbench initrd-progs initrd-userland paxtest-root; do
	[ ! -e "$top/build/$d.stamp" ] || cp -a "$top/build/$d.stamp" "$tmp/build/"
	[ ! -d "$top/build/$d" ] || cp -a "$top/build/$d" "$tmp/build/"
done
mkx() { make -s --no-print-directory -C "$top" BUILD="$tmp/build" "$tmp/build/initrd.cpio" "$@"; }
has_hard() { "$top/scripts/mkcpio.py" --list "$tmp/build/initrd.cpio" >"$tmp/list" && grep -q ' /etc/hard$' "$tmp/list"; }
ok=1
if mkx EXTRA="$tmp/a" >"$tmp/m1" 2>&1 && has_hard && mkx >"$tmp/m2" 2>&1 && ! has_hard &&
	! mkx EXTRA="$tmp/none" >"$tmp/m3" 2>&1 && grep -q "not a directory" "$tmp/m3"; then
	ok=0
fi
tap_check $ok "make EXTRA=DIR adds DIR to the initramfs, a build without drops it, a bad DIR fails" \
	"$(cat "$tmp/m1" "$tmp/m2" "$tmp/m3" 2>/dev/null)"
tap_done
