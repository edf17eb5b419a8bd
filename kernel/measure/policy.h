#ifndef KERNEL_MEASURE_POLICY_H
#define KERNEL_MEASURE_POLICY_H

#include "rng/rng.h"

/*
 * The experiment policy: everything a benchmark, the attack lab or a test
 * switches between runs.  The boot command line sets each of them once;
 * whatever changes one afterwards does it through policy_select() and puts
 * the old one back with policy_restore(), so no caller writes these
 * settings one by one and none is left changed:
 *
 *	struct policy want, saved;
 *
 *	policy_current(&want);
 *	want.aslr_rules = ASLR_RULES_6X;
 *	if (policy_select(&want, &saved))
 *		return skip;
 *	...
 *	policy_restore(&saved);
 */
struct policy {
	const struct rng_variant *rng; /* rng=: the variant behind get_random_int() */
	int aslr_rules;		       /* aslr_rules=: ASLR_RULES_* */
	int aslr_ia32;		       /* aslr_profile=ia32: a 32-bit task's layout */
	int randomize_va_space;	       /* 0, 1, 2 */
	int proc_leak_fix;	       /* 1: /proc's 2009 ptrace_may_access checks */
};

void policy_current(struct policy *p);
/*
 * Makes want current; saved (may be NULL) gets what was current before.
 * -EINVAL (an unknown rule set or value) or rng_select()'s -ENODEV/-EINVAL,
 * and then nothing has changed.
 */
int policy_select(const struct policy *want, struct policy *saved);
void policy_restore(const struct policy *saved);

#endif
