#!/usr/bin/env bash
# Fetches the OVMF firmware run-qemu.sh boots with: Debian 13's (edk2 2025.02).
#
# Usage: scripts/ovmf-fetch.sh [DIR]
#        scripts/ovmf-fetch.sh -h | --help
#
# Debian 12's OVMF (edk2 2022.11) waits for a TPM that is not there: QEMU
# answers 0 where a PC's bus answers 0xFF, so the firmware polls the
# TPM's registers until its timeouts run out, 1.6 s of every boot and 25 s
# under --deterministic, where each poll costs far more than its nanosecond
# (docs/testing.md).  Debian 13's (edk2 2025.02) does not wait there, and
# boots an image in about half the time, a deterministic one in a fifth.
# Firmware files do not depend on the release's libraries: this downloads
# trixie's ovmf package from Debian's archive and unpacks it under DIR
# (default build/ovmf) without installing anything
# (scripts/lib/debfetch.sh).  run-qemu.sh boots with DIR's firmware when it
# is there, and with /usr/share/OVMF's otherwise.
# Run again, it does nothing.  Prints the firmware's directory.  Exit
# status: 0 ready; 1 the download or unpacking failed (the message says
# which); 2 bad arguments.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/debfetch.sh
. "$here/scripts/lib/debfetch.sh"
debfetch_cli ovmf-fetch "${1:-}"
dir=${1:-$here/build/ovmf}
fw=$dir/root/usr/share/OVMF
release=trixie

if [ -r "$fw/OVMF_CODE_4M.fd" ] && [ -s "$dir/VERSION" ]; then
	echo "$fw"
	exit 0
fi
debfetch "$dir" "$release" ovmf || exit 1
for f in OVMF_CODE_4M.fd OVMF_VARS_4M.fd; do
	[ -r "$fw/$f" ] || { echo "ovmf-fetch: the package has no $f" >&2; exit 1; }
done
echo "$debfetch_version" >"$dir/VERSION"
echo "$fw"
