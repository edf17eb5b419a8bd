/*
 * Linux 2.6.29's __ptrace_may_access (linux/kernel/ptrace.c), the test the 2009
 * /proc patch put in front of kstkeip, kstkesp, wchan and startstack:
 *
 *   - a task may always inspect itself;
 *   - otherwise the reader's *real* uid must equal the target's real,
 *     effective and saved uid, and its real gid the target's three gids,
 *     unless the reader has CAP_SYS_PTRACE;
 *   - a target that is not dumpable (after a set-id change, or
 *     prctl(PR_SET_DUMPABLE, 0)) needs CAP_SYS_PTRACE; a task without an
 *     mm (kernel thread, zombie) counts as not dumpable, as `dumpable = 0`
 *     stays when task->mm is NULL;
 *   - then the LSM: Yama's ptrace_scope (Linux 3.4) for ATTACH mode only:
 *     1 = only an ancestor (or CAP_SYS_PTRACE), 2 = only CAP_SYS_PTRACE,
 *     3 = nobody.
 */
#include "kernel/security/ptrace_rules.h"

#define EPERM_RET (-1)

static bool has_cap(const struct ptrace_creds *c)
{
	return (c->cred.cap_effective >> CAP_SYS_PTRACE) & 1;
}

static int yama(const struct ptrace_creds *reader, const struct ptrace_ctx *ctx, unsigned mode)
{
	if (mode != PTRACE_MODE_ATTACH)
		return 0;
	switch (ctx->ptrace_scope) {
	case 0:
		return 0;
	case 1:
		return ctx->reader_is_ancestor || has_cap(reader) ? 0 : EPERM_RET;
	case 2:
		return has_cap(reader) ? 0 : EPERM_RET;
	default:
		return EPERM_RET;
	}
}

int ptrace_rule(const struct ptrace_creds *reader, const struct ptrace_creds *target,
		const struct ptrace_ctx *ctx, unsigned mode)
{
	if (ctx->same_task)
		return 0;
	if ((reader->cred.uid != target->cred.euid || reader->cred.uid != target->cred.suid ||
	     reader->cred.uid != target->cred.uid || reader->cred.gid != target->cred.egid ||
	     reader->cred.gid != target->cred.sgid || reader->cred.gid != target->cred.gid) &&
	    !has_cap(reader))
		return EPERM_RET;
	if (!(target->has_mm && target->dumpable) && !has_cap(reader))
		return EPERM_RET;
	return yama(reader, ctx, mode);
}
