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
 * Linux's find_new_reaper (3.4+): the nearest ancestor that called
 * prctl(PR_SET_CHILD_SUBREAPER), else init.
 */
static struct task_struct *find_new_reaper(struct task_struct *t)
{
	int depth = 0;

	/* At most NR_TASKS ancestors: a cycle (a bug) ends the walk at init, not in a hang. */
	for (struct task_struct *p = t->parent; p && depth < NR_TASKS; p = p->parent, depth++)
		if (p->child_subreaper && p->state != TASK_ZOMBIE)
			return p;
	return find_task_by_pid(1);
}

void (*init_exit_hook)(int status);

void do_exit(int status)
{
	struct task_struct *t = current, *init = find_new_reaper(t);

	/* what follows is exit's work, whichever call or signal led here (the latency report) */
	t->syscall_nr = __NR_exit_group;
	if (t->pid == 1 && init_exit_hook)
		init_exit_hook(status); /* ends the run */
	if (t->pid == 1) {
		kprintf("aslrbench: init exited (status 0x%x)\n", status);
		machine_exit(EXIT_FAILED);
	}
	for (int i = 0; i < NR_OPEN; i++) {
		if (t->files[i])
			task_file_put(t->files[i]);
		t->files[i] = 0;
	}
	mm_release(t); /* the robust list; the clear-tid word zeroed and woken */
	vfork_release(t);
	t->close_on_exec = 0;
	if (t->cwd)
		task_inode_put(t->cwd);
	t->cwd = 0;
	mm_put(t->mm);
	t->mm = 0;
	for (int i = 0; i < NR_TASKS; i++) {
		/*
		 * A vfork parent sleeps until its child execs or exits, so it
		 * cannot exit first; should it ever, the child keeps no pointer
		 * to the slot it leaves.
		 */
		if (tasks[i].vfork_parent == t)
			tasks[i].vfork_parent = 0;
		if (tasks[i].state != TASK_UNUSED && tasks[i].parent == t) {
			tasks[i].parent = init;
			if (tasks[i].state == TASK_ZOMBIE && init)
				wake_up(init);
		}
	}
	t->exit_code = status;
	t->state = TASK_ZOMBIE;
	/* SIGCHLD; with it ignored (or SA_NOCLDWAIT) nobody waits: do_wait frees the slot. */
	t->autoreap = do_notify_parent(t);
	if (t->parent)
		wake_up(t->parent);
	schedule();
	for (;;)
		; /* a zombie is never scheduled again */
}

long do_wait(int pid, int options, int *status, uint64_t *utime, uint64_t *stime)
{
	struct task_struct *me = current;

	/*
	 * Every child here is a fork/spawn child (exit signal SIGCHLD), so as
	 * Linux's eligible_child: __WCLONE alone selects none, __WALL all.
	 */
	bool none = (options & __WCLONE) && !(options & __WALL);

	for (;;) {
		bool have_child = false;

		for (int i = 0; i < NR_TASKS; i++) {
			struct task_struct *c = &tasks[i];
			long cpid;

			if (c->state == TASK_UNUSED || c->parent != me)
				continue;
			/* Not a child to wait for any more (Linux's exit_signal = -1 release). */
			if (c->state == TASK_ZOMBIE && c->autoreap) {
				free_task(c);
				continue;
			}
			if (pid > 0 && c->pid != pid)
				continue;
			if (none)
				continue;
			have_child = true;
			if (c->state != TASK_ZOMBIE)
				continue;
			cpid = c->pid;
			if (status)
				*status = c->exit_code;
			if (utime)
				*utime = c->utime;
			if (stime)
				*stime = c->stime;
			free_task(c);
			return cpid;
		}
		if (!have_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (signal_pending(me))
			return -ERESTARTSYS;
		sleep_on_interruptible(me, 0, (const void *)do_wait);
	}
}
