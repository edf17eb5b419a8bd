/*
 * Regression tests for the defects a hostile syscall fuzzer found: each
 * runs a ring-3 program (userland/test/t_reliab.c) and checks what
 * only the kernel sees: free pages, task slots, the sysctls.
 */
#include "kernel/measure/policy.h"
#include "kernel/arch/gdt.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/pmm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

/* t_reliab MODE exits 0, and every page and task slot comes back. */
static enum ktest_result expect_clean(struct ktest_ctx *t, const char *mode)
{
	char *argv[] = {"t_reliab", (char *)mode};
	uint64_t pages = pmm_free_count();
	int tasks = nr_tasks_in_use();
	long st = ktest_run(2, argv);

	if (st != W_EXITCODE(0))
		return ktest_fail(t, "t_reliab %s: status 0x%lx (see its FAIL lines above)", mode,
				  st);
	if (pmm_free_count() != pages || nr_tasks_in_use() != tasks)
		return ktest_fail(t, "t_reliab %s: %lu pages free after, %lu before; %d tasks, %d",
				  mode, pmm_free_count(), pages, nr_tasks_in_use(), tasks);
	return KTEST_PASS;
}

/* Before: a triple fault as root, a hang as uid 1000. */
static enum ktest_result reliab_nt(struct ktest_ctx *t)
{
	return expect_clean(t, "nt");
}
KTEST(reliab_nt);

/*
 * A fault on the iretq to user mode kills the task, not the kernel.  A null
 * SS makes iretq itself raise #GP in ring 0, after swapgs (a non-canonical
 * RIP does too on Intel; QEMU's TCG faults later, at the fetch in ring 3).
 */
static enum ktest_result bad_frame(struct ktest_ctx *t, uint64_t rip, uint64_t ss)
{
	char *argv[] = {"t_nop"};
	long pid = spawn_prog("t_nop", 1, argv);
	struct task_struct *p = pid > 0 ? find_task_by_pid((int)pid) : 0;
	int status = 0;

	if (!p)
		return ktest_fail(t, "spawn t_nop: %ld", pid);
	/* It has not run yet: its first return to user mode is ret_to_user's iretq. */
	if (rip)
		p->regs->rip = rip;
	p->regs->ss = ss;
	do_wait((int)pid, 0, &status, 0, 0);
	if (status != W_SIGNALED(SIGSEGV))
		return ktest_fail(t, "rip 0x%lx ss 0x%lx: status 0x%x, expected killed by SIGSEGV",
				  rip, ss, status);
	return KTEST_PASS;
}

static enum ktest_result reliab_bad_iret(struct ktest_ctx *t)
{
	enum ktest_result r = bad_frame(t, 0, 0);

	return r != KTEST_PASS ? r : bad_frame(t, 0x0000800000000000ULL, USER_DS);
}
KTEST(reliab_bad_iret);

/*
 * Before: 17.7 s per TiB; 127 TiB about half an hour.  Under the 2.6.29
 * rules a PIE sits right below the mmap base, so its brk has no 11 TiB to
 * grow into (Linux refuses it too); the test runs under the 6.x layout,
 * where the program sits low at ELF_ET_DYN_BASE.
 */
static enum ktest_result reliab_unmap_huge(struct ktest_ctx *t)
{
	struct policy want, saved;
	enum ktest_result r;

	policy_current(&want);
	want.aslr_rules = ASLR_RULES_6X;
	policy_select(&want, &saved);
	r = expect_clean(t, "unmap");
	policy_restore(&saved);
	return r;
}
KTEST(reliab_unmap_huge);

static enum ktest_result reliab_prot_none(struct ktest_ctx *t)
{
	return expect_clean(t, "protnone");
}
KTEST(reliab_prot_none);

static enum ktest_result reliab_errno(struct ktest_ctx *t)
{
	int va = randomize_va_space;
	enum ktest_result r = expect_clean(t, "errno");

	if (r == KTEST_PASS && randomize_va_space != va)
		return ktest_fail(t, "randomize_va_space changed through an O_RDONLY fd");
	return r;
}
KTEST(reliab_errno);

/* init's shell-mode loop, as a subreaper: it reaps the orphans it is handed. */
static enum ktest_result reliab_orphan_reap(struct ktest_ctx *t)
{
	char *argv[] = {"init", "reap", "/bin/t_reliab", "orphans", "5"};
	int tasks = nr_tasks_in_use();
	long st = ktest_run(5, argv);

	if (st != W_EXITCODE(5))
		return ktest_fail(t, "init reap: status 0x%lx, expected exit 5 (5 orphans reaped)",
				  st);
	if (nr_tasks_in_use() != tasks)
		return ktest_fail(t, "%d tasks after, %d before", nr_tasks_in_use(), tasks);
	return KTEST_PASS;
}
KTEST(reliab_orphan_reap);

/*
 * The merge of the fuzzer and the Linux ABI: the fuzzer's unknown numbers
 * overran the unknown-syscall warning table (64 pairs) and wrote past it,
 * over the hooks and idle_task after it; init's parent is idle_task, so
 * the next exit's find_new_reaper walked into a comm ("fuzz") taken for a
 * pointer.  Here: 300 distinct unknown numbers from ring 3, then a fork
 * and exit; idle_task and the hooks must be untouched.
 */
static enum ktest_result reliab_unknown_nr(struct ktest_ctx *t)
{
	void (*fork_hook)(uint32_t) = fork_rng_sample_hook;
	enum ktest_result r = expect_clean(t, "unknown");

	if (idle_task.parent || idle_task.pid || strcmp(idle_task.comm, "swapper"))
		return ktest_fail(t, "idle_task overwritten: parent %p pid %d comm '%.16s'",
				  (void *)idle_task.parent, idle_task.pid, idle_task.comm);
	if (fork_rng_sample_hook != fork_hook)
		return ktest_fail(t, "fork_rng_sample_hook overwritten: %p",
				  (void *)fork_rng_sample_hook);
	return r;
}
KTEST(reliab_unknown_nr);

/* The tid stores are put_user: read-only pages and the kernel half are left alone. */
static enum ktest_result reliab_tid_put_user(struct ktest_ctx *t)
{
	return expect_clean(t, "tidptr");
}
KTEST(reliab_tid_put_user);

/*
 * /proc/self/fail-nth walks through fork, spawn, execve, mmap, brk and
 * /proc opens (t_failnth checks each step); here, that the whole run gives
 * back every page and task slot.
 */
static enum ktest_result failnth_walk(struct ktest_ctx *t)
{
	char *argv[] = {"t_failnth"};
	uint64_t pages = pmm_free_count();
	int tasks = nr_tasks_in_use();
	long st = ktest_run(1, argv);

	if (st != W_EXITCODE(0))
		return ktest_fail(t, "t_failnth: status 0x%lx (see its FAIL lines above)", st);
	if (pmm_free_count() != pages || nr_tasks_in_use() != tasks)
		return ktest_fail(t, "%lu pages free after, %lu before; %d tasks, %d",
				  pmm_free_count(), pages, nr_tasks_in_use(), tasks);
	return KTEST_PASS;
}
KTEST(failnth_walk);
