/*
 * poll/select/waitid from real Linux programs (tests/linux/lx_poll.c as
 * static musl and static glibc, in the linux suite), and bad input
 * (tests/linux/lx_bad.c, the badinput test, a boot of its own): a program
 * that maps all memory is OOM-killed with SIGKILL while another task lives
 * on, and a fork bomb of exec'd programs ends in EAGAIN; after each, the
 * task table and the free page count are back where they were.
 */
#include "kernel/arch/timer.h"
#include "kernel/mm/pmm.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/test/ktest.h"

static enum ktest_result linux_poll_musl(struct ktest_ctx *t)
{
	char *argv[] = {"lx_poll_musl"};
	long st = ktest_run(1, argv);

	return st == W_EXITCODE(0)
		       ? KTEST_PASS
		       : ktest_fail(t, "lx_poll_musl: status 0x%lx (FAIL lines above)", st);
}
KTEST(linux_poll_musl);

static enum ktest_result linux_poll_glibc(struct ktest_ctx *t)
{
	char *argv[] = {"lx_poll_glibc"};
	long st = ktest_run(1, argv);

	return st == W_EXITCODE(0)
		       ? KTEST_PASS
		       : ktest_fail(t, "lx_poll_glibc: status 0x%lx (FAIL lines above)", st);
}
KTEST(linux_poll_glibc);

static void nap(void)
{
	sleep_until(jiffies + 1, (const void *)nap);
}

/* Spawns t_park and returns once it sleeps in the kernel. */
static struct task_struct *park(void)
{
	char *argv[] = {"t_park"};
	long pid = spawn_prog("t_park", 1, argv);
	struct task_struct *p = pid > 0 ? find_task_by_pid((int)pid) : 0;

	for (int i = 0; p && i < 1000 && !(p->state == TASK_INTERRUPTIBLE && p->wchan); i++)
		nap();
	return p;
}

static enum ktest_result check_restored(struct ktest_ctx *t, const char *what, int tasks0,
					uint64_t free0)
{
	int tasks1 = nr_tasks_in_use();
	uint64_t free1 = pmm_free_count();

	if (tasks1 != tasks0 || free1 != free0)
		return ktest_fail(t, "after %s: %d tasks (before %d), %lu free pages (before %lu)",
				  what, tasks1, tasks0, (unsigned long)free1, (unsigned long)free0);
	return KTEST_PASS;
}

static enum ktest_result oom(struct ktest_ctx *t)
{
	char *argv[] = {"lx_bad", "oom"};
	int tasks0 = nr_tasks_in_use(), status = -1;
	uint64_t free0 = pmm_free_count();
	struct task_struct *parked = park();
	int ppid = parked ? parked->pid : -1;
	long st;

	if (!parked)
		return ktest_fail(t, "could not start t_park");
	st = ktest_run(2, argv);
	if (st != W_SIGNALED(SIGKILL))
		return ktest_fail(t, "lx_bad oom: status 0x%lx, want 0x%x (killed by SIGKILL)", st,
				  W_SIGNALED(SIGKILL));
	if (find_task_by_pid(ppid) != parked || parked->state != TASK_INTERRUPTIBLE)
		return ktest_fail(t, "t_park (pid %d) did not survive the OOM kill", ppid);
	ktest_release_parked();
	if (do_wait(ppid, 0, &status, 0, 0) != ppid || status != W_EXITCODE(0))
		return ktest_fail(t, "t_park after the OOM kill: status 0x%x, want 0", status);
	return check_restored(t, "the OOM kill", tasks0, free0);
}

static enum ktest_result forkbomb(struct ktest_ctx *t)
{
	char *argv[] = {"lx_bad", "forkbomb"};
	int tasks0 = nr_tasks_in_use();
	uint64_t free0 = pmm_free_count();
	long st = ktest_run(2, argv);

	if (st != W_EXITCODE(0))
		return ktest_fail(t, "lx_bad forkbomb: status 0x%lx, want 0 (see its lines above)",
				  st);
	return check_restored(t, "the fork bomb", tasks0, free0);
}

/* Both in one test, which only suite=badinput runs: it takes every free page and task slot. */
static enum ktest_result badinput(struct ktest_ctx *t)
{
	if (oom(t) != KTEST_PASS)
		return KTEST_FAIL;
	return forkbomb(t);
}
KTEST_EXPLICIT(badinput);
