/*
 * The signal structs of the system-call ABI, x86_64 layout: what
 * rt_sigaction reads and writes, and the siginfo_t a handler, waitid and
 * rt_sigtimedwait receive.  Named as glibc names the kernel's layout
 * (kernel_sigaction) and as Linux's uapi tags siginfo_t (struct siginfo), so
 * that a ring-3 program may include this next to its libc's <signal.h>.
 */
#ifndef KERNEL_UAPI_SIGNAL_H
#define KERNEL_UAPI_SIGNAL_H

#include <stdint.h>

/* rt_sigaction's struct as the x86_64 kernel takes it (its struct sigaction). */
struct kernel_sigaction {
	uint64_t handler, flags, restorer, mask;
};

/* include/uapi/asm-generic/siginfo.h: the union members this kernel fills. */
struct siginfo {
	int32_t si_signo, si_errno, si_code, pad;
	union {
		uint8_t raw[112];
		struct {
			int32_t pid;
			uint32_t uid;
		} kill;
		struct {
			int32_t pid;
			uint32_t uid;
			int32_t status, pad;
			int64_t utime, stime;
		} chld;
		struct {
			uint64_t addr;
		} fault;
	};
};
_Static_assert(sizeof(struct siginfo) == 128, "siginfo_t is 128 bytes");

#endif
