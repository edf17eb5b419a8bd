#!/bin/busybox sh
# tests/sh/linux-ref.sh's program in the guest: every section's output
# between "=== begin NAME" and "=== end NAME STATUS" lines, which the host
# side splits.  Usage: guest.sh SECTION...  (abi layout errsweep procfid
# getrandom pidreuse reliab starve costprobe)
# shellcheck shell=sh
lib=/usr/share/lx-ref
for s in "$@"; do
	echo "=== begin $s"
	case $s in
	abi)
		# The programs' checks (tests/sh/lib/linux-progs.sh), TAP.
		mkdir -p /tmp/top
		(
			# shellcheck source=tests/sh/lib/tap.sh
			. "$lib/tap.sh"
			# shellcheck source=tests/sh/lib/linux-progs.sh
			. "$lib/linux-progs.sh"
			lx_prog_checks /bin /tmp/top
			tap_done
		)
		;;
	layout)
		# tests/sh/linux-ref/layout.sh: the probes, 100 execs each.
		sh "$lib/layout.sh"
		;;
	errsweep)
		/bin/lx_errsweep
		;;
	procfid | getrandom | pidreuse | reliab | starve)
		"/bin/lx_$s"
		;;
	costprobe)
		/bin/lx_costprobe_glibc
		;;
	*) echo "guest.sh: unknown section $s" ;;
	esac
	echo "=== end $s $?"
done
