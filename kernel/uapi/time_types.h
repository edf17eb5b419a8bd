/*
 * The time structs of the system-call ABI, Linux's names and x86_64 layout
 * (include/uapi/linux/time_types.h): what nanosleep, clock_gettime, ppoll,
 * pselect6, utimensat and the vDSO read and write.  Named __kernel_* so
 * that a ring-3 program may include this next to its libc's struct timespec.
 */
#ifndef KERNEL_UAPI_TIME_TYPES_H
#define KERNEL_UAPI_TIME_TYPES_H

#include <stdint.h>

struct __kernel_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

/* gettimeofday, select, getrusage: microseconds. */
struct __kernel_old_timeval {
	int64_t tv_sec;
	int64_t tv_usec;
};

#endif
