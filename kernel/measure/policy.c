/*
 * One select/restore pair for the experiment policy (policy.h): the RNG
 * variant, the ASLR rule set and profile, randomize_va_space and /proc's
 * leak fix, each owned by its layer (kernel/char, kernel/mm,
 * kernel/fs/proc) and switched together here.
 */
#include "kernel/measure/policy.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/layout.h"
#include "kernel/char/random.h"

void policy_current(struct policy *p)
{
	p->rng = rng_current();
	p->aslr_rules = aslr_rules;
	p->aslr_ia32 = aslr_ia32;
	p->randomize_va_space = randomize_va_space;
	p->proc_leak_fix = proc_leak_fix;
}

int policy_select(const struct policy *want, struct policy *saved)
{
	struct policy old;
	int rc;

	if (!want->rng || !aslr_rules_by_id(want->aslr_rules) || want->randomize_va_space < 0 ||
	    want->randomize_va_space > 2)
		return -EINVAL;
	policy_current(&old);
	if (want->rng != old.rng && (rc = rng_select(want->rng->name)))
		return rc;
	aslr_rules = want->aslr_rules;
	aslr_ia32 = want->aslr_ia32 ? 1 : 0;
	randomize_va_space = want->randomize_va_space;
	proc_leak_fix = want->proc_leak_fix ? 1 : 0;
	if (saved)
		*saved = old;
	return 0;
}

void policy_restore(const struct policy *saved)
{
	policy_select(saved, 0);
}
