/*
 * The access rule behind ptrace and /proc, as a pure function of the two
 * tasks' credentials, so the same code is unit-tested on the host.
 */
#ifndef KERNEL_SECURITY_PTRACE_RULES_H
#define KERNEL_SECURITY_PTRACE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/task/cred.h"
#include "kernel/uapi/aslrbench.h" /* CAP_SYS_PTRACE */

#define PTRACE_MODE_READ   1
#define PTRACE_MODE_ATTACH 2

/* One side of the check: the task's cred plus the two facts from its mm. */
struct ptrace_creds {
	struct cred cred;
	bool has_mm;  /* false: kernel thread or zombie (mm released) */
	int dumpable; /* meaningful only with has_mm */
};

struct ptrace_ctx {
	bool same_task;		 /* reader == target (same thread group) */
	bool reader_is_ancestor; /* for Yama scope 1 */
	int ptrace_scope;	 /* Yama, 0..3 (Linux 3.4); applies to ATTACH only */
};

/* 0 when allowed, -EPERM (-1) when not: Linux 2.6.29's __ptrace_may_access + Yama. */
int ptrace_rule(const struct ptrace_creds *reader, const struct ptrace_creds *target,
		const struct ptrace_ctx *ctx, unsigned mode);

#endif
