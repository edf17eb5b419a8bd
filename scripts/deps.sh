#!/usr/bin/env bash
# Installs the Debian packages aslrbench needs (build, boot, tests, reports).
#
# Usage: scripts/deps.sh [--check]
#
#   --check     only check: print what is missing and the command that
#               installs it, change nothing
#   -h, --help  this text on stdout; exit 0
#
# As root on Debian it runs apt-get for whatever is missing; otherwise (or
# with --check) it prints the exact command and exits 1 when something is
# missing.  `make run` and `make test` call it first.
# Exit status: 0 everything is installed (now); 1 something is missing;
# 2 bad arguments.
set -euo pipefail

check=0
case ${1:-} in
'') ;;
--check) check=1 ;;
-h | --help)
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
	;;
*)
	echo "deps: unknown option '$1' (usage: scripts/deps.sh [--check], -h for help)" >&2
	exit 2
	;;
esac
[ $# -le 1 ] || { echo "deps: too many arguments (usage: scripts/deps.sh [--check])" >&2; exit 2; }

packages=(
	build-essential pkg-config nasm gnu-efi # kernel, loader, host tools
	qemu-system-x86 ovmf                    # boot under UEFI
	xorriso mtools dosfstools gdisk         # ESP image, hybrid ISO, GPT disk image
	check                                   # host unit-test framework
	dieharder ent                           # RNG statistics
	libssl-dev libsodium-dev                # bench-host peers
	python3 python3-matplotlib              # log -> report and plots
	chromium                                # renders the HTML report in the tests
	parallel                                # scripts/matrix.sh, make rng-quality
	shellcheck                              # script lint in the tests
	clang libclang-rt-14-dev                # libFuzzer targets (make fuzz)
	console-setup-linux                     # the screen console's font (Terminus)
	socat util-linux e2fsprogs              # serial capture and USB writer tests
	musl-tools busybox-static               # Linux programs the kernel runs unchanged
	paxtest                                 # Debian's paxtest in the image
	sbsigntool efitools mokutil             # Secure Boot: sign the loader, key lists (docs/secure-boot.md)
	shim-signed shim-helpers-amd64-signed   # Microsoft-signed shim and MokManager for SB=shim
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$check" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: install them with: sudo sh -c '$cmd'" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
