/*
 * A task's credentials, named as Linux's struct cred (include/linux/cred.h):
 * real, saved, effective and filesystem ids, and the effective capability
 * set.  Linux points at a shared, copy-on-write cred; a task here holds its
 * own copy, so fork copies it by assignment.  Plain C, no kernel headers:
 * the ptrace rule and its host test use it too.
 */
#ifndef KERNEL_TASK_CRED_H
#define KERNEL_TASK_CRED_H

#include <stdint.h>

struct cred {
	uint32_t uid, gid;     /* real */
	uint32_t suid, sgid;   /* saved */
	uint32_t euid, egid;   /* effective */
	uint32_t fsuid, fsgid; /* for file access: follow the effective ids */
	uint64_t cap_effective;
};

#endif
