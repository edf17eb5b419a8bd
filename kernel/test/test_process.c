/*
 * Process tests: each spawns real ring-3 programs (userland/test/t_*.c) as
 * children of init, waits for them, and checks what came back, plus what
 * only the kernel can see (canaries, free pages, the task table).
 */
#include "kernel/arch/timer.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pmm.h"
#include "kernel/char/random.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

static enum ktest_result expect_exit0(struct ktest_ctx *t, int argc, char **argv)
{
	long st = ktest_run(argc, argv);

	if (st != W_EXITCODE(0))
		return ktest_fail(t, "%s %s: status 0x%lx (see its FAIL line above)", argv[0],
				  argc > 1 ? argv[1] : "", st);
	return KTEST_PASS;
}

static void sleep_ms(unsigned ms)
{
	sleep_until(jiffies + (uint64_t)ms * timer_hz() / 1000 + 1, (const void *)sleep_ms);
}

static enum ktest_result fork_cow(struct ktest_ctx *t)
{
	char *argv[] = {"t_fork", "cow"};

	return expect_exit0(t, 2, argv);
}
KTEST(fork_cow);

static enum ktest_result fork_wait_exit_code(struct ktest_ctx *t)
{
	char *argv[] = {"t_fork", "exitcode"};
	char *sl[] = {"t_sleep", "10"};

	if (ktest_run(2, sl) != W_EXITCODE(0))
		return ktest_fail(t, "t_sleep did not exit 0");
	return expect_exit0(t, 2, argv);
}
KTEST(fork_wait_exit_code);

static enum ktest_result sched_preempt(struct ktest_ctx *t)
{
	char *argv[] = {"t_sched"};

	return expect_exit0(t, 1, argv);
}
KTEST(sched_preempt);

/* Parent and children hold distinct canaries drawn from the selected variant. */
static enum ktest_result canary_per_task(struct ktest_ctx *t)
{
	char *argv[] = {"t_fork", "hold", "4"};
	uint64_t seen[NR_TASKS];
	int n = 0, status;
	long pid;

	if (!rng_current()->secure)
		return ktest_skip(t, "rng=%s is not a secure variant", rng_current()->name);
	pid = spawn_prog("t_fork", 3, argv);
	if (pid < 0)
		return ktest_fail(t, "spawn: %ld", pid);
	sleep_ms(100);
	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state != TASK_UNUSED && !strcmp(tasks[i].comm, "t_fork"))
			seen[n++] = tasks[i].stack_canary;
	do_wait((int)pid, 0, &status, 0, 0);
	if (n != 5)
		return ktest_fail(t, "found %d t_fork tasks, expected 5", n);
	for (int i = 0; i < n; i++) {
		if (!seen[i] || seen[i] == current->stack_canary)
			return ktest_fail(t, "canary %d is 0 or the parent's", i);
		for (int j = 0; j < i; j++)
			if (seen[i] == seen[j])
				return ktest_fail(t, "two tasks share canary 0x%lx", seen[i]);
	}
	return KTEST_PASS;
}
KTEST(canary_per_task);

/* The overflow kills the task that caused it; a sibling finishes normally. */
static enum ktest_result canary_smash(struct ktest_ctx *t)
{
	char *victim[] = {"t_canary"}, *sibling[] = {"t_sleep", "150"};
	int st1 = -1, st2 = -1;
	long p1, p2;

	p2 = spawn_prog("t_sleep", 2, sibling);
	p1 = spawn_prog("t_canary", 1, victim);
	if (p1 < 0 || p2 < 0)
		return ktest_fail(t, "spawn failed: %ld %ld", p1, p2);
	do_wait((int)p1, 0, &st1, 0, 0);
	do_wait((int)p2, 0, &st2, 0, 0);
	if (st1 != W_SIGNALED(SIGABRT))
		return ktest_fail(t, "t_canary status 0x%x, expected killed by SIGABRT", st1);
	if (st2 != W_EXITCODE(0))
		return ktest_fail(t, "the sibling did not finish normally (0x%x)", st2);
	return KTEST_PASS;
}
KTEST(canary_smash);

static enum ktest_result user_fault_kill(struct ktest_ctx *t)
{
	static const struct {
		const char *mode;
		int sig;
	} cases[] = {
		{"segv", SIGSEGV}, {"kernel", SIGSEGV}, {"ud", SIGILL},
		{"de", SIGFPE},	   {"gp", SIGSEGV},	{"nx", SIGSEGV},
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = {"t_fault", (char *)cases[i].mode};
		long st = ktest_run(2, argv);

		if (st != W_SIGNALED(cases[i].sig))
			return ktest_fail(t, "t_fault %s: status 0x%lx, expected signal %d",
					  cases[i].mode, st, cases[i].sig);
	}
	return KTEST_PASS;
}
KTEST(user_fault_kill);

static enum ktest_result syscall_efault(struct ktest_ctx *t)
{
	char *argv[] = {"t_efault"};

	return expect_exit0(t, 1, argv);
}
KTEST(syscall_efault);

static enum ktest_result fork_bomb(struct ktest_ctx *t)
{
	char *argv[] = {"t_fork", "bomb"};
	int before = nr_tasks_in_use();
	enum ktest_result r = expect_exit0(t, 2, argv);

	if (r == KTEST_PASS && nr_tasks_in_use() != before)
		return ktest_fail(t, "%d tasks after, %d before", nr_tasks_in_use(), before);
	return r;
}
KTEST(fork_bomb);

/* Forks under a page floor: -ENOMEM, and every page back afterwards. */
static enum ktest_result oom_fork(struct ktest_ctx *t)
{
	char *argv[] = {"t_fork", "oom"};
	uint64_t before = pmm_free_count();
	long st;

	pmm_set_floor(before - 400);
	st = ktest_run(2, argv);
	pmm_set_floor(0);
	if (st != W_EXITCODE(0))
		return ktest_fail(t, "t_fork oom: status 0x%lx", st);
	if (pmm_free_count() != before)
		return ktest_fail(t, "%lu pages free after, %lu before", pmm_free_count(), before);
	return KTEST_PASS;
}
KTEST(oom_fork);

static enum ktest_result page_leak(struct ktest_ctx *t)
{
	char *argv[] = {"t_fork", "leak", "10000"};
	uint64_t before = pmm_free_count();
	enum ktest_result r = expect_exit0(t, 3, argv);

	if (r == KTEST_PASS && pmm_free_count() != before)
		return ktest_fail(t, "%lu pages free after 10000 forks, %lu before",
				  pmm_free_count(), before);
	return r;
}
KTEST(page_leak);
