/*
 * fork: a copy of the caller with a copy-on-write address space.
 *
 * As Linux's dup_task_struct does, the child's stack canary is drawn here
 * (2.6.29: get_random_int(); 6.x: get_random_canary(), a u64), so every
 * fork costs one call of the selected RNG variant: that call is what the
 * 2009 argument priced against fork.
 */
#include "common/tsc.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/layout.h"
#include "kernel/char/random.h"
#include "kernel/task/process.h"
#include "kernel/task/sched.h"
#include "kernel/arch/timer.h"

void ret_to_user(void);

/* Lays out a new kernel stack: user registers at the top, then a switch frame. */
void prepare_kernel_stack(struct task_struct *p, const struct trap_frame *regs)
{
	uint64_t top = p->kstack + KSTACK_PAGES * 4096UL, *sp;

	p->regs = (struct trap_frame *)(top - sizeof(struct trap_frame));
	*p->regs = *regs;
	sp = (uint64_t *)p->regs;
	*--sp = (uint64_t)ret_to_user;
	for (int i = 0; i < 6; i++)
		*--sp = 0; /* rbp, rbx, r12-r15 for __switch_to_asm */
	p->kernel_rsp = (uint64_t)sp;
}

void copy_creds(struct task_struct *p, const struct task_struct *from)
{
	p->cred = from->cred;
	p->dumpable = from->dumpable;
}

void dup_files(struct task_struct *p, const struct task_struct *from)
{
	for (int i = 0; i < NR_OPEN; i++) {
		p->files[i] = from->files[i];
		if (p->files[i])
			task_file_get(p->files[i]);
	}
	p->close_on_exec = from->close_on_exec;
	p->umask = from->umask;
	p->cwd = from->cwd;
	if (p->cwd)
		task_inode_get(p->cwd);
}

/*
 * dup_task_struct's canary draw, timed while the fork suite asks for it:
 * the suite (a job, above this layer) installs the hook and removes it once
 * its buffer is full.
 */
void (*fork_rng_sample_hook)(uint32_t cycles);

static uint64_t canary_for_fork(void)
{
	void (*sample)(uint32_t cycles) = fork_rng_sample_hook;
	uint64_t t0, t1, v;

	if (!sample)
		return get_random_canary();
	t0 = tsc_start_lfence();
	v = get_random_canary();
	t1 = tsc_stop_lfence();
	sample((uint32_t)(t1 - t0));
	return v;
}

/* What a child inherits of the Linux process ABI (TLS, limits, session, signals). */
static void copy_linux_state(struct task_struct *p, const struct task_struct *parent)
{
	p->fs_base = parent->fs_base;
	p->gs_base = parent->gs_base;
	p->rlim_stack_cur = parent->rlim_stack_cur;
	p->rlim_stack_max = parent->rlim_stack_max;
	p->pgid = parent->pgid;
	p->sid = parent->sid;
	p->sigmask = parent->sigmask;
	memcpy(p->sigaction, parent->sigaction, sizeof(p->sigaction));
	/* Pending signals are not inherited (alloc_task zeroed them); the alternate stack is. */
	p->sas_ss_sp = parent->sas_ss_sp;
	p->sas_ss_size = parent->sas_ss_size;
}

/*
 * The fork family (copy_process): a copy-on-write copy of the caller, or
 * with CLONE_VM one that shares its address space (vfork: the parent
 * sleeps until the child execs or exits).  Other clone flags were refused
 * by the caller.
 */
long do_clone(struct trap_frame *regs, uint64_t flags, uint64_t newsp, uint64_t ptid, uint64_t ctid)
{
	struct task_struct *parent = current, *p;
	int rc = alloc_task(&p), pid;

	if (rc)
		return rc;
	if (flags & CLONE_VM) {
		p->mm = parent->mm;
		p->mm->users++;
	} else {
		p->mm = mm_dup(parent->mm);
	}
	if (!p->mm) {
		free_task(p);
		return -ENOMEM;
	}
	copy_creds(p, parent);
	dup_files(p, parent);
	copy_linux_state(p, parent);
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	memcpy(p->cmdline, parent->cmdline, sizeof(p->cmdline));
	p->cmdline_len = parent->cmdline_len;
	p->parent = parent;
	p->start_time = jiffies;
	p->stack_canary = canary_for_fork();
	fpu_copy_current(p);
	prepare_kernel_stack(p, regs);
	p->regs->rax = 0; /* the child's return value */
	if (newsp)
		p->regs->rsp = newsp;
	pid = p->pid;
	/* As Linux: SETTID in the child's memory, PARENT_SETTID in the parent's. */
	if ((flags & CLONE_CHILD_SETTID) && mm_put_user(p->mm, ctid, &pid, sizeof(pid)) < 0)
		ctid = 0; /* a bad pointer is ignored, as put_user's failure is */
	if (flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = ctid;
	if (flags & CLONE_PARENT_SETTID)
		mm_put_user(parent->mm, ptid, &pid, sizeof(pid));
	if (flags & CLONE_VFORK)
		p->vfork_parent = parent;
	start_task(p);
	while ((flags & CLONE_VFORK) && p->vfork_parent == parent && p->pid == pid)
		sleep_on(&p->vfork_parent, (const void *)do_clone);
	return pid;
}

long do_fork(struct trap_frame *regs)
{
	return do_clone(regs, 0, 0, 0, 0);
}

/* exec or exit of a vfork child: its parent may run again. */
void vfork_release(struct task_struct *t)
{
	if (t->vfork_parent) {
		t->vfork_parent = 0;
		wake_up(&t->vfork_parent);
	}
}
