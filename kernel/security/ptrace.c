/* ptrace_may_access for real tasks: their credentials through ptrace_rule(). */
#include "kernel/security/ptrace.h"
#include "kernel/mm/layout.h"
#include "kernel/params/param.h"

int ptrace_scope;
param_enum(ptrace_scope, ptrace_scope, "0|1|2|3", "0", "Yama (Linux 3.4)");

/* As Linux's ns_capable: a granted capability marks the task PF_SUPERPRIV. */
bool capable(int cap)
{
	if (!((current->cred.cap_effective >> cap) & 1))
		return false;
	current->flags |= PF_SUPERPRIV;
	return true;
}

static void creds_of(const struct task_struct *t, struct ptrace_creds *c)
{
	c->cred = t->cred;
	c->has_mm = t->mm != 0;
	c->dumpable = t->dumpable;
}

static bool is_ancestor(const struct task_struct *a, const struct task_struct *t)
{
	for (; t; t = t->parent)
		if (t == a)
			return true;
	return false;
}

bool ptrace_may_access(struct task_struct *task, unsigned mode)
{
	struct ptrace_creds r, t;
	bool self = task == current || (aslr_rules_current()->ptrace_group_is_self &&
					same_thread_group(task, current));
	struct ptrace_ctx ctx = {self, is_ancestor(current, task->parent), ptrace_scope};

	creds_of(current, &r);
	creds_of(task, &t);
	return ptrace_rule(&r, &t, &ctx, mode) == 0;
}
