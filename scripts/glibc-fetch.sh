#!/usr/bin/env bash
# Fetches Debian 13's C library (glibc 2.41, package libc6) for the boots
# that run a dynamic program against it (tests/sh/vgetrandom.sh).
#
# Usage: scripts/glibc-fetch.sh [DIR]
#        scripts/glibc-fetch.sh -h | --help
#
# glibc 2.41 is the first to serve getrandom() and arc4random() through
# Linux 6.11's vDSO getrandom; Debian 12's 2.36 always makes the system
# call.  This downloads trixie's libc6 from Debian's archive and unpacks it
# under DIR (default build/glibc-trixie) without installing anything
# (scripts/lib/debfetch.sh).  Run again, it does nothing.  Prints the
# directory holding ld-linux-x86-64.so.2 and libc.so.6.  Exit status: 0
# ready; 1 the download or unpacking failed (the message says which); 2
# bad arguments.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/debfetch.sh
. "$here/scripts/lib/debfetch.sh"
debfetch_cli glibc-fetch "${1:-}"
dir=${1:-$here/build/glibc-trixie}
lib=$dir/root/usr/lib/x86_64-linux-gnu
release=trixie

if [ -r "$lib/libc.so.6" ] && [ -r "$lib/ld-linux-x86-64.so.2" ] && [ -s "$dir/VERSION" ]; then
	echo "$lib"
	exit 0
fi
debfetch "$dir" "$release" libc6 || exit 1
for f in libc.so.6 ld-linux-x86-64.so.2; do
	[ -r "$lib/$f" ] || { echo "glibc-fetch: the package has no $f" >&2; exit 1; }
done
echo "$debfetch_version" >"$dir/VERSION"
echo "$lib"
