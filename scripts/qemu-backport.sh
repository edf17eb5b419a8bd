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
# qemu-system-data packages from Debian's archive and unpacks them under
# DIR (default build/qemu-backport) without installing anything
# (scripts/lib/debfetch.sh), and writes DIR/qemu-system-x86_64, which runs
# that binary with its own firmware and option ROMs (-L).  Run again, it does nothing.
# Prints the wrapper's path.  Exit status: 0 ready; 1 the download or
# unpacking failed (the message says which); 2 bad arguments.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/debfetch.sh
. "$here/scripts/lib/debfetch.sh"
debfetch_cli qemu-backport "${1:-}"
dir=${1:-$here/build/qemu-backport}
wrapper=$dir/qemu-system-x86_64
release=bookworm-backports

if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
	echo "$wrapper"
	exit 0
fi
debfetch "$dir" "$release" qemu-system-x86 qemu-system-data || exit 1
version=$debfetch_version
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
echo "$wrapper"
