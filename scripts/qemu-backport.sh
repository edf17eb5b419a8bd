#!/usr/bin/env bash
# Fetches a QEMU whose TCG emulates x2APIC, for run-qemu.sh --x2apic.
#
# Usage: scripts/qemu-backport.sh [DIR]
#        scripts/qemu-backport.sh -h | --help
#
# Debian 12's QEMU (7.2) has no x2APIC under TCG, so no boot on this
# machine could take the kernel's x2APIC path (docs/design.md, "Tasks on
# every CPU").  bookworm-backports carries QEMU 10.0, built against
# Debian 12's libraries.  This downloads its qemu-system-x86 and
# qemu-system-data packages from Debian's archive with apt-get download (a
# sources list of its own: the system's apt configuration is not touched),
# unpacks them under DIR (default build/qemu-backport) without installing
# anything, and writes DIR/qemu-system-x86_64, which runs that binary with
# its own firmware and option ROMs (-L).  Run again, it does nothing.
# Prints the wrapper's path.  Exit status: 0 ready; 1 the download or
# unpacking failed (the message says which); 2 bad arguments.
set -euo pipefail

case ${1:-} in
-h | --help)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
	;;
-*)
	echo "qemu-backport: unknown option '$1' (usage: scripts/qemu-backport.sh [DIR], -h for help)" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/build/qemu-backport}
wrapper=$dir/qemu-system-x86_64
release=bookworm-backports

if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
	echo "$wrapper"
	exit 0
fi
if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
	echo "qemu-backport: needs apt-get and dpkg (Debian)" >&2
	exit 1
fi
rm -rf "$dir" && mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs"
echo "deb http://deb.debian.org/debian $release main" >"$dir/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
	-o APT::Sandbox::User=root -q)
if ! apt-get "${apt_opts[@]}" update >"$dir/apt.log" 2>&1; then
	echo "qemu-backport: apt-get update of $release failed (see $dir/apt.log)" >&2
	exit 1
fi
version=$(apt-cache "${apt_opts[@]}" madison qemu-system-x86 2>/dev/null |
	awk -v r="$release" '$0 ~ r { print $3; exit }')
if [ -z "$version" ]; then
	echo "qemu-backport: no qemu-system-x86 in $release" >&2
	exit 1
fi
if ! (cd "$dir/debs" && apt-get "${apt_opts[@]}" download "qemu-system-x86=$version" \
	"qemu-system-data=$version") >>"$dir/apt.log" 2>&1; then
	echo "qemu-backport: downloading qemu-system-x86 $version failed (see $dir/apt.log)" >&2
	exit 1
fi
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
cat >"$wrapper" <<EOF
#!/bin/sh
# QEMU $version from $release (scripts/qemu-backport.sh), its own data files.
exec "$dir/root/usr/bin/qemu-system-x86_64" -L "$dir/root/usr/share/qemu" "\$@"
EOF
chmod 755 "$wrapper"
if ! "$wrapper" --version >/dev/null 2>&1; then
	echo "qemu-backport: $wrapper does not run (a library missing? ldd $dir/root/usr/bin/qemu-system-x86_64)" >&2
	exit 1
fi
rm -rf "$dir/debs" "$dir/apt/cache"
echo "$wrapper"
