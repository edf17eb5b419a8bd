/*
 * /proc and the 2009 patch, tested with real tasks: the readers are ring-3
 * programs (t_procfs) whose credentials the kernel sets before they first run.
 */
#include "kernel/measure/policy.h"
#include "kernel/arch/timer.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/syscall/exec_file.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/security/ptrace.h"
#include "kernel/security/ptrace_cases.h"
#include "kernel/test/ktest.h"

static void set_ids(struct task_struct *t, const struct ptrace_case_ids *id)
{
	t->cred = ptrace_case_cred(id, 0);
	task_fixup_caps(t);
}

static const struct ptrace_case_ids uid1000 = {1000, 1000, 1000, 1000, 1000, 1000};

/* Spawns argv as `ids` (NULL: as root) and waits; the status, or -errno. */
static long run_as(const struct ptrace_case_ids *ids, int dumpable, int argc, char **argv)
{
	int status = 0;
	long pid = spawn_prog(argv[0], argc, argv);
	struct task_struct *t;

	if (pid < 0)
		return pid;
	t = find_task_by_pid((int)pid);
	if (ids)
		set_ids(t, ids);
	t->dumpable = dumpable;
	return do_wait((int)pid, 0, &status, 0, 0) < 0 ? -1 : status;
}

static void nap(void)
{
	sleep_until(jiffies + 1, (const void *)nap);
}

/* Spawns t_park and returns once it sleeps in the kernel (so a release cannot miss it). */
static long park(void)
{
	char *argv[] = {"t_park"};
	long pid = spawn_prog("t_park", 1, argv);
	struct task_struct *t = pid > 0 ? find_task_by_pid((int)pid) : 0;

	for (int i = 0; t && i < 1000 && !(t->state == TASK_INTERRUPTIBLE && t->wchan); i++)
		nap();
	return pid;
}

static void unpark(void)
{
	int status;

	ktest_release_parked();
	while (do_wait(-1, 0, &status, 0, 0) > 0)
		;
}

static enum ktest_result proc_stat_format(struct ktest_ctx *t)
{
	char *argv[] = {"t_procfs", "format"};
	long st = run_as(0, 1, 2, argv);

	return st == 0 ? KTEST_PASS : ktest_fail(t, "t_procfs format: status 0x%lx", st);
}
KTEST(proc_stat_format);

static enum ktest_result proc_leak_fixed(struct ktest_ctx *t)
{
	char *argv[] = {"t_procfs", "leak", "fixed"};
	struct policy want, saved;
	long victim = park(), st;

	if (victim < 0)
		return ktest_fail(t, "spawn: %ld", victim);
	policy_current(&want);
	want.proc_leak_fix = 1;
	policy_select(&want, &saved);
	st = run_as(&uid1000, 1, 3, argv);
	policy_restore(&saved);
	unpark();
	return st == 0 ? KTEST_PASS : ktest_fail(t, "t_procfs leak fixed: status 0x%lx", st);
}
KTEST(proc_leak_fixed);

static enum ktest_result proc_leak_demo(struct ktest_ctx *t)
{
	char pid[12], *argv[] = {"t_procfs", "leak", "demo", pid};
	struct policy want, saved;
	long victim = park(), st;

	if (victim < 0)
		return ktest_fail(t, "spawn: %ld", victim);
	ksnprintf(pid, sizeof(pid), "%ld", victim);
	policy_current(&want);
	want.proc_leak_fix = 0;
	policy_select(&want, &saved);
	st = run_as(&uid1000, 1, 4, argv);
	policy_restore(&saved);
	unpark();
	return st == 0 ? KTEST_PASS : ktest_fail(t, "t_procfs leak demo: status 0x%lx", st);
}
KTEST(proc_leak_demo);

static enum ktest_result proc_bad_input(struct ktest_ctx *t)
{
	char *argv[] = {"t_procfs", "bad"};
	long st = run_as(0, 1, 2, argv);

	if (st != 0)
		return ktest_fail(t, "as root: status 0x%lx", st);
	st = run_as(&uid1000, 1, 2, argv);
	return st == 0 ? KTEST_PASS : ktest_fail(t, "as uid 1000: status 0x%lx", st);
}
KTEST(proc_bad_input);

/* A target with the case's credentials: parked, or a zombie. */
static struct task_struct *make_target(const struct ptrace_case *c)
{
	char *nop[] = {"t_nop"};
	long pid = c->target_zombie ? spawn_prog("t_nop", 1, nop) : park();
	struct task_struct *tt;

	if (pid < 0)
		return 0;
	tt = find_task_by_pid((int)pid);
	set_ids(tt, &c->target);
	tt->dumpable = c->target_dumpable;
	for (int i = 0; i < 50 && c->target_zombie && tt->state != TASK_ZOMBIE; i++)
		nap();
	return tt;
}

/* READ cases: a ring-3 reader opens /proc/<pid>/maps. */
static int read_case(const struct ptrace_case *c, struct task_struct *target)
{
	char pid[12], *argv[] = {"t_procfs", "access", pid};
	long st;

	if (c->same_task)
		strlcpy(pid, "self", sizeof(pid));
	else
		ksnprintf(pid, sizeof(pid), "%d", target->pid);
	st = run_as(&c->reader, c->same_task ? c->target_dumpable : 1, 3, argv);
	return st == 0 ? 1 : st == W_EXITCODE(1) ? 0 : -1;
}

/*
 * ATTACH cases: there is no ptrace(2) here, so the kernel takes the reader's
 * credentials itself (as init, the parent of every target: an ancestor) and
 * asks ptrace_may_access about the real target.
 */
static int attach_case(const struct ptrace_case *c, struct task_struct *target)
{
	struct task_struct *me = current, saved = *me;
	struct task_struct *parent = target->parent;
	int ok;

	set_ids(me, &c->reader);
	if (!c->reader_ancestor)
		target->parent = 0;
	ptrace_scope = c->scope;
	ok = c->same_task ? ptrace_may_access(me, PTRACE_MODE_ATTACH)
			  : ptrace_may_access(target, PTRACE_MODE_ATTACH);
	ptrace_scope = 0;
	target->parent = parent;
	me->cred = saved.cred;
	return ok;
}

static enum ktest_result proc_access_matrix(struct ktest_ctx *t)
{
	unsigned n = sizeof(ptrace_cases) / sizeof(ptrace_cases[0]);

	for (unsigned i = 0; i < n; i++) {
		const struct ptrace_case *c = &ptrace_cases[i];
		struct task_struct *target = make_target(c);
		int got, status;

		if (!target)
			return ktest_fail(t, "case '%s': no target", c->name);
		if (c->attach) {
			got = attach_case(c, target);
		} else {
			ptrace_scope = c->scope;
			got = read_case(c, target);
			ptrace_scope = 0;
		}
		if (c->target_zombie)
			do_wait(target->pid, 0, &status, 0, 0);
		else
			unpark();
		if (got != c->allowed)
			return ktest_fail(t, "case %u '%s': %s, expected %s", i, c->name,
					  got < 0 ? "reader failed"
					  : got	  ? "allowed"
						  : "denied",
					  c->allowed ? "allowed" : "denied");
	}
	return KTEST_PASS;
}
KTEST(proc_access_matrix);

/* hidepid (Linux 3.3): 1 denies other users' pid files (EPERM), 2 also hides them (ENOENT). */
static enum ktest_result proc_hidepid(struct ktest_ctx *t)
{
	static const struct {
		int hidepid, root, want_open, want_listed;
	} cases[] = {
		{0, 0, 0, 1},
		{1, 0, 1 /* EPERM */, 1},
		{2, 0, 2 /* ENOENT */, 0},
		{2, 1, 0, 1},
	};
	char path[40], pid[12];
	int saved = hidepid;
	long victim = park();

	if (victim < 0)
		return ktest_fail(t, "spawn: %ld", victim);
	ksnprintf(path, sizeof(path), "/proc/%ld/stat", victim);
	ksnprintf(pid, sizeof(pid), "%ld", victim);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *o[] = {"t_procfs", "open", path}, *l[] = {"t_procfs", "listed", pid};
		const struct ptrace_case_ids *who = cases[i].root ? 0 : &uid1000;
		long st_open, st_list;

		hidepid = cases[i].hidepid;
		st_open = run_as(who, 1, 3, o);
		st_list = run_as(who, 1, 3, l);
		hidepid = saved;
		if (st_open != W_EXITCODE(cases[i].want_open) ||
		    (st_list == 0) != cases[i].want_listed) {
			unpark();
			return ktest_fail(t, "hidepid=%d %s: open status 0x%lx, listed %s",
					  cases[i].hidepid, cases[i].root ? "root" : "uid 1000",
					  st_open, st_list == 0 ? "yes" : "no");
		}
	}
	unpark();
	return KTEST_PASS;
}
KTEST(proc_hidepid);
