/*
 * The access matrix: (reader, target, mode, settings) -> allowed?, written
 * from Linux's rules (2.6.29 __ptrace_may_access, Yama 3.4).  One table,
 * two consumers: the host unit test of ptrace_rule() (tests/security/) and the
 * in-kernel proc_access_matrix test, which recreates each case with real
 * tasks (READ cases from ring 3 through /proc/<pid>/maps).
 *
 * Capabilities follow the effective uid here (root has all of them), as
 * they do in this kernel, so `cap` is derived, not listed.
 */
#ifndef KERNEL_SECURITY_PTRACE_CASES_H
#define KERNEL_SECURITY_PTRACE_CASES_H

#include <stdint.h>

#include "kernel/task/cred.h"

struct ptrace_case_ids {
	unsigned uid, euid, suid, gid, egid, sgid;
};

/* A case's ids as a task's cred: the fs ids follow the effective ones, as setresuid leaves them. */
static inline struct cred ptrace_case_cred(const struct ptrace_case_ids *id, uint64_t caps)
{
	return (struct cred){.uid = id->uid,
			     .gid = id->gid,
			     .suid = id->suid,
			     .sgid = id->sgid,
			     .euid = id->euid,
			     .egid = id->egid,
			     .fsuid = id->euid,
			     .fsgid = id->egid,
			     .cap_effective = caps};
}

struct ptrace_case {
	const char *name;
	struct ptrace_case_ids reader, target;
	int target_dumpable; /* 1 normal, 0 after set-id or prctl */
	int target_zombie;   /* exited, not reaped: no mm */
	int same_task;	     /* the reader reads itself */
	int reader_ancestor; /* reader is an ancestor of the target */
	int scope;	     /* Yama ptrace_scope */
	int attach;	     /* 0 PTRACE_MODE_READ, 1 PTRACE_MODE_ATTACH */
	int allowed;
};

#define ROOT                                                                                       \
	{                                                                                          \
		0, 0, 0, 0, 0, 0                                                                   \
	}
#define U1000                                                                                      \
	{                                                                                          \
		1000, 1000, 1000, 1000, 1000, 1000                                                 \
	}
#define U1001                                                                                      \
	{                                                                                          \
		1001, 1001, 1001, 1001, 1001, 1001                                                 \
	}

static const struct ptrace_case ptrace_cases[] = {
	{"root reads root", ROOT, ROOT, 1, 0, 0, 0, 0, 0, 1},
	{"user reads root", U1000, ROOT, 1, 0, 0, 0, 0, 0, 0},
	{"user reads same user", U1000, U1000, 1, 0, 0, 0, 0, 0, 1},
	{"user reads other user", U1000, U1001, 1, 0, 0, 0, 0, 0, 0},
	{"root reads user", ROOT, U1000, 1, 0, 0, 0, 0, 0, 1},
	{"user reads setuid-root program (r=1000 e=0 s=0)",
	 U1000,
	 {1000, 0, 0, 1000, 1000, 1000},
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0},
	{"target saved uid differs", U1000, {1000, 1000, 0, 1000, 1000, 1000}, 1, 0, 0, 0, 0, 0, 0},
	{"target real uid differs", U1000, {0, 1000, 1000, 1000, 1000, 1000}, 1, 0, 0, 0, 0, 0, 0},
	{"target real gid differs",
	 U1000,
	 {1000, 1000, 1000, 1001, 1000, 1000},
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0},
	{"target effective gid differs",
	 U1000,
	 {1000, 1000, 1000, 1000, 1001, 1000},
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0},
	{"target saved gid differs",
	 U1000,
	 {1000, 1000, 1000, 1000, 1000, 1001},
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0},
	{"user reads non-dumpable same user", U1000, U1000, 0, 0, 0, 0, 0, 0, 0},
	{"root reads non-dumpable user", ROOT, U1000, 0, 0, 0, 0, 0, 0, 1},
	{"setuid-root reader (e=0 has caps) reads root",
	 {1000, 0, 0, 1000, 1000, 1000},
	 ROOT,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 1},
	{"reader r=0 e=1000 (no caps) reads root: real uid matches",
	 {0, 1000, 0, 0, 0, 0},
	 ROOT,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 1},
	{"reader r=0 e=1000 (no caps) reads user 1000",
	 {0, 1000, 0, 0, 0, 0},
	 U1000,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0},
	{"reader r=1000 e=1001 reads user 1000",
	 {1000, 1001, 1001, 1000, 1000, 1000},
	 U1000,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 1},
	{"reader with gid 1001 reads user 1000",
	 {1000, 1000, 1000, 1001, 1001, 1001},
	 U1000,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 0},
	{"reader egid 0 but real gid 1000 reads user 1000",
	 {1000, 1000, 1000, 1000, 0, 0},
	 U1000,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 1},
	{"reader saved uid 0 reads user 1000",
	 {1000, 1000, 0, 1000, 1000, 1000},
	 U1000,
	 1,
	 0,
	 0,
	 0,
	 0,
	 0,
	 1},
	{"user reads zombie of same user", U1000, U1000, 1, 1, 0, 0, 0, 0, 0},
	{"root reads zombie", ROOT, U1000, 1, 1, 0, 0, 0, 0, 1},
	{"user reads itself", U1000, U1000, 1, 0, 1, 0, 0, 0, 1},
	{"user reads itself while non-dumpable", U1000, U1000, 0, 0, 1, 0, 0, 0, 1},
	{"scope 3 does not apply to READ", U1000, U1000, 1, 0, 0, 0, 3, 0, 1},
	{"scope 1 READ of a non-descendant", U1000, U1000, 1, 0, 0, 0, 1, 0, 1},
	{"scope 0 attach same user", U1000, U1000, 1, 0, 0, 0, 0, 1, 1},
	{"scope 0 attach other user", U1000, U1001, 1, 0, 0, 0, 0, 1, 0},
	{"scope 1 attach non-descendant", U1000, U1000, 1, 0, 0, 0, 1, 1, 0},
	{"scope 1 attach descendant", U1000, U1000, 1, 0, 0, 1, 1, 1, 1},
	{"scope 1 root attaches non-descendant", ROOT, U1000, 1, 0, 0, 0, 1, 1, 1},
	{"scope 2 user attaches descendant", U1000, U1000, 1, 0, 0, 1, 2, 1, 0},
	{"scope 2 root attaches", ROOT, U1000, 1, 0, 0, 0, 2, 1, 1},
	{"scope 3 root attaches", ROOT, U1000, 1, 0, 0, 0, 3, 1, 0},
	{"scope 3 attach to itself", U1000, U1000, 1, 0, 1, 0, 3, 1, 1},
	{"scope 1 attach non-dumpable descendant", U1000, U1000, 0, 0, 0, 1, 1, 1, 0},
};

#undef ROOT
#undef U1000
#undef U1001

#endif
