/*
 * struct rusage as wait4 and waitid write it: Linux's
 * include/uapi/linux/resource.h, x86_64 (144 bytes).  Named linux_rusage so
 * that a ring-3 program may include this next to its libc's struct rusage.
 */
#ifndef KERNEL_UAPI_RESOURCE_H
#define KERNEL_UAPI_RESOURCE_H

#include <stdint.h>

#include "kernel/uapi/time_types.h"

struct linux_rusage {
	struct __kernel_old_timeval ru_utime, ru_stime;
	int64_t rest[14]; /* ru_maxrss .. ru_nivcsw: zero here */
};
_Static_assert(sizeof(struct linux_rusage) == 144, "x86_64 struct rusage is 144 bytes");

#endif
