/*
 * exit and wait.  An exiting task gives back its address space and files at
 * once and stays a zombie (its kernel stack and table slot) until its parent
 * reaps it, as in Unix; orphans go to init.
 */
#include "kernel/lib/printk.h"
#include "kernel/lib/errno.h"
#include "kernel/arch/machine_exit.h"
#include "kernel/mm/mm.h"
#include "kernel/task/futex.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/uapi/aslrbench.h"

/*
 * Linux 6.6's find_new_reaper: a live thread of the exiting task's own
 * group first, else the nearest ancestor that called
 * prctl(PR_SET_CHILD_SUBREAPER), else init.
 */
static struct task_struct *find_new_reaper(struct task_struct *t)
{
	struct task_struct *thread = find_alive_thread(t);
	int depth = 0;

	if (thread)
		return thread;
	/* At most NR_TASKS ancestors: a cycle (a bug) ends the walk at init, not in a hang. */
	for (struct task_struct *p = t->parent; p && depth < NR_TASKS; p = p->parent, depth++) {
		if (p->signal->is_child_subreaper && p->state != TASK_ZOMBIE) {
			thread = find_alive_thread(p);
			return thread ? thread : p;
		}
	}
	return find_task_by_pid(1);
}

void (*init_exit_hook)(int status);

/*
 * __wake_up_parent: the waiters of the parent's group sleep on its
 * signal_struct (wait_chldexit); kernel code waiting for its own spawned
 * child (the attack lab) sleeps on the parent task itself.
 */
static void wake_up_parent(struct task_struct *parent)
{
	if (!parent)
		return;
	wake_up(parent);
	wake_up(parent->signal);
}

/* The status a zombie leader reports: the group's after exit_group or a fatal signal. */
int task_exit_status(const struct task_struct *t)
{
	return (t->signal->flags & SIGNAL_GROUP_EXIT) ? t->signal->group_exit_code : t->exit_code;
}

/*
 * exit_notify, after Linux 6.6: a leader is reported to its parent once the
 * last thread of its group is gone (delay_group_leader); a thread is never
 * waited for, and the last one to go reports its zombie leader.
 */
static void exit_notify(struct task_struct *t)
{
	struct task_struct *leader = t->group_leader;

	if (thread_group_leader(t)) {
		task_set_autoreap(t, thread_group_empty(t) && do_notify_parent(t));
		wake_up_parent(t->parent);
		return;
	}
	task_set_autoreap(t, true);
	t->signal->nr_threads--;
	t->signal->utime += t->utime; /* the process's times keep the thread's */
	t->signal->stime += t->stime;
	if (leader->state == TASK_ZOMBIE && thread_group_empty(leader)) {
		task_set_autoreap(leader, do_notify_parent(leader));
		wake_up_parent(leader->parent);
	}
}

/*
 * reparent_leader (Linux 6.6): a child moving to another process gets
 * SIGCHLD as its exit signal ("we don't want people slaying init"), so a
 * __WCLONE child is reaped by a plain wait; a zombie among them is
 * reported to its new parent now.
 */
static void reparent_leader(struct task_struct *p)
{
	p->exit_signal = SIGCHLD;
	if (p->state == TASK_ZOMBIE && !p->autoreap && thread_group_empty(p))
		task_set_autoreap(p, do_notify_parent(p));
}

/* A reparented leader's threads follow it: a thread's parent is its leader's. */
static void reparent_threads(struct task_struct *leader)
{
	struct task_struct *p;
	int i = 0;

	while ((p = next_other_thread(leader, &i)))
		p->parent = leader->parent;
}

/*
 * Linux 6.6's forget_original_parent: the exiting task's children go to
 * the reaper, in their order, at the end of its list; a zombie among
 * them is reported to it.  A child that changes process is given
 * SIGCHLD as its exit signal and its process group is checked for a new
 * orphan (reparent_leader).  A vfork child's vfork_parent is not looked
 * at: its parent sleeps in vfork until the child execs or exits, and the
 * pointer is never followed, only compared by that parent.
 */
static void forget_original_parent(struct task_struct *t, struct task_struct *reaper)
{
	struct list_head *l = t->children.next, *next;

	for (; l != &t->children; l = next) {
		struct task_struct *c = task_of_sibling(l);

		next = l->next;
		task_set_parent(c, reaper);
		reparent_threads(c);
		if (reaper && !same_thread_group(reaper, t)) {
			reparent_leader(c);
			kill_orphaned_pgrp(c, t);
		}
		if (c->state == TASK_ZOMBIE)
			wake_up_parent(reaper);
	}
}

void do_exit(int status)
{
	struct task_struct *t = current;
	struct signal_struct *sig = t->signal;
	struct mm_struct *mm;
	bool group_dead;

	/* Its part in a group stop under way is given up first (exit_signals). */
	exit_signals(t);
	t->flags |= PF_EXITING;
	group_dead = --sig->live == 0;
	t->exit_code = status;
	/* what follows is exit's work, whichever call or signal led here (the latency report) */
	t->syscall_nr = __NR_exit_group;
	if (t->tgid == 1 && group_dead) {
		if (init_exit_hook)
			init_exit_hook(task_exit_status(t->group_leader)); /* ends the run */
		kprintf("aslrbench: init exited (status 0x%x)\n",
			task_exit_status(t->group_leader));
		machine_exit(EXIT_FAILED);
	}
	put_files_struct(t->files);
	t->files = 0;
	mm_release(t); /* the robust list; the clear-tid word zeroed and woken */
	vfork_release(t);
	free_fs_struct(t->fs);
	t->fs = 0;
	mm = t->mm;
	t->mm = 0; /* before the tables go, without the big lock */
	mm_put_unlocked(mm);
	t->state = TASK_ZOMBIE;
	/* Found after this task is a zombie: a thread of its own group or another reaper. */
	forget_original_parent(t, find_new_reaper(t));
	/* The group's own process group may lose its last link outside (exit_notify). */
	if (group_dead)
		kill_orphaned_pgrp(t->group_leader, 0);
	/* SIGCHLD; with it ignored (or SA_NOCLDWAIT) nobody waits: do_wait frees the slot. */
	exit_notify(t);
	/* de_thread waits for the other threads to be gone */
	if (sig->group_exit_task)
		wake_up(&sig->group_exit_task);
	schedule();
	for (;;)
		; /* a zombie is never scheduled again */
}

/*
 * do_group_exit (Linux 6.6): the first caller sets the group's exit code
 * and sends SIGKILL to every other thread; each ends with that code, and
 * so does the report of a leader that had already exited on its own.
 */
void do_group_exit(int exit_code)
{
	struct signal_struct *sig = current->signal;

	if (sig->flags & SIGNAL_GROUP_EXIT) {
		exit_code = sig->group_exit_code;
	} else if (sig->group_exit_task) {
		exit_code = 0; /* killed by another thread's exec (de_thread) */
	} else {
		sig->group_exit_code = exit_code;
		sig->flags = SIGNAL_GROUP_EXIT;
		zap_other_threads(current);
	}
	do_exit(exit_code);
}

/*
 * eligible_child and the thread rules of Linux 6.6's do_wait: only group
 * leaders are children (threads are never waited for); __WCLONE selects
 * the children whose exit signal is not SIGCHLD, __WALL both kinds; a
 * child of any thread of the waiter's group counts, unless __WNOTHREAD.
 */
bool wait_eligible_child(const struct task_struct *c, int options)
{
	const struct task_struct *me = current;

	if (c->state == TASK_UNUSED || !c->parent || !thread_group_leader(c))
		return false;
	if (options & __WNOTHREAD ? c->parent != me : !same_thread_group(c->parent, me))
		return false;
	if (((c->exit_signal != SIGCHLD) ^ !!(options & __WCLONE)) && !(options & __WALL))
		return false;
	return true;
}

/* A zombie that can be reaped: a leader whose threads are all gone (delay_group_leader). */
bool wait_zombie_ready(const struct task_struct *c)
{
	return c->state == TASK_ZOMBIE && thread_group_empty(c);
}

/* wait4's wait: WEXITED always, as Linux 6.6's kernel_wait4; the status as wait4 stores it. */
long do_wait(int pid, int options, int *status, uint64_t *utime, uint64_t *stime)
{
	struct wait_opts wo = {
		.type = pid > 0 ? WAIT_PID : WAIT_ALL, .id = pid, .options = options | WEXITED};
	long rc = do_waitid(&wo);

	if (rc <= 0)
		return rc;
	if (status)
		*status = wo.exit_code;
	if (utime)
		*utime = wo.utime;
	if (stime)
		*stime = wo.stime;
	return rc;
}
