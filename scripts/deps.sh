#!/usr/bin/env bash
# Installs the Debian packages aslrbench needs (build, boot, tests, reports).
#
# Usage: scripts/deps.sh [--run] [--check]
#
#   --run       only what building the image and booting it needs (make run);
#               without it, everything (make test: tests, reports, fuzzing)
#   --check     only check: print what is missing and the command that
#               installs it, change nothing
#   -h, --help  this text on stdout; exit 0
#
# As root on Debian it runs apt-get for whatever is missing; otherwise (or
# with --check) it prints the exact command and exits 1 when something is
# missing.  `make run` calls it with --run first, `make test` without.
# Exit status: 0 everything is installed (now); 1 something is missing;
# 2 bad arguments.
set -euo pipefail

check=0 run_only=0
for arg in "$@"; do
	case $arg in
	--check) check=1 ;;
	--run) run_only=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	*)
		echo "deps: unknown option '$arg' (usage: scripts/deps.sh [--run] [--check], -h for help)" >&2
		exit 2
		;;
	esac
done

# make run: build the image (kernel, loader, initramfs with busybox, musl and
# glibc programs and paxtest, the console font) and boot it under OVMF.
packages=(
	build-essential pkg-config nasm gnu-efi # kernel, loader
	qemu-system-x86 ovmf                    # boot under UEFI
	xorriso mtools                          # ESP image, hybrid ISO
	console-setup-linux                     # the screen console's font (Terminus)
	musl-tools busybox-static               # Linux programs the kernel runs unchanged
	gcc-multilib                            # an IA-32 test program (gcc -m32 -static)
	paxtest                                 # Debian's paxtest in the image
	python3                                 # the initramfs packer, run-qemu.sh's serial view
)
# make test and the rest: host tools and tests, reports, fuzzing.
[ "$run_only" = 1 ] || packages+=(
	dosfstools gdisk                   # GPT disk image (make img), ESP checks
	check                              # host unit-test framework
	dieharder ent                      # RNG statistics
	libssl-dev libsodium-dev           # bench-host peers
	python3-matplotlib                 # log -> report and plots
	python3-numpy python3-scipy        # compare: the change column's bootstrap interval
	chromium                           # renders the HTML report in the tests
	parallel                           # scripts/matrix.sh, make rng-quality
	shellcheck                         # script lint in the tests
	clang libclang-rt-14-dev           # libFuzzer targets (make fuzz)
	socat util-linux e2fsprogs         # serial capture and USB writer tests
	tmux                               # the serial shell on a terminal (tests/sh/terminal.sh)
	sbsigntool efitools mokutil        # Secure Boot: sign the loader, key lists (docs/secure-boot.md)
	shim-signed shim-helpers-amd64-signed # Microsoft-signed shim and MokManager for SB=shim
	zbar-tools                         # zbarimg: scripts/qr-decode.py, the QR tests
	python3-pil zlib1g-dev             # QR tests: photo-like pictures, inflating test_qr's streams
	autoconf automake m4               # LTP's configure (make ltp, tests/sh/ltp.sh)
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
