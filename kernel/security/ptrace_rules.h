/*
 * The access rule behind ptrace and /proc, as a pure function of the two
 * tasks' credentials, so the same code is unit-tested on the host.
 */
#ifndef KERNEL_SECURITY_PTRACE_RULES_H
#define KERNEL_SECURITY_PTRACE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#define PTRACE_MODE_READ   1
#define PTRACE_MODE_ATTACH 2
#define CAP_SYS_PTRACE_BIT 19

struct ptrace_creds {
	uint32_t uid, euid, suid, gid, egid, sgid;
	uint64_t cap_effective;
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
