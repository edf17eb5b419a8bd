#!/usr/bin/env bash
# Boots an aslrbench image under OVMF and exits with the kernel's status.
#
# Usage: scripts/run-qemu.sh [OPTIONS]
#
#   --iso FILE         the image to boot: a hybrid ISO (make iso, the default
#                      build/aslrbench.iso) or a raw disk image (make img)
#   --usb              attach it as a USB stick (xHCI) instead of a CD-ROM
#   --cmdline "k=v ..."  boot with this kernel command line instead of the
#                      image's cmdline.txt (a copy of the image is edited; the
#                      kernel is not rebuilt)
#   --add HOSTPATH[=IMAGEPATH]  put a host file (a directory: recursively) into
#                      a copy of the image's initramfs at IMAGEPATH (default
#                      /bin/NAME); repeatable, later ones win; owners 0:0,
#                      modes 0755 (directories, executables) or 0644; an ISO
#                      or bare ESP image only (not make img's disk)
#   --deterministic    TCG with -icount shift=0 and a fixed seed: the TSC
#                      counts guest instructions, identical on every run
#                      (serial output goes through a file, not a FIFO, so a
#                      slow reader cannot stall the guest's UART writes)
#   --timeout SEC      stop the guest after SEC seconds (exit 124); default 300,
#                      none on a terminal (stdin a tty) unless given.  Once
#                      the kernel runs, a timeout first prints where each CPU
#                      is (scripts/hang-dump.py: ring, RIP, the kernel
#                      functions on its stack) on stderr
#   --symbols ELF      the kernel ELF for those names (default build/kernel.elf
#                      for build/aslrbench.iso or .img; else none unless given)
#   --log FILE         also write the serial output to FILE, byte for byte,
#                      records included
#   --accel auto|kvm|tcg  auto (default): KVM when it really boots OVMF here
#                      (probed once, cached in build/.kvm-probe), else TCG
#   --memory MB        guest memory (default 512)
#   --smp N            number of CPUs (default 1)
#   --x2apic           the last of the --smp N CPUs (N >= 2) at APIC ID 256,
#                      so OVMF puts every CPU in x2APIC mode before the
#                      kernel runs, as firmware does on a PC with that many
#                      CPUs (with an IOMMU for interrupt remapping, which
#                      such IDs need).  Needs a QEMU whose TCG has x2APIC:
#                      $QEMU_X2APIC, else the system's if it is 10 or later,
#                      else build/qemu-backport/ (scripts/qemu-backport.sh);
#                      implies --accel tcg
#   --tcg-cpu MODEL    TCG's -cpu instead of max, e.g. max,vendor=GenuineIntel
#                      (an Intel CPU's sysenter path on an AMD-looking max);
#                      implies --accel tcg
#   --keys TEXT        typed on the PS/2 keyboard (QEMU monitor sendkey) once
#                      the kernel reads its console; \n is Enter, the bytes
#                      0x03 and 0x1a Ctrl-C and Ctrl-Z
#   --screenshot FILE  the screen at the end of the run as a PNG (QEMU monitor
#                      screendump)
#   --qr-dumps DIR     the run's QR codes (kernel qr=on, docs/hardware.md) as
#                      DIR/qr-K.png: each code is dumped (monitor screendump)
#                      when the kernel says it is drawn, then a key shows the
#                      next; older DIR/qr-*.png are removed first
#   --no-serial        no serial port at all, as on many PCs (the log is empty,
#                      the status still comes back, a loader refusal ends only
#                      by timeout)
#   --resolution WxH   the screen mode OVMF sets (std VGA's EDID says WxH)
#   --secure-boot MODE  OVMF's Secure Boot firmware (q35 with SMM) and a fresh
#                      copy of a vars template: snakeoil (OVMF's test key in
#                      PK/KEK/db; the loader in a copy of the image is sealed
#                      and signed with that key, or with SIGN_KEY/SIGN_CERT
#                      from the environment), shim (Microsoft's keys; the copy
#                      gets the shim layout of docs/secure-boot.md, its loader
#                      signed with SIGN_KEY/SIGN_CERT or a throw-away MOK made
#                      under build/sb-test/, and that MOK is pre-enrolled as
#                      MokList in the vars copy), ms (Microsoft's keys, image
#                      unchanged)
#   --vars FILE        the vars template to copy (default: the mode's)
#   --no-sign          --secure-boot snakeoil: leave the image's loader as it is
#   --tamper kernel|initrd  change one byte of that file on the copy after
#                      signing (tests: the loader must refuse it)
#   -h, --help         this text, on stdout; exit 0
#
# Firmware: OVMF from OVMF_DIR (the environment), else the one
# scripts/ovmf-fetch.sh unpacked into build/ovmf/ (Debian 13's, twice as
# fast to boot: docs/testing.md; make run and make test fetch it), else
# Debian 12's /usr/share/OVMF; OVMF_CODE and OVMF_VARS name single files.
# --secure-boot always uses Debian 12's, whose keys and shim path
# docs/secure-boot.md follows.  The boot record's "host" names the version.
#
# Input: a terminal on stdin is the serial console, in raw mode for the
# whole session (QEMU in the foreground, every byte to the guest: Ctrl-C is
# the guest's, whose tty sends SIGINT to its foreground process group;
# Ctrl-A x quits, Ctrl-A h lists QEMU's other keys); the terminal's settings
# are restored on every exit.  A pipe is fed to the serial port once the
# kernel says it reads it (the firmware would drop it).
# Output: the serial stream on stdout as it comes, byte by byte, except the
# firmware's screen-clearing and cursor-homing escape sequences (ESC[2J and
# other ESC[...J, ESC[row;colH, ESC[=Nh, ESC c, ESC[?1049h/l), dropped until
# the loader's first line so that they do not wipe the terminal.  When
# stdout is a terminal it is the human view: the `@@ {json}` record lines
# are left out too (scripts/serial-view.py).  --log FILE keeps everything.
# Messages of run-qemu.sh itself go to stderr.
#
# Exit status (0-3 are the kernel's own, through isa-debug-exit; 4 is the
# loader's refusal, seen in the serial log):
#     0  the job passed              1  the job failed
#     2  the kernel rejected its command line (bad key or value)
#     3  kernel panic                4  the loader refused to boot (see log)
#     5  QEMU failed, or the guest stopped without a status
#     6  the firmware found nothing it would boot (under Secure Boot: it
#        refused the loader, "Access Denied" in the log)
#    64  usage error of run-qemu.sh (unknown option, bad or missing value)
#    66  the image, the OVMF firmware or QEMU is missing
#   124  timeout                   130  interrupted
#
# KVM is used only when it really boots OVMF: on some hosts /dev/kvm exists
# but stops at the firmware's first instructions, so it is probed once (the
# answer is cached in build/) and TCG is the fallback.
# QEMU's option syntax is comma-separated; cleanup runs from a trap.
# shellcheck disable=SC2054,SC2317
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/qemu.sh
. "$here/scripts/lib/qemu.sh"
iso="$here/build/aslrbench.iso"
symbols=""
usb=0 cmdline="" have_cmdline=0 adds=() deterministic=0 timeout=300 timeout_given=0 log="" accel=auto mem=512 smp=1 x2apic=0 keys="" tcg_cpu=max
screenshot="" qr_dumps="" no_serial=0 resolution="" secure_boot=off vars="" no_sign=0 tamper=""
QEMU=${QEMU:-qemu-system-x86_64}
# The firmware (see "Firmware" above): OVMF_DIR, else scripts/ovmf-fetch.sh's, else Debian 12's.
system_fw=/usr/share/OVMF fetched_fw=$here/build/ovmf/root/usr/share/OVMF
if [ -z "${OVMF_DIR:-}" ]; then
	OVMF_DIR=$system_fw
	[ ! -r "$fetched_fw/OVMF_CODE_4M.fd" ] || OVMF_DIR=$fetched_fw
fi
OVMF_CODE=${OVMF_CODE:-$OVMF_DIR/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-$OVMF_DIR/OVMF_VARS_4M.fd}
DETERMINISTIC_SEED=6173726c62656e6368 # "aslrbench"

# The header above, from "Usage:" to the exit-status table.
usage() { sed -n '/^# Usage:/,/^#   124/p' "$0" | sed 's/^# \{0,1\}//'; }
note() { echo "run-qemu: $*" >&2; }
usage_error() {
	note "$* (see --help)"
	exit 64
}

while [ $# -gt 0 ]; do
	case $1 in
	--iso) [ $# -ge 2 ] || usage_error "$1 needs a value"; iso=$2; shift 2 ;;
	--symbols) [ $# -ge 2 ] || usage_error "$1 needs a value"; symbols=$2; shift 2 ;;
	--usb) usb=1; shift ;;
	--cmdline) [ $# -ge 2 ] || usage_error "$1 needs a value"; cmdline=$2; have_cmdline=1; shift 2 ;;
	--add)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		[ -e "${2%%=*}" ] || [ -L "${2%%=*}" ] || usage_error "--add: no such file '${2%%=*}'"
		adds+=(--add "$2")
		shift 2
		;;
	--deterministic) deterministic=1; shift ;;
	--timeout) [ $# -ge 2 ] || usage_error "$1 needs a value"; timeout=$2; timeout_given=1; shift 2 ;;
	--log) [ $# -ge 2 ] || usage_error "$1 needs a value"; log=$2; shift 2 ;;
	--accel) [ $# -ge 2 ] || usage_error "$1 needs a value"; accel=$2; shift 2 ;;
	--memory) [ $# -ge 2 ] || usage_error "$1 needs a value"; mem=$2; shift 2 ;;
	--smp) [ $# -ge 2 ] || usage_error "$1 needs a value"; smp=$2; shift 2 ;;
	--x2apic) x2apic=1; shift ;;
	--tcg-cpu) [ $# -ge 2 ] || usage_error "$1 needs a value"; tcg_cpu=$2; accel=tcg; shift 2 ;;
	--keys) [ $# -ge 2 ] || usage_error "$1 needs a value"; keys=$2; shift 2 ;;
	--screenshot) [ $# -ge 2 ] || usage_error "$1 needs a value"; screenshot=$2; shift 2 ;;
	--qr-dumps) [ $# -ge 2 ] || usage_error "$1 needs a value"; qr_dumps=$2; shift 2 ;;
	--no-serial) no_serial=1; shift ;;
	--resolution) [ $# -ge 2 ] || usage_error "$1 needs a value"; resolution=$2; shift 2 ;;
	--secure-boot) [ $# -ge 2 ] || usage_error "$1 needs a value"; secure_boot=$2; shift 2 ;;
	--vars) [ $# -ge 2 ] || usage_error "$1 needs a value"; vars=$2; shift 2 ;;
	--no-sign) no_sign=1; shift ;;
	--tamper) [ $# -ge 2 ] || usage_error "$1 needs a value"; tamper=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage_error "unknown option '$1'" ;;
	esac
done
case $timeout in '' | *[!0-9]*) usage_error "--timeout needs whole seconds" ;; esac
# the built images' kernel, for hang-dump.py's names (before a copy replaces $iso)
if [ -z "$symbols" ]; then
	case $(realpath -m "$iso") in
	"$(realpath -m "$here/build/aslrbench.iso")" | "$(realpath -m "$here/build/aslrbench.img")")
		symbols="$here/build/kernel.elf" ;;
	esac
fi
case $mem in '' | *[!0-9]*) usage_error "--memory needs megabytes" ;; esac
case $smp in '' | *[!0-9]* | 0) usage_error "--smp needs a CPU count" ;; esac
[ "$x2apic" = 0 ] || [ "$smp" -ge 2 ] || usage_error "--x2apic needs --smp 2 or more (one CPU goes to APIC ID 256)"
# Under TCG: KVM would need a split irqchip for the IOMMU's interrupt remapping.
[ "$x2apic" = 0 ] || accel=tcg
case $accel in auto | kvm | tcg) ;; *) usage_error "--accel must be auto, kvm or tcg" ;; esac
case $secure_boot in off | snakeoil | shim | ms) ;; *) usage_error "--secure-boot must be snakeoil, shim or ms" ;; esac
case $tamper in '' | kernel | initrd) ;; *) usage_error "--tamper must be kernel or initrd" ;; esac
machine=q35
if [ "$secure_boot" != off ]; then
	OVMF_CODE=$system_fw/OVMF_CODE_4M.secboot.fd
	case $secure_boot in
	snakeoil) OVMF_VARS=$system_fw/OVMF_VARS_4M.snakeoil.fd ;;
	*) OVMF_VARS=$system_fw/OVMF_VARS_4M.ms.fd ;;
	esac
	machine=q35,smm=on
fi
[ -z "$vars" ] || OVMF_VARS=$vars
# The kernel's own parser and key table, on the host: a bad line fails here
# with the kernel's message, before QEMU starts; "help" lists every key.
[ "$have_cmdline" = 0 ] || "$here/scripts/check-cmdline.sh" ${log:+--log "$log"} "$cmdline" || { rc=$?; exit $((rc == 100 ? 0 : rc)); }
vga_args=(-vga std)
if [ -n "$resolution" ]; then
	case $resolution in
	[1-9]*x[1-9]*) xres=${resolution%x*} yres=${resolution#*x} ;;
	*) xres="" yres="" ;;
	esac
	case $xres$yres in '' | *[!0-9]*) usage_error "--resolution needs WxH, e.g. 1920x1080" ;; esac
	vgamem=16
	while [ $((vgamem << 20)) -lt $((xres * yres * 4)) ] && [ "$vgamem" -lt 256 ]; do
		vgamem=$((vgamem * 2))
	done
	vga_args=(-vga none -device "VGA,xres=$xres,yres=$yres,vgamem_mb=$vgamem")
fi
if [ -n "$screenshot" ]; then
	mkdir -p "$(dirname "$screenshot")"
	rm -f "$screenshot"
fi
if [ -n "$qr_dumps" ]; then
	mkdir -p "$qr_dumps" || usage_error "--qr-dumps: cannot make '$qr_dumps'"
	rm -f "$qr_dumps"/qr-*.png
fi
[ -r "$iso" ] || { note "no image '$iso' (run 'make iso')"; exit 66; }
for f in "$OVMF_CODE" "$OVMF_VARS"; do
	[ -r "$f" ] || { note "missing firmware $f (run scripts/deps.sh)"; exit 66; }
done
command -v "$QEMU" >/dev/null || { note "missing $QEMU (run scripts/deps.sh)"; exit 66; }
# --x2apic: QEMU 7.2's TCG has no x2APIC (Debian 12's); 10.0 from
# bookworm-backports has, and is what this was tested with.
if [ "$x2apic" = 1 ]; then
	if [ -n "${QEMU_X2APIC:-}" ]; then
		QEMU=$QEMU_X2APIC
	elif [ "$("$QEMU" --version 2>/dev/null | sed -n '1s/.*version \([0-9]*\)\..*/\1/p')" -lt 10 ] 2>/dev/null; then
		QEMU=$here/build/qemu-backport/qemu-system-x86_64
		[ -x "$QEMU" ] || { note "--x2apic: this QEMU's TCG has no x2APIC; fetch one with scripts/qemu-backport.sh (or set QEMU_X2APIC)"; exit 66; }
	fi
fi

# A terminal on stdin is the serial console (see the header): its settings
# now, restored by cleanup whatever way the run ends (QEMU restores them
# itself, but not when it is killed).
interactive=0 saved_tty=""
if [ "$no_serial" = 0 ] && [ -t 0 ]; then
	interactive=1
	saved_tty=$(stty -g 2>/dev/null) || saved_tty=""
	[ "$timeout_given" = 1 ] || timeout=0
fi
restore_tty() {
	[ -n "$saved_tty" ] || return 0
	stty "$saved_tty" 2>/dev/null || true
	# QEMU sets O_NONBLOCK on its stdin, the terminal's shared file
	# description; a killed QEMU leaves it set for the user's shell.
	python3 -c 'import os; os.set_blocking(0, True)' 2>/dev/null || true
}

tmp=$(mktemp -d)
qpid="" watcher="" feeder="" keyer="" dumper=""
cleanup() {
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null || true
		# QEMU ends on SIGTERM (and restores the terminal); then ours.
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$qpid" 2>/dev/null || true
	fi
	restore_tty
	[ -z "$watcher" ] || kill "$watcher" 2>/dev/null || true
	[ -z "$feeder" ] || kill "$feeder" 2>/dev/null || true
	[ -z "$keyer" ] || kill "$keyer" 2>/dev/null || true
	[ -z "$dumper" ] || kill "$dumper" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --secure-boot on the copy of the image: seal and sign its loader (shim: in the
# shim layout), then --tamper.  The keys are exported for mkimage.sh.
secure_boot_image() {
	export MTOOLS_SKIP_CHECK=1
	case $secure_boot in
	snakeoil)
		if [ -z "${SIGN_KEY:-}" ] && [ "$no_sign" = 0 ]; then
			openssl rsa -in /usr/share/ovmf/PkKek-1-snakeoil.key -passin pass:snakeoil \
				-out "$tmp/snakeoil.key" 2>/dev/null
			export SIGN_KEY=$tmp/snakeoil.key SIGN_CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
		fi
		[ "$no_sign" = 1 ] || "$here/iso/mkimage.sh" reseal "$tmp/esp.img"
		;;
	shim)
		if [ -z "${SIGN_KEY:-}" ]; then
			"$here/scripts/keys.sh" "$here/build/sb-test" >/dev/null
			export SIGN_KEY=$here/build/sb-test/aslrbench.key SIGN_CERT=$here/build/sb-test/aslrbench.crt
		fi
		"$here/iso/mkimage.sh" reseal "$tmp/esp.img" --shim
		;;
	esac
	if [ -n "$tamper" ]; then
		local f=$tmp/tamper.bin name=kernel.elf
		[ "$tamper" = kernel ] || name=initrd.cpio
		mcopy -n -m -i "$tmp/esp.img" "::/aslrbench/$name" "$f"
		# The last byte: past every ELF segment, so the kernel itself would still run.
		printf '\x5a' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 1)) conv=notrunc status=none
		mcopy -o -m -i "$tmp/esp.img" "$f" "::/aslrbench/$name"
	fi
}

# A copy of the image with another cmdline.txt or initramfs: the kernel is not rebuilt.
if [ "$deterministic" = 1 ] || [ "$have_cmdline" = 1 ] || [ ${#adds[@]} -gt 0 ] ||
	[ "$secure_boot" = snakeoil ] || [ "$secure_boot" = shim ] || [ -n "$tamper" ]; then
	# (NULs dropped: a raw disk image has them there, and bash warns of each)
	if [ "$(dd if="$iso" bs=1 skip=32769 count=5 status=none | tr -d '\0')" = CD001 ]; then
		"$here/iso/mkimage.sh" extract-esp "$iso" "$tmp/esp.img"
	else
		cp "$iso" "$tmp/esp.img" # a raw disk image (make img): edited in place
	fi
	if [ ${#adds[@]} -gt 0 ]; then
		[ "$("$here/iso/mkimage.sh" esp-offset "$tmp/esp.img")" = 0 ] ||
			usage_error "--add needs an ISO or a bare ESP image, not a disk image"
		"$here/iso/mkimage.sh" get-initrd "$tmp/esp.img" "$tmp/old.cpio"
		base=()
		[ ! -s "$tmp/old.cpio" ] || base=(--base "$tmp/old.cpio")
		"$here/scripts/mkcpio.py" "$tmp/initrd.cpio" "${base[@]}" "${adds[@]}" ||
			usage_error "--add: cannot build the initramfs"
		"$here/iso/mkimage.sh" set-initrd "$tmp/esp.img" "$tmp/initrd.cpio"
	fi
	if [ "$have_cmdline" = 0 ]; then
		cmdline=$("$here/iso/mkimage.sh" get-cmdline "$tmp/esp.img" | grep -v '^#' | tr '\r\n' '  ')
	fi
	if [ "$deterministic" = 1 ]; then
		# The kernel's keys end at " -- " (what follows is init's argv):
		# the seed goes before it, or init would get it as an argument
		# and the run would draw its seed from the firmware.
		kernel_keys=${cmdline%% -- *}
		case " $kernel_keys " in
		*" seed="*) ;;
		*) cmdline="$kernel_keys seed=$DETERMINISTIC_SEED${cmdline:${#kernel_keys}}" ;;
		esac
	fi
	"$here/iso/mkimage.sh" set-cmdline "$tmp/esp.img" "$cmdline"
	secure_boot_image
	if [ "$("$here/iso/mkimage.sh" esp-offset "$tmp/esp.img")" = 0 ]; then
		"$here/iso/mkimage.sh" iso "$tmp/boot.iso" "$tmp/esp.img"
		iso="$tmp/boot.iso"
	else
		iso="$tmp/esp.img"
	fi
fi
if [ "$secure_boot" = shim ]; then
	openssl x509 -in "$SIGN_CERT" -outform der -out "$tmp/mok.cer"
	"$here/scripts/ovmf-vars.py" "$OVMF_VARS" "$tmp/vars.fd" --mok "$tmp/mok.cer"
else
	cp "$OVMF_VARS" "$tmp/vars.fd"
fi

sb_args=()
[ "$secure_boot" = off ] || sb_args=(-global driver=cfi.pflash01,property=secure,value=on)
# -nic none: the kernel has no network driver, and q35's default NIC makes
# OVMF load its iPXE boot driver, 0.5 s of every TCG boot (docs/testing.md).
smp_args=(-smp "$smp")
if [ "$x2apic" = 1 ]; then
	# N-1 CPUs in socket 0, one in socket 1 of 256 cores: APIC ID 256.
	smp_args=(-smp "$((smp - 1)),sockets=2,cores=256,maxcpus=512"
		-device intel-iommu,intremap=on,eim=on)
fi
base_args=(-machine "$machine" "${sb_args[@]}" -m "$mem" "${smp_args[@]}" -no-reboot -display none "${vga_args[@]}" -monitor none -nic none
	-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE"
	-drive "if=pflash,format=raw,file=$tmp/vars.fd"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04)

# Does KVM boot OVMF here?  A nested or broken KVM dies at the firmware's first
# FPU instruction ("KVM internal error"); a working one reaches the boot manager.
kvm_works() {
	local cache="$here/build/.kvm-probe"
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	if [ -f "$cache" ]; then
		[ "$(cat "$cache")" = yes ]
		return
	fi
	mkdir -p "$here/build"
	local out="$tmp/kvm-probe.txt" ok=no
	# In a subshell of its own: a QEMU that aborts (SIGABRT on a KVM internal
	# error) makes the shell that waits for it print "Aborted" on its stderr;
	# that shell's stderr is the probe's log, not the user's terminal.
	(
		timeout 8 "$QEMU" "${base_args[@]}" -accel kvm -cpu host -serial "file:$out" >&2
		true
	) 2>"$tmp/kvm-probe.err" </dev/null
	if grep -q 'BdsDxe\|UEFI\|Shell' "$out" 2>/dev/null && ! grep -qi 'internal error' "$tmp/kvm-probe.err"; then
		ok=yes
	fi
	echo "$ok" >"$cache"
	[ "$ok" = yes ]
}

args=("${base_args[@]}" -qmp "unix:$tmp/qmp.sock,server=on,wait=off")
if [ -n "$keys" ] && [ -z "$screenshot" ] && [ -z "$qr_dumps" ]; then
	mkfifo "$tmp/mon.in" "$tmp/mon.out"
	args+=(-monitor "pipe:$tmp/mon")
fi
if [ -n "$screenshot" ] || [ -n "$qr_dumps" ]; then
	# The handshake (kernel/console/fbcon.c, fbcon_exit_hold): this fw_cfg file
	# asks the kernel to keep its last screen up for 1000 ms before it writes
	# its status; it says so on the debug console (port 0xe9), and the watcher
	# below then has the monitor (on fifos: no socat, no socket) stop the
	# guest, dump the screen and let it go on to its exit.  Serial or not.
	# --qr-dumps: "opt/aslrbench/qr-dump" has the QR screen say "qr ready K/N"
	# there for each code; the watcher dumps it and presses a key for the next.
	mkfifo "$tmp/mon.in" "$tmp/mon.out" "$tmp/dbg.in" "$tmp/dbg.out"
	args+=(-monitor "pipe:$tmp/mon"
		-chardev "pipe,id=dbg,path=$tmp/dbg" -device isa-debugcon,iobase=0xe9,chardev=dbg)
	[ -z "$screenshot" ] || args+=(-fw_cfg "name=opt/aslrbench/screen-hold-ms,string=1000")
	[ -z "$qr_dumps" ] || args+=(-fw_cfg "name=opt/aslrbench/qr-dump,string=1")
fi
if [ "$deterministic" = 1 ]; then
	# One guest instruction per virtual nanosecond and no idle time skew:
	# rdtsc then counts instructions, identically on every run.
	args+=("${QEMU_DETERMINISTIC_ARGS[@]}") # scripts/lib/qemu.sh
	note "deterministic: TCG with -icount shift=0 (cycles are guest instructions)"
elif [ "$accel" = kvm ] || { [ "$accel" = auto ] && kvm_works; }; then
	args+=(-accel kvm -cpu host)
	note "using KVM"
else
	args+=(-accel tcg -cpu "$tcg_cpu")
	[ "$accel" = tcg ] || note "KVM not usable here (absent or fails on OVMF); using TCG"
fi
# The CPU at APIC ID 256, of the model -cpu names (its features too).
if [ "$x2apic" = 1 ]; then
	x2_model=${tcg_cpu%%,*}
	[ "$deterministic" = 0 ] || x2_model=max
	args+=(-device "$x2_model-x86_64-cpu,socket-id=1,core-id=0,thread-id=0")
fi
# Provenance: the emulator and firmware versions, which the boot record
# carries as "host" (kernel/init/boot_record.c reads this fw_cfg file; ",,"
# is QEMU's escaped comma).
qemu_version=$("$QEMU" --version 2>/dev/null </dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p' || true)
case $OVMF_CODE in
"$fetched_fw"/*) ovmf_version=$(cat "$here/build/ovmf/VERSION" 2>/dev/null || true) ;;
"$system_fw"/*) ovmf_version=$(dpkg-query -W -f='${Version}' ovmf 2>/dev/null || true) ;;
*) ovmf_version=other ;;
esac
args+=(-fw_cfg "name=opt/aslrbench/host,string=qemu=${qemu_version:-unknown},,ovmf=${ovmf_version:-unknown}")
if [ "$usb" = 1 ]; then
	args+=(-device qemu-xhci,id=xhci -drive "if=none,id=stick,format=raw,readonly=on,file=$iso"
		-device usb-storage,bus=xhci.0,drive=stick,bootindex=1)
else
	args+=(-drive "if=none,id=cd,format=raw,readonly=on,media=cdrom,file=$iso"
		-device ide-cd,drive=cd,bootindex=1)
fi
# Interactive: the serial port is the terminal.  Piped (a script): input
# is held back until the kernel says it reads the port, because the
# firmware reads and drops serial input while it runs.
piped=0
if [ "$no_serial" = 1 ]; then
	args+=(-serial none)
elif [ "$interactive" = 1 ]; then
	# mux=on: QEMU's Ctrl-A keys (Ctrl-A x quits); signal=off: Ctrl-C is
	# a byte for the guest, not SIGINT for QEMU.
	args+=(-chardev stdio,id=ser0,mux=on,signal=off -serial chardev:ser0)
else
	mkfifo "$tmp/ser.in"
	# --deterministic: the output side is a regular file, not a FIFO.  A
	# FIFO that its reader (the loop below) drains late makes QEMU's UART
	# retry its write in host time while the guest polls the line status
	# register: a host-load-dependent number of guest instructions, which
	# under -icount shifts the TSC and jiffies of everything after it.
	if [ "$deterministic" = 1 ]; then : >"$tmp/ser.out"; else mkfifo "$tmp/ser.out"; fi
	args+=(-chardev "pipe,id=ser0,path=$tmp/ser" -serial chardev:ser0)
	piped=1
fi

# The dump goes to $tmp first: a dump cut short by QEMU's exit is no PNG.
png_complete() { [ -s "$1" ] && [ "$(tail -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ]; }
watch_for_screen() {
	local line k
	exec 4<>"$tmp/mon.in"
	cat "$tmp/mon.out" >/dev/null & # the replies, drained: a QR run has many
	while IFS= read -r line; do
		case $line in
		*"screen ready"*) printf 'stop\nscreendump %s -f png\ncont\n' "$tmp/screen.png" >&4 ;;
		*"qr ready "[0-9]*/[0-9]*)
			k=${line##*qr ready }
			k=${k%%/*}
			mkdir -p "$tmp/qr"
			printf 'stop\nscreendump %s -f png\ncont\nsendkey spc 10\n' "$tmp/qr/qr-$k.png" >&4
			;;
		esac
	done <"$tmp/dbg.out"
}

# QEMU's name for the key that types one character (US layout).
key_name() {
	case $1 in
	[a-z0-9]) printf '%s' "$1" ;;
	[A-Z]) printf 'shift-%s' "$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')" ;;
	' ') printf spc ;;
	$'\n') printf ret ;;
	/) printf slash ;;
	.) printf dot ;;
	-) printf minus ;;
	=) printf equal ;;
	_) printf shift-minus ;;
	$'\x03') printf ctrl-c ;;
	$'\x1a') printf ctrl-z ;;
	*) return 1 ;;
	esac
}

# One key every 30 ms: QEMU's PS/2 queue holds 16 bytes, and the guest polls
# it at every timer tick, so a faster burst would be dropped by the device.
send_keys() {
	local i c name
	exec 5<>"$tmp/mon.in"
	cat "$tmp/mon.out" >/dev/null &
	for ((i = 0; i < ${#keys}; i++)); do
		c=${keys:i:1}
		name=$(key_name "$c") || { note "--keys: cannot type '$c'"; continue; }
		printf 'sendkey %s 10\n' "$name" >&5
		sleep 0.03
	done
}

# Serial output goes through a reader that tees the log and notices the
# loader's refusal: the firmware would otherwise go on to other boot options.
mkfifo "$tmp/serial"
# stdin may be closed (CI): then there is simply nothing to feed.
# (In braces: a bare "exec 3<&0 2>/dev/null" would silence this script's
# stderr for good.)
{ exec 3<&0; } 2>/dev/null || exec 3</dev/null
# On a terminal QEMU must stay in the foreground process group: plain
# `timeout` moves it to a group of its own, where touching the terminal
# stops it (SIGTTOU).  Without a timeout, QEMU itself.
run_qemu=(timeout -k 5 "$timeout" "$QEMU")
if [ "$interactive" = 1 ]; then
	run_qemu=(timeout --foreground -k 5 "$timeout" "$QEMU")
	[ "$timeout" != 0 ] || run_qemu=("$QEMU")
	note "the terminal is the serial console: Ctrl-A x quits, Ctrl-A h lists QEMU's keys"
fi
if [ "$piped" = 1 ]; then
	"${run_qemu[@]}" "${args[@]}" </dev/null >"$tmp/qemu.out" 2>"$tmp/qemu.err" &
	qpid=$!
	# The feeder waits for the kernel's "console ready" line (seen below).
	(
		until [ -e "$tmp/ready" ]; do sleep 0.1; done
		cat <&3
	) >"$tmp/ser.in" &
	feeder=$!
	serial_src="$tmp/ser.out"
else
	"${run_qemu[@]}" "${args[@]}" <&3 >"$tmp/serial" 2>"$tmp/qemu.err" &
	qpid=$!
	serial_src="$tmp/serial"
fi
if [ -n "$screenshot" ] || [ -n "$qr_dumps" ]; then
	watch_for_screen &
	watcher=$!
fi
# Eight seconds before the timeout (two snapshots a second apart, on a
# loaded machine): where a kernel that got this far hangs.
if [ "$timeout" -gt 15 ]; then
	(
		# its own sleep goes with it, so no stray process holds our output open
		trap 'kill "$sp" 2>/dev/null; exit 0' TERM
		sleep $((timeout - 8)) &
		sp=$!
		wait "$sp"
		if [ -e "$tmp/kernel" ] && kill -0 "$qpid" 2>/dev/null; then
			note "the guest is about to time out; where its CPUs are:"
			# without a readable ELF it prints bare addresses
			"$here/scripts/hang-dump.py" "$tmp/qmp.sock" "${symbols:-/dev/null}" >&2 || true
		fi
	) &
	dumper=$!
fi
loader_failed=0 firmware_failed=0
# The user's view (stdout, fd 4 below) and the log come from serial-view.py,
# byte by byte; the loop reads its full copy line by line for the events.
view_args=(--out-fd 4)
[ ! -t 1 ] || view_args+=(--human)
if [ -n "$log" ]; then
	: >"$log"
	view_args+=(--log "$log")
fi
exec 4>&1
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	*"aslrbench loader: error:"*) loader_failed=1 ;;
	*"aslrbench kernel: entered"*) : >"$tmp/kernel" ;;
	*"aslrbench: console ready"*)
		: >"$tmp/ready"
		if [ -n "$keys" ]; then
			send_keys &
			keyer=$!
		fi
		;;
	*"aslrbench loader: returning to the firmware"*) [ "$loader_failed" = 0 ] || kill "$qpid" 2>/dev/null || true ;;
	# OVMF's last boot option failed too: it would wait in its menu for good.
	*"BdsDxe: No bootable option or device was found"*)
		firmware_failed=1
		kill "$qpid" 2>/dev/null || true
		;;
	esac
done < <(if [ "$piped" = 1 ] && [ "$deterministic" = 1 ]; then
	tail -c +1 -s 0.2 -f --pid="$qpid" "$serial_src"
else
	cat "$serial_src"
fi | "$here/scripts/serial-view.py" "${view_args[@]}")
set +e
wait "$qpid"
st=$?
set -e
qpid=""
if [ -n "$dumper" ]; then
	kill "$dumper" 2>/dev/null || true
	dumper=""
fi
restore_tty
if [ -n "$feeder" ]; then
	kill "$feeder" 2>/dev/null || true
	feeder=""
fi
if [ -n "$watcher" ]; then
	kill "$watcher" 2>/dev/null || true
	wait "$watcher" 2>/dev/null || true
	watcher=""
fi
if [ -n "$qr_dumps" ]; then
	n=0
	for f in "$tmp"/qr/qr-*.png; do
		[ -e "$f" ] || continue
		if png_complete "$f"; then cp "$f" "$qr_dumps/" && n=$((n + 1)); fi
	done
	[ "$n" -gt 0 ] || note "no QR codes dumped: the kernel showed none (qr=on on its command line?)"
fi
if [ -n "$screenshot" ]; then
	if png_complete "$tmp/screen.png"; then
		cp "$tmp/screen.png" "$screenshot"
	else
		note "no screenshot: the kernel did not reach its exit with a screen console"
	fi
fi

if [ "$loader_failed" = 1 ]; then
	note "the loader refused to boot the image (see the message above)"
	exit 4
fi
if [ "$firmware_failed" = 1 ]; then
	note "the firmware found nothing it would boot (a Secure Boot refusal says \"Access Denied\" above)"
	exit 6
fi
# QEMU's own clean exit on a console: Ctrl-A x.
if [ "$st" = 0 ] && [ "$interactive" = 1 ]; then
	note "QEMU quit (Ctrl-A x) before the kernel's status"
	exit 130
fi
case $st in
33) exit 0 ;;
35) exit 1 ;;
37) exit 2 ;;
39) exit 3 ;;
124 | 137) note "guest timed out after ${timeout}s"; exit 124 ;;
*)
	[ ! -s "$tmp/qemu.err" ] || cat "$tmp/qemu.err" >&2
	note "QEMU ended with status $st without a kernel status"
	exit 5
	;;
esac
