/*
 * The task table.  A fixed array: the limit is part of the design (fork
 * must fail with -EAGAIN when it is full, not exhaust memory), and /proc
 * and ps walk it in pid order.
 */
#include <stddef.h>

#include "kernel/arch/kernel_lock.h"
#include "kernel/task/task.h"
#include "kernel/task/pidmap.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vmm.h"
#include "kernel/lib/string.h"
#include "kernel/lib/errno.h"

struct task_struct tasks[NR_TASKS];
void (*task_file_get)(struct file *f);
void (*task_file_put)(struct file *f);
void (*task_inode_get)(struct inode *ino);
void (*task_inode_put)(struct inode *ino);
static int last_pid;
uint64_t total_forks; /* every task created since boot (Linux's total_forks) */
/*
 * Slots in use (Linux 6.6's nr_threads), for task_table_full's look on
 * every fork; nr_tasks_in_use counts the table itself, as the tests want.
 */
static int nr_threads;

int last_pid_allocated(void)
{
	return last_pid;
}

/* Any slot holding pid, released or not. */
static struct task_struct *find_slot_by_pid(int pid)
{
	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state != TASK_UNUSED && tasks[i].pid == pid)
			return &tasks[i];
	return 0;
}

/*
 * A zombie nobody waits for (an exited thread, or a child of a parent
 * ignoring SIGCHLD) is released in Linux at once (release_task): its pid
 * names nothing any more, though the slot waits here until its kernel
 * stack is off the CPU.
 */
struct task_struct *find_task_by_pid(int pid)
{
	struct task_struct *t = find_slot_by_pid(pid);

	kernel_lock_assert_held("find_task_by_pid");
	return t && !(t->state == TASK_ZOMBIE && t->autoreap) ? t : 0;
}

struct task_struct *next_other_thread(const struct task_struct *t, int *i)
{
	if (thread_group_alone(t))
		return 0;
	while (*i < NR_TASKS) {
		struct task_struct *p = &tasks[(*i)++];

		if (p != t && p->state != TASK_UNUSED && same_thread_group(p, t))
			return p;
	}
	return 0;
}

struct task_struct *find_alive_thread(const struct task_struct *t)
{
	struct task_struct *p;
	int i = 0;

	while ((p = next_other_thread(t, &i)))
		if (p->state != TASK_ZOMBIE)
			return p;
	return 0;
}

/* The pids in use, from a slot's taking to its freeing (pidmap.h). */
static uint64_t pidmap[PID_MAX / 64];

/* /proc/sys/kernel/pid_max: where the search wraps (RESERVED_PIDS + 1 .. PID_MAX). */
int pid_max = PID_MAX;
static bool pids_wrapped; /* the search has wrapped: a free number may be a group's */

/*
 * A number still a process group's or a session's id.  Linux's struct pid
 * lives while a group or session holds it, so the number is not handed out
 * again (alloc_pid); here the slots are walked, only once pids wrapped:
 * before that every free number is above every id in use.
 */
static bool pid_names_a_group(int pid)
{
	for (int i = 0; i < NR_TASKS; i++) {
		const struct task_struct *t = &tasks[i];

		if (t->state != TASK_UNUSED && t->signal &&
		    (t->signal->pgid == pid || t->signal->sid == pid))
			return true;
	}
	return false;
}

static int alloc_pid(void)
{
	for (int tries = 0; tries < PID_MAX; tries++) {
		int pid = pidmap_alloc(pidmap, last_pid, pid_max);

		if (pid <= 0)
			return -1;
		if (pid <= last_pid)
			pids_wrapped = true;
		last_pid = pid;
		if (!pids_wrapped || !pid_names_a_group(pid))
			return pid;
		pidmap_free(pidmap, pid); /* a group's: skipped, free again for later */
	}
	return -1;
}

/*
 * Whether a zombie nobody waits for may be in the table: fork and wait
 * look for them first, and the two scans of every slot cost a
 * fork+exit+wait 977 instructions under the big kernel lock (the fork
 * suite, deterministic), where a parent that waits for its children has
 * none to find.
 */
static bool dead_tasks_pending;

void task_set_autoreap(struct task_struct *t, bool autoreap)
{
	t->autoreap = autoreap;
	if (autoreap)
		dead_tasks_pending = true;
}

/*
 * Zombies nobody will wait for (exited threads, children of a parent
 * ignoring SIGCHLD) go: they are off their CPU for good (a zombie is never
 * scheduled again, and its last switch ended before its CPU gave up the
 * kernel lock this runs under), so their kernel stacks are free.  One
 * still on its CPU, or the caller, waits for the next look.
 */
void release_dead_tasks(void)
{
	kernel_lock_assert_held("release_dead_tasks");
	if (!dead_tasks_pending)
		return;
	dead_tasks_pending = false;
	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *t = &tasks[i];

		if (t->state != TASK_ZOMBIE || !t->autoreap)
			continue;
		if (!t->on_cpu && t != get_current())
			free_task(t);
		else
			dead_tasks_pending = true;
	}
}

/*
 * A slot's fields zeroed, but not its FPU area (the last member): fork,
 * spawn and exec fill it before anything reads it (fpu_copy_current,
 * fpu_init_task), as Linux 6.6's dup_task_struct leaves fpstate to fpu_clone.
 * Nor the siginfo of its pending signals (clear_but_siginfo).  Zeroing
 * those too would add their 5,760 bytes to fork+exit+wait on the
 * deterministic clock, which counts each byte of REP STOSB as an
 * instruction.  Once per slot's life, when it is taken: free_task does not
 * clear it again (832 bytes, under the big kernel lock), since every walk
 * of the table skips an unused slot.
 */
static void clear_task(struct task_struct *t)
{
	clear_but_siginfo(t, offsetof(struct task_struct, fpu), &t->pending);
}

int alloc_task(struct task_struct **out)
{
	kernel_lock_assert_held("alloc_task");
	release_dead_tasks();
	for (int i = 0; i < NR_TASKS; i++) {
		struct task_struct *t = &tasks[i];
		uint64_t stack;
		int pid;

		if (t->state != TASK_UNUSED)
			continue;
		stack = pmm_alloc_pages(KSTACK_PAGES);
		if (!stack)
			return -ENOMEM;
		pid = alloc_pid();
		if (pid < 0) {
			pmm_free_pages(stack, KSTACK_PAGES);
			return -EAGAIN;
		}
		clear_task(t);
		task_init_lists(t);
		t->kstack = (uint64_t)phys_to_virt(stack);
		t->pid = t->tgid = pid;
		t->serial = ++total_forks;
		nr_threads++;
		t->group_leader = t;
		t->exit_signal = SIGCHLD_NR;
		t->dumpable = 1;
		t->state = TASK_INTERRUPTIBLE;		 /* not runnable until set up */
		t->cpus_allowed = current->cpus_allowed; /* fork and spawn inherit the creator's */
		t->nice = current->nice;		 /* as do they its nice (sched_fork) */
		*out = t;
		return 0;
	}
	return -EAGAIN;
}

void task_init_lists(struct task_struct *t)
{
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->sibling);
}

void task_set_parent(struct task_struct *p, struct task_struct *parent)
{
	p->parent = parent;
	list_del_init(&p->sibling);
	if (parent && thread_group_leader(p))
		list_add_tail(&p->sibling, &parent->children);
}

/*
 * release_task's end: the slot, and the group's structures with their last
 * task.  Its children went to a reaper at its exit; one never run has none.
 * Should one be left, it is orphaned rather than left pointing here.
 */
void free_task(struct task_struct *t)
{
	kernel_lock_assert_held("free_task");
	while (!list_empty(&t->children))
		task_set_parent(task_of_sibling(t->children.next), 0);
	list_del_init(&t->sibling);
	put_files_struct(t->files);
	free_fs_struct(t->fs);
	put_sighand(t->sighand);
	put_signal_struct(t->signal);
	if (t->kstack)
		pmm_free_pages(virt_to_phys((void *)t->kstack), KSTACK_PAGES);
	t->kstack = 0;
	pidmap_free(pidmap, t->pid);
	t->state = TASK_UNUSED;
	nr_threads--;
}

int nr_tasks_in_use(void)
{
	int n = 0;

	for (int i = 0; i < NR_TASKS; i++)
		if (tasks[i].state != TASK_UNUSED)
			n++;
	return n;
}

bool task_table_full(void)
{
	if (nr_threads < NR_TASKS)
		return false;
	release_dead_tasks();
	return nr_threads >= NR_TASKS;
}

void task_set_comm(struct task_struct *t, const char *name)
{
	strlcpy(t->comm, name, sizeof(t->comm));
}
