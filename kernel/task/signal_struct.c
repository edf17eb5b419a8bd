/*
 * sighand_struct and signal_struct (Linux 6.6's kernel/fork.c
 * copy_sighand, copy_signal, __cleanup_sighand, put_signal_struct): the
 * pools, the copies a fork without CLONE_SIGHAND or CLONE_THREAD makes, and
 * the release with the last task.  Each allocation is a fail-nth site.
 */
#include "kernel/lib/compiler.h"
#include "kernel/lib/string.h"
#include "kernel/task/fail_nth.h"
#include "kernel/task/task.h"

struct sighand_struct init_sighand = {.count = 1};
struct signal_struct init_signals = {
	.sigcnt = 1,
	.live = 1,
	.nr_threads = 1,
	.rlim_stack = {RLIM_STACK_DEFAULT, RLIM_INFINITY_K},
};

static struct sighand_struct sighand_pool[NR_TASKS];
static struct signal_struct signal_pool[NR_TASKS];

struct sighand_struct *copy_sighand(const struct sighand_struct *from)
{
	struct sighand_struct *sh = 0;

	if (should_fail_alloc())
		return 0;
	for (int i = 0; i < NR_TASKS && !sh; i++)
		if (!sighand_pool[i].count)
			sh = &sighand_pool[i];
	if (!sh)
		return 0;
	memcpy(sh->action, from->action, sizeof(sh->action));
	sh->count = 1;
	return sh;
}

void put_sighand(struct sighand_struct *sh)
{
	if (sh && sh != &init_sighand)
		sh->count--;
}

struct signal_struct *copy_signal(const struct signal_struct *from)
{
	struct signal_struct *sig = 0;

	if (should_fail_alloc())
		return 0;
	for (int i = 0; i < NR_TASKS && !sig; i++)
		if (!signal_pool[i].sigcnt)
			sig = &signal_pool[i];
	if (!sig)
		return 0;
	clear_but_siginfo(sig, sizeof(*sig), &sig->shared_pending);
	sig->sigcnt = sig->live = sig->nr_threads = 1;
	sig->rlim_stack = from->rlim_stack;
	sig->rlim_nice = from->rlim_nice;
	sig->pgid = from->pgid;
	sig->sid = from->sid;
	return sig;
}

void put_signal_struct(struct signal_struct *sig)
{
	if (sig && sig != &init_signals)
		sig->sigcnt--;
}

/*
 * thread_group_cputime (linux/kernel/sched/cputime.c): the live threads' ticks,
 * the zombie leader's, and those __exit_signal kept of the threads gone (an
 * exited thread that waits for its slot to be freed is already counted there).
 */
void thread_group_cputime(const struct task_struct *t, uint64_t *utime, uint64_t *stime)
{
	const struct signal_struct *sig = t->signal;

	*utime = sig->utime;
	*stime = sig->stime;
	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_struct *p = &tasks[i];

		if (p->state == TASK_UNUSED || p->signal != sig ||
		    (p->state == TASK_ZOMBIE && !thread_group_leader(p)))
			continue;
		*utime += READ_ONCE(p->utime); /* its CPU's tick writes them lockless */
		*stime += READ_ONCE(p->stime);
	}
}
