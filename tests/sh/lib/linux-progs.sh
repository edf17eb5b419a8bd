# shellcheck shell=sh
# tests/sh/lib/linux-progs.sh: the checks of the tests/linux programs that
# run on a Linux kernel, in POSIX sh, so that the same expectations hold
# wherever they run: on the host's Linux under bash (tests/sh/linux-abi.sh)
# and under Linux 6.12 in QEMU under busybox sh (tests/sh/linux-ref.sh, the
# reference; scripts/linux-ref.sh boots it).  Needs tests/sh/lib/tap.sh.
#
#   lx_prog_checks BIN TOP   runs every program from BIN (build/user/linux on
#                            the host, /bin in the guest), with TOP as the
#                            working directory of those that ran in the
#                            checkout; TAP through tap.sh
# LX_IA32_SKIP: when set, the reason lx_ia32 is not run (a host that cannot
# link or run IA-32 programs; tests/sh/linux-abi.sh finds out).

# lx_out CMD...: runs CMD, its output in $lx_log and its status in $lx_st.
lx_out() {
	lx_log=$("$@" 2>&1)
	lx_st=$?
}

# The output without the passing checks' lines: a failure's diagnostics.
lx_notok() { printf '%s\n' "$lx_log" | grep -v '^ok '; }
lx_has() { printf '%s\n' "$lx_log" | grep -q "$1"; }

# lx_prog NAME SUMMARY DIR [ARGS...]: BIN/NAME in DIR with ARGS passes every
# check and prints "SUMMARY: N passed, 0 failed".
lx_prog() {
	lx_p=$1 lx_sum=$2 lx_dir=$3
	shift 3
	lx_log=$(cd "$lx_dir" && timeout 120 "$lx_bin/$lx_p" "$@" 2>&1)
	lx_st=$?
	tap_check "$lx_st" "$lx_p: every check passes" "$(lx_notok)"
	lx_has "^$lx_sum: [0-9]* passed, 0 failed\$"
	tap_check $? "$lx_p: prints its summary line"
}

lx_prog_checks() {
	lx_bin=$1 lx_top=$2

	# lx_test.c: static musl, static-pie musl, static glibc, static-pie glibc, dynamic musl.
	for p in lx_musl lx_musl_pie lx_glibc lx_glibc_pie lx_musl_dyn; do
		# argv[0] is a path (the built-in name in aslrbench): execve needs it.
		lx_out "$lx_bin/$p"
		tap_check "$lx_st" "$p: every check passes" "$(lx_notok)"
		lx_has '^lx_test: [0-9]* passed, 0 failed$'
		tap_check $? "$p: prints its summary line"
		"$lx_bin/$p" exit 7
		lx_st=$?
		[ "$lx_st" = 7 ]
		tap_check $? "$p exit 7: exit status 7" "got $lx_st"
	done

	# The vDSO (tests/linux/lx_vdso.c), static musl and glibc.
	for p in lx_vdso_musl lx_vdso_glibc; do
		lx_out "$lx_bin/$p"
		tap_check "$lx_st" "$p: every vDSO check passes" "$(lx_notok)"
		lx_has '^lx_vdso: [0-9]* passed, 0 failed$'
		tap_check $? "$p: prints its summary line"
	done

	# poll/ppoll/select/pselect6 and waitid (tests/linux/lx_poll.c).
	for p in lx_poll_musl lx_poll_glibc; do
		lx_out "$lx_bin/$p"
		tap_check "$lx_st" "$p: every check passes" "$(lx_notok)"
		lx_has '^lx_poll: [0-9]* passed, 0 failed$'
		tap_check $? "$p: prints its summary line"
		lx_log=$(echo Quit | "$lx_bin/$p" console 2>&1)
		lx_has "^lx_poll console: read 4 bytes, the first 'Q'\$"
		tap_check $? "$p console: a piped line makes stdin readable (the linux-console boot)" "$lx_log"
	done

	# File-backed mmap, munmap/mprotect of any range (tests/linux/lx_mmap.c).
	for p in lx_mmap_musl lx_mmap_glibc; do
		lx_out "$lx_bin/$p"
		tap_check "$lx_st" "$p: every check passes" "$(lx_notok)"
		lx_has '^lx_mmap: [0-9]* passed, 0 failed$'
		tap_check $? "$p: prints its summary line"
	done

	# lx_exec from its file (its checks exec /proc/self/exe's target).
	lx_out "$lx_bin/lx_exec"
	tap_check "$lx_st" "lx_exec: every check passes" "$(lx_notok)"
	lx_has '^lx_exec: [0-9]* passed, 0 failed$'
	tap_check $? "lx_exec: prints its summary line"
	# What an init= program gets, as the kernel's init= boots give it.
	lx_out env -i HOME=/ TERM=linux "$lx_bin/lx_exec" init a 'b c'
	tap_check "$lx_st" "lx_exec init: argv, envp, fds as Linux's init= gets them" "$(lx_notok)"
	lx_has "^  init: 2 arguments after argv\[1\]: 'a' 'b c'\$"
	tap_check $? "lx_exec init: prints its arguments"
	# A missing interpreter: execve's ENOENT, as busybox env reports it.
	lx_out /bin/busybox env "$lx_bin/lx_badinterp"
	[ "$lx_st" = 127 ] && lx_has 'No such file'
	tap_check $? "lx_badinterp (PT_INTERP /lib/ld-lx-missing.so.1): ENOENT" "status $lx_st: $lx_log"

	# Signals within a process (lx_signal.c, and forged frames) and between processes (lx_sigproc.c).
	for p in lx_signal_musl lx_signal_glibc lx_sigproc_musl lx_sigproc_glibc; do
		lx_out timeout 60 "$lx_bin/$p"
		tap_check "$lx_st" "$p: every check passes" "$(lx_notok)"
		lx_has "^${p%_*}: [0-9]* passed, 0 failed\$"
		tap_check $? "$p: prints its summary line"
		[ "${p%_*}" = lx_signal ] || continue
		lx_out timeout 60 "$lx_bin/$p" forge
		tap_check "$lx_st" "$p forge: rt_sigreturn of forged frames as expected" "$(lx_notok)"
	done

	# Job control and CPU times, nice levels: static musl and static glibc.
	for p in lx_jobctl_musl lx_jobctl_glibc; do lx_prog "$p" lx_jobctl "$lx_top"; done
	for p in lx_nice_musl lx_nice_glibc; do lx_prog "$p" lx_nice "$lx_top"; done

	# Threads: each check and the thread bomb (EAGAIN, or its cap of 1000).
	for p in lx_thread_musl lx_thread_glibc lx_thread_glibc_dyn; do
		lx_prog "$p" lx_thread "$lx_top"
		lx_out timeout 120 "$lx_bin/$p" bomb
		tap_check "$lx_st" "$p bomb: stops cleanly, every thread joined" "$(lx_notok)"
	done

	# /proc/PID/maps past a page: 150 regions, read whole by read sizes and by busybox cat.
	lx_prog lx_maps lx_maps "$lx_top" /bin/busybox

	# SSE and AVX registers kept, creates in a removed directory, errnos at Linux's limits.
	for p in lx_fpu lx_deaddir lx_errno; do lx_prog "$p" "$p" /tmp; done

	# futex(2) between processes, static musl and static glibc: one summary name.
	for p in lx_futex_musl lx_futex_glibc; do lx_prog "$p" lx_futex "$lx_top"; done

	# A static PIE's placement and brk under the 6.x rules.
	if [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" = 2 ]; then
		lx_out "$lx_bin/lx_layout" 6.x
		tap_check "$lx_st" "lx_layout 6.x: a static PIE lands as Linux 6.12 puts it" "$(lx_notok)"
	else
		tap_skip "lx_layout 6.x" "randomize_va_space is not 2"
	fi

	# /proc/1 read after dropping root, and the sticky bit: as root.
	if [ "$(id -u)" = 0 ]; then
		lx_out "$lx_bin/lx_procread" 6.x
		tap_check "$lx_st" "lx_procread 6.x: every check passes" "$(lx_notok)"
		lx_out "$lx_bin/lx_sticky"
		tap_check "$lx_st" "lx_sticky: every check passes" "$(lx_notok)"
	else
		tap_skip "lx_procread 6.x" "needs root (it drops to uid 1000)"
		tap_skip "lx_sticky" "needs root (it drops to uid 1000)"
	fi

	# An IA-32 program (gcc -m32 -static), on a Linux with IA-32 emulation.
	if [ -n "${LX_IA32_SKIP:-}" ]; then
		tap_skip "lx_ia32" "$LX_IA32_SKIP"
	else
		lx_prog lx_ia32 lx_ia32 /tmp
	fi

	[ "$(/bin/busybox echo hello from busybox)" = "hello from busybox" ]
	tap_check $? "busybox echo"
	/bin/busybox uname -a | grep -q '^Linux .* x86_64'
	tap_check $? "busybox uname -a: Linux ... x86_64"
}
