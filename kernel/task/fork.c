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
#include "kernel/task/signal.h"
#include "kernel/task/sched.h"
#include "kernel/task/tls.h"
#include "kernel/arch/gdt.h"
#include "kernel/arch/kernel_lock.h"
#include "kernel/arch/timer.h"

void ret_from_fork(void);

/* Lays out a new kernel stack: user registers at the top, then a switch frame. */
void prepare_kernel_stack(struct task_struct *p, const struct trap_frame *regs)
{
	uint64_t top = p->kstack + KSTACK_PAGES * 4096UL, *sp;

	p->regs = (struct trap_frame *)(top - sizeof(struct trap_frame));
	*p->regs = *regs;
	sp = (uint64_t *)p->regs;
	*--sp = (uint64_t)ret_from_fork;
	for (int i = 0; i < 6; i++)
		*--sp = 0; /* rbp, rbx, r12-r15 for __switch_to_asm */
	p->kernel_rsp = (uint64_t)sp;
}

/*
 * Also the flags, as Linux's copy_process: PF_SUPERPRIV is the parent's own,
 * a child has not exec'd, and one with a user address space is no kernel thread.
 */
void copy_creds(struct task_struct *p, const struct task_struct *from)
{
	p->cred = from->cred;
	p->dumpable = from->dumpable;
	p->flags = (from->flags & ~(PF_SUPERPRIV | PF_EXITING | PF_KTHREAD)) | PF_FORKNOEXEC;
}

/*
 * copy_files, copy_fs, copy_sighand, copy_signal (Linux 6.6): with the
 * flag the child shares the caller's structure, without it gets a copy.
 * 0 or -ENOMEM; what was set stays for free_task to put.
 */
int copy_shared_structs(struct task_struct *p, const struct task_struct *from, uint64_t flags)
{
	if (flags & CLONE_FILES) {
		p->files = from->files;
		p->files->count++;
	} else if (!(p->files = dup_fd(from->files))) {
		return -ENOMEM;
	}
	if (flags & CLONE_FS) {
		p->fs = from->fs;
		p->fs->users++;
	} else if (!(p->fs = copy_fs_struct(from->fs))) {
		return -ENOMEM;
	}
	if (flags & CLONE_SIGHAND) {
		p->sighand = from->sighand;
		p->sighand->count++;
	} else if (!(p->sighand = copy_sighand(from->sighand))) {
		return -ENOMEM;
	}
	if (flags & CLONE_THREAD) {
		p->signal = from->signal;
		p->signal->sigcnt++;
	} else if (!(p->signal = copy_signal(from->signal))) {
		return -ENOMEM;
	}
	return 0;
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

/*
 * The child's address space and its canary.  A parent that is its address
 * space's one user has both made without the big kernel lock (mm.c says
 * why that is safe for the copy): they were most of what a fork does, and
 * the lock's part bounds fork from k CPUs at total/held times one CPU's
 * rate (Amdahl; the fork suite's locked column).  The draw goes with them
 * because Linux's dup_task_struct draws under no global lock: from k CPUs
 * at once, a fork meets only the lock its variant's Linux took (2.6.29's
 * urandom pool lock), not this kernel's.  Before the task's slot is
 * taken, so no other CPU meets a task half made (signal and files not
 * yet set).
 */
static struct mm_struct *fork_mm(struct mm_struct *old, uint64_t *canary)
{
	bool held = mm_dup_alone(old) && release_kernel_lock();
	struct mm_struct *mm;
	int rc;

	*canary = canary_for_fork();
	mm = mm_dup_copy(old, &rc);
	reacquire_kernel_lock(held);
	return mm_dup_finish(mm, old, rc);
}

/* What a child inherits of the Linux process ABI (TLS, signal mask, alternate stack). */
static void copy_linux_state(struct task_struct *p, struct task_struct *parent, uint64_t flags)
{
	p->fs_base = parent->fs_base;
	p->gs_base = parent->gs_base;
	copy_user_segments(p, parent); /* copy_thread: selectors, TLS descriptors */
	p->sigmask = parent->sigmask;
	/*
	 * Pending signals are not inherited (alloc_task zeroed them); the
	 * alternate stack is, but not by a task sharing the caller's memory
	 * without vfork, as copy_process: the new thread has its own stack.
	 */
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM) {
		p->sas_ss_sp = parent->sas_ss_sp;
		p->sas_ss_size = parent->sas_ss_size;
	}
}

/*
 * Linux 6.6's copy_process flag rules, checked before anything is
 * allocated: a thread shares the handlers, shared handlers need shared
 * memory.  The caller refused the flags this kernel has no use for.
 */
static long clone_flags_valid(uint64_t flags)
{
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* init's group is SIGNAL_UNKILLABLE: no sibling of it */
	if ((flags & CLONE_PARENT) && current->tgid == 1)
		return -EINVAL;
	return 0;
}

/*
 * The fork family and threads (copy_process, kernel_clone): a
 * copy-on-write copy of the caller, or with CLONE_VM one that shares its
 * address space (vfork: the parent sleeps until the child execs or exits);
 * CLONE_FILES, CLONE_FS, CLONE_SIGHAND share those structures and
 * CLONE_THREAD puts the child in the caller's thread group.  Other flags
 * were refused by the caller.
 */
long do_clone(const struct clone_req *c)
{
	struct task_struct *parent = current, *p;
	struct mm_struct *mm;
	uint64_t flags = c->flags, canary;
	long rc = clone_flags_valid(flags);
	int pid;

	if (rc)
		return rc;
	int tls_idx = 0;
	uint64_t tls_desc = 0;

	/*
	 * set_new_tls (Linux 6.6 arch/x86/kernel/process_64.c): an IA-32 call's
	 * tls is a struct user_desc (do_set_thread_area), a 64-bit call's the FS
	 * base (ARCH_SET_FS's check).  Read before the child exists, so a bad one
	 * fails the clone as copy_thread's error does.
	 */
	if ((flags & CLONE_SETTLS) && c->tls_desc &&
	    (rc = tls_from_user(c->tls, &tls_idx, &tls_desc)))
		return rc;
	if ((flags & CLONE_SETTLS) && !c->tls_desc && c->tls >= TASK_SIZE)
		return -EPERM;
	/*
	 * A full table is -EAGAIN first, as Linux's, not an address space
	 * copied for nothing or one too many (-ENOMEM) in a fork bomb.
	 */
	if (task_table_full())
		return -EAGAIN;
	if (flags & CLONE_VM) {
		canary = canary_for_fork();
		mm = parent->mm;
		__atomic_add_fetch(&mm->users, 1, __ATOMIC_RELAXED);
	} else if (!(mm = fork_mm(parent->mm, &canary))) {
		return -ENOMEM;
	}
	/*
	 * copy_process's "let kill terminate clone/fork in the middle", under
	 * the big lock: once another thread's exit_group or execve has queued
	 * SIGKILL here, no new task may join a group already on its way out
	 * (it would miss the zap and outlive the group, unkillable).
	 */
	if (fatal_signal_pending(parent) || (parent->signal->flags & SIGNAL_GROUP_EXIT)) {
		mm_put(mm);
		return -EINTR;
	}
	if ((rc = alloc_task(&p))) {
		mm_put(mm);
		return rc;
	}
	p->mm = mm;
	if (copy_shared_structs(p, parent, flags)) {
		mm_put(p->mm);
		p->mm = 0;
		free_task(p);
		return -ENOMEM;
	}
	copy_creds(p, parent);
	copy_linux_state(p, parent, flags);
	if (flags & CLONE_CLEAR_SIGHAND) /* copy_sighand: its copy's handlers to SIG_DFL */
		flush_signal_actions(p->sighand);
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	memcpy(p->cmdline, parent->cmdline, sizeof(p->cmdline));
	p->cmdline_len = parent->cmdline_len;
	if (flags & CLONE_THREAD) {
		/* A thread: the caller's group and parent, never waited for (exit_signal -1). */
		p->tgid = parent->tgid;
		p->group_leader = parent->group_leader;
		task_set_parent(p, parent->parent); /* a thread: on no children list */
		p->exit_signal = -1;
		p->signal->nr_threads++;
		p->signal->live++;
	} else if (flags & CLONE_PARENT) {
		task_set_parent(p, parent->group_leader->parent);
		p->exit_signal = parent->group_leader->exit_signal;
	} else {
		task_set_parent(p, parent);
		p->exit_signal = (int)(flags & CSIGNAL);
	}
	p->start_time = jiffies;
	p->stack_canary = canary;
	fpu_copy_current(p);
	prepare_kernel_stack(p, c->regs);
	p->regs->rax = 0; /* the child's return value */
	if (c->newsp)
		p->regs->rsp = c->newsp;
	if ((flags & CLONE_SETTLS) && c->tls_desc)
		p->tls_array[tls_idx - GDT_ENTRY_TLS_MIN] = tls_desc;
	else if (flags & CLONE_SETTLS) {
		p->fs_base = c->tls;
		p->fsindex = 0; /* ARCH_SET_FS: the base, not a selector's */
	}
	pid = p->pid;
	/*
	 * As Linux: SETTID in the child's memory, PARENT_SETTID in the
	 * parent's; a bad pointer is ignored, as put_user's failure is.
	 */
	if (flags & CLONE_CHILD_SETTID)
		mm_put_user(p->mm, c->ctid, &pid, sizeof(pid));
	if (flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = c->ctid;
	if (flags & CLONE_PARENT_SETTID)
		mm_put_user(parent->mm, c->ptid, &pid, sizeof(pid));
	if (flags & CLONE_VFORK)
		p->vfork_parent = parent;
	start_task(p);
	/* wait_for_vfork_done: killable; a parent killed lets go of the child (vfork_done = NULL)
	 */
	while ((flags & CLONE_VFORK) && p->vfork_parent == parent && p->pid == pid) {
		if (fatal_signal_pending(parent)) {
			p->vfork_parent = 0;
			break;
		}
		sleep_on_killable(&p->vfork_parent, (const void *)do_clone);
	}
	return pid;
}

long do_fork(struct trap_frame *regs)
{
	struct clone_req c = {.regs = regs, .flags = SIGCHLD};

	return do_clone(&c);
}

/* exec or exit of a vfork child: its parent may run again. */
void vfork_release(struct task_struct *t)
{
	if (t->vfork_parent) {
		t->vfork_parent = 0;
		wake_up(&t->vfork_parent);
	}
}
