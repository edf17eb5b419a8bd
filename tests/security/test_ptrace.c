/*
 * Host unit test of ptrace_rule(): every case of the shared access matrix
 * (kernel/security/ptrace_cases.h), plus the rule's own corner cases.
 */
#include <check.h>
#include <stdlib.h>

#include "kernel/security/ptrace_cases.h"
#include "kernel/security/ptrace_rules.h"
#include "tests/lib/tap_check.h"

static void to_creds(const struct ptrace_case_ids *id, int has_mm, int dumpable,
		     struct ptrace_creds *c)
{
	c->cred = ptrace_case_cred(id, id->euid == 0 ? ~0ULL : 0);
	c->has_mm = has_mm;
	c->dumpable = dumpable;
}

START_TEST(matrix_case)
{
	const struct ptrace_case *c = &ptrace_cases[_i];
	struct ptrace_creds r, t;
	struct ptrace_ctx ctx = {c->same_task, c->reader_ancestor, c->scope};
	int got;

	to_creds(&c->reader, 1, 1, &r);
	to_creds(&c->target, !c->target_zombie, c->target_dumpable, &t);
	if (c->same_task)
		t = r, t.dumpable = c->target_dumpable;
	got = ptrace_rule(&r, &t, &ctx, c->attach ? PTRACE_MODE_ATTACH : PTRACE_MODE_READ) == 0;
	ck_assert_msg(got == c->allowed, "case %d '%s': got %s", _i, c->name,
		      got ? "allowed" : "denied");
}
END_TEST

/* CAP_SYS_PTRACE alone (not root) overrides the id and dumpable checks. */
START_TEST(cap_sys_ptrace_alone)
{
	struct ptrace_creds r = {.cred = {.uid = 1000,
					  .gid = 1000,
					  .suid = 1000,
					  .sgid = 1000,
					  .euid = 1000,
					  .egid = 1000,
					  .cap_effective = 1ULL << CAP_SYS_PTRACE},
				 .has_mm = 1,
				 .dumpable = 1};
	struct ptrace_creds t = {.cred = {.cap_effective = 0}, .has_mm = 1, .dumpable = 0};
	struct ptrace_ctx ctx = {0, 0, 0};

	ck_assert_int_eq(ptrace_rule(&r, &t, &ctx, PTRACE_MODE_READ), 0);
	r.cred.cap_effective = 1ULL << (CAP_SYS_PTRACE + 1); /* another capability */
	ck_assert_int_ne(ptrace_rule(&r, &t, &ctx, PTRACE_MODE_READ), 0);
}
END_TEST

START_TEST(matrix_is_large_enough)
{
	ck_assert_uint_ge(sizeof(ptrace_cases) / sizeof(ptrace_cases[0]), 32);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ptrace");
	TCase *tc = tcase_create("rule");

	tcase_add_loop_test(tc, matrix_case, 0, sizeof(ptrace_cases) / sizeof(ptrace_cases[0]));
	tcase_add_test(tc, cap_sys_ptrace_alone);
	tcase_add_test(tc, matrix_is_large_enough);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
