/*
 * /proc/<pid>/stat and /proc/<pid>/status, after fs/proc/array.c.
 *
 * do_task_stat carries the 2009 patch: a reader that fails
 * ptrace_may_access(task, PTRACE_MODE_READ) sees 0 for kstkeip, kstkesp,
 * wchan and startstack, the four values that reveal where the target's
 * code and stack are.  With proc_leak_fix=0 the check is skipped, as in
 * 2.6.29 before the patch, so the leak can be shown.
 */
#include "kernel/arch/timer.h"
#include "kernel/fs/proc/internal.h"
#include "kernel/fs/proc/stat_format.h"
#include "kernel/lib/compiler.h"
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/arch/smpboot.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/vmm.h"
#include "kernel/security/ptrace.h"
#include "kernel/task/nice.h"
#include "kernel/task/signal.h"

static char task_state_char(const struct task_struct *t)
{
	switch (t->state) {
	case TASK_RUNNING:
		return 'R';
	case TASK_ZOMBIE:
		return 'Z';
	case TASK_STOPPED:
		return 'T';
	default:
		return 'S';
	}
}

static uint64_t task_vsize(const struct mm_struct *mm)
{
	uint64_t v = 0;

	for (int i = 0; i < mm->nvmas; i++)
		v += mm->vmas[i].end - mm->vmas[i].start;
	return v;
}

/* collect_sigign_sigcatch: the actions that ignore a signal, and those that catch one. */
static void sig_ign_catch(const struct task_struct *t, uint64_t *ign, uint64_t *catch)
{
	*ign = *catch = 0;
	for (int i = 0; i < NSIG_LINUX && i < 64; i++) {
		uint64_t h = t->sighand->action[i].handler;

		if (h == SIG_IGN_HANDLER)
			*ign |= 1ULL << i;
		else if (h != SIG_DFL_HANDLER)
			*catch |= 1ULL << i;
	}
}

/*
 * The fields both versions share.  2.6.29 after the 2009 patch hides
 * kstkeip, kstkesp, wchan and startstack from a reader that fails the
 * check; 6.12 also shows such a reader 1 for start_code and end_code (3.18
 * on), never shows kstkeip and kstkesp but of an exiting task (4.9), and
 * prints wchan as a 0/1 flag (4.4), 0 for a whole multi-threaded process.
 */
static void stat_fields(struct task_struct *task, bool permitted, bool v612,
			struct task_stat_fields *f)
{
	struct mm_struct *mm = task->mm;
	bool whole = thread_group_leader(task), asleep = task->state != TASK_RUNNING;
	uint64_t ut, st;

	f->pid = task->pid;
	memcpy(f->comm, task->comm, sizeof(f->comm));
	f->state = task_state_char(task);
	f->ppid = task->parent ? task->parent->tgid : 0;
	f->pgid = task->signal->pgid;
	f->sid = task->signal->sid;
	f->tty_pgrp = -1;
	f->flags = task->flags;
	f->min_flt = task->min_flt;
	f->maj_flt = task->maj_flt;
	/*
	 * do_task_stat: the process's file (whole) sums its threads, gone ones
	 * too; a thread's its own.  /proc/<tid> of a thread is its
	 * task/<tid> directory here (task.c), so the leader's file is the
	 * whole one and every other thread's its own.  cutime and cstime are
	 * the process's in both, as Linux's.
	 */
	if (whole) {
		thread_group_cputime(task, &ut, &st);
	} else {
		ut = READ_ONCE(task->utime); /* its CPU's tick writes them lockless */
		st = READ_ONCE(task->stime);
	}
	f->utime = jiffies_to_clock_t(ut);
	f->stime = jiffies_to_clock_t(st);
	f->cutime = jiffies_to_clock_t(task->signal->cutime);
	f->cstime = jiffies_to_clock_t(task->signal->cstime);
	/* task_prio: prio - MAX_RT_PRIO, 120 + nice - 100 for a normal task */
	f->priority = 20 + task_nice(task);
	f->nice = task_nice(task);
	f->num_threads = task->signal->nr_threads;
	/* since boot, as Linux's nsec_to_clock_t(start_time) */
	f->start_time = jiffies_to_clock_t(task->start_time - initial_jiffies);
	f->rsslim = ~0UL;
	f->sig_pending = task->pending.signal;
	f->sig_blocked = task->sigmask;
	sig_ign_catch(task, &f->sig_ignored, &f->sig_caught);
	f->exit_signal = task->exit_signal;
	f->processor = (int)task->cpu; /* task_cpu(task) */
	if (mm) {
		f->vsize = task_vsize(mm);
		f->rss = mm->rss_pages;
		f->start_code = permitted || !v612 ? mm->start_code : 1;
		f->end_code = permitted || !v612 ? mm->end_code : 1;
		f->start_stack = permitted ? mm->start_stack : 0;
	}
	if (v612) {
		f->wchan = permitted && (!whole || f->num_threads < 2) && asleep;
		return;
	}
	if (permitted) {
		f->wchan = task->state == TASK_INTERRUPTIBLE || task->state == TASK_STOPPED
				   ? (uint64_t)task->wchan
				   : 0;
		if (mm && task->regs) {
			f->kstkeip = task->regs->rip;
			f->kstkesp = task->regs->rsp;
		}
	}
}

/* 6.12's eight fields more: the data, brk and argument bounds to a permitted reader, exit_code. */
static void stat_fields_612(struct task_struct *task, bool permitted, struct task_stat_fields *f)
{
	struct mm_struct *mm = task->mm;
	int exit_code = task->exit_code;

	f->fields52 = true;
	if (!permitted)
		return;
	if (mm && (task->flags & PF_EXITING) && task->regs) {
		f->kstkeip = task->regs->rip;
		f->kstkesp = task->regs->rsp;
	}
	if (mm) {
		f->start_data = mm->start_data;
		f->end_data = mm->end_data;
		f->start_brk = mm->start_brk;
		f->arg_start = mm->arg_start;
		f->arg_end = mm->arg_end;
		f->env_start = mm->env_start;
		f->env_end = mm->env_end;
	}
	if (thread_group_leader(task) &&
	    (task->signal->flags & (SIGNAL_GROUP_EXIT | SIGNAL_STOP_STOPPED)))
		exit_code = task->signal->group_exit_code;
	f->exit_code = exit_code;
}

long proc_pid_stat(struct task_struct *task, char *buf)
{
	struct task_stat_fields f;
	bool permitted = !proc_leak_fix || ptrace_may_access(task, PTRACE_MODE_READ);
	bool v612 = proc_abi_612();
	int n;

	memset(&f, 0, sizeof(f));
	stat_fields(task, permitted, v612, &f);
	if (v612)
		stat_fields_612(task, permitted, &f);
	n = format_task_stat(buf, PROC_BUF, &f);
	return n < PROC_BUF ? n : PROC_BUF - 1;
}

/* get_task_state: enum task_state's order, Linux's task_state_array names */
static const char *task_state_name(const struct task_struct *t)
{
	static const char *const states[] = {"X (dead)", "R (running)", "S (sleeping)",
					     "Z (zombie)", "T (stopped)"};

	return states[(unsigned)t->state < 5 ? t->state : 0];
}

/* 2.6.29's proc_pid_status, the lines this kernel has. */
static long status_2629(struct task_struct *task, char *buf)
{
	struct mm_struct *mm = task->mm;
	uint64_t vm = mm ? task_vsize(mm) / 1024 : 0, rss = mm ? mm->rss_pages * 4 : 0;
	int n;

	n = ksnprintf(buf, PROC_BUF,
		      "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
		      "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nFDSize:\t%d\nGroups:\t\n",
		      task->comm, task_state_name(task), task->tgid, task->pid,
		      task->parent ? task->parent->tgid : 0, task->cred.uid, task->cred.euid,
		      task->cred.suid, task->cred.fsuid, task->cred.gid, task->cred.egid,
		      task->cred.sgid, task->cred.fsgid, NR_OPEN);
	if (mm)
		n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
			       "VmPeak:\t%8lu kB\nVmSize:\t%8lu kB\nVmRSS:\t%8lu kB\n", vm, vm,
			       rss);
	n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
		       "Threads:\t%d\nCapInh:\t0000000000000000\nCapPrm:\t%016lx\n"
		       "CapEff:\t%016lx\nCapBnd:\tffffffffffffffff\n",
		       task->signal->nr_threads, task->cred.cap_effective,
		       task->cred.cap_effective);
	return n;
}

/* vm_stat_account's split of an mm's pages: exec, stack and private writable data. */
struct vm_split {
	uint64_t total, exec, stack, data;
};

static void vm_split(const struct mm_struct *mm, struct vm_split *v)
{
	memset(v, 0, sizeof(*v));
	for (int i = 0; i < mm->nvmas; i++) {
		const struct vm_area *a = &mm->vmas[i];
		uint64_t len = a->end - a->start;
		bool stack = a->kind == VMA_STACK;

		v->total += len;
		if ((a->flags & (VM_EXEC | VM_WRITE)) == VM_EXEC && !stack)
			v->exec += len;
		else if (stack)
			v->stack += len;
		else if ((a->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE)
			v->data += len;
	}
}

/* task_mem's and statm's text: the code's pages, whole */
static uint64_t code_bytes(const struct mm_struct *mm)
{
	return page_align(mm->end_code) - (mm->start_code & ~(PAGE_SIZE - 1));
}

/*
 * statm, as proc_pid_statm in 2.6.29 and 6.12 (fs/proc/array.c): pages of
 * the whole space, resident, shared (file-backed: none, every page here is
 * anonymous), the code, 0, data plus stack, 0.
 */
long proc_pid_statm(struct task_struct *task, char *buf)
{
	struct mm_struct *mm = task->mm;
	struct vm_split v;

	if (!mm)
		return ksnprintf(buf, PROC_BUF, "0 0 0 0 0 0 0\n");
	vm_split(mm, &v);
	return ksnprintf(buf, PROC_BUF, "%lu %lu 0 %lu 0 %lu 0\n", v.total / PAGE_SIZE,
			 mm->rss_pages, code_bytes(mm) / PAGE_SIZE, (v.data + v.stack) / PAGE_SIZE);
}

/* mm_pgtables_bytes: the page-table pages below the user half's PML4 entries. */
static uint64_t pgtables_bytes(const struct mm_struct *mm)
{
	const uint64_t *pml4 = phys_to_virt(mm->pml4);
	uint64_t pages = 0;

	for (int i = 0; i < 256; i++) {
		const uint64_t *pdpt;

		if (!(pml4[i] & PTE_P))
			continue;
		pages++;
		pdpt = phys_to_virt(pml4[i] & PTE_ADDR);
		for (int j = 0; j < 512; j++) {
			const uint64_t *pd;

			if (!(pdpt[j] & PTE_P) || (pdpt[j] & PTE_PS))
				continue;
			pages++;
			pd = phys_to_virt(pdpt[j] & PTE_ADDR);
			for (int k = 0; k < 512; k++)
				pages += (pd[k] & PTE_P) && !(pd[k] & PTE_PS);
		}
	}
	return pages * PAGE_SIZE;
}

/* task_mem: the address space in kB; every page here is anonymous memory. */
static int status_mem_612(const struct mm_struct *mm, char *buf, int n)
{
	struct vm_split v;
	uint64_t rss = mm->rss_pages * 4, text, lib;

	vm_split(mm, &v);
	text = code_bytes(mm);
	text = text < v.exec ? text : v.exec;
	lib = v.exec - text;
	return ksnprintf(
		buf + n, PROC_BUF - (size_t)n,
		"VmPeak:\t%8lu kB\nVmSize:\t%8lu kB\nVmLck:\t%8u kB\nVmPin:\t%8u kB\n"
		"VmHWM:\t%8lu kB\nVmRSS:\t%8lu kB\nRssAnon:\t%8lu kB\nRssFile:\t%8u kB\n"
		"RssShmem:\t%8u kB\nVmData:\t%8lu kB\nVmStk:\t%8lu kB\nVmExe:\t%8lu kB\n"
		"VmLib:\t%8lu kB\nVmPTE:\t%8lu kB\nVmSwap:\t%8u kB\nHugetlbPages:\t%8u kB\n"
		"CoreDumping:\t0\nTHP_enabled:\t1\nuntag_mask:\t0xffffffffffffffff\n",
		v.total >> 10, v.total >> 10, 0, 0, rss, rss, rss, 0, 0, v.data >> 10,
		v.stack >> 10, text >> 10, lib >> 10, pgtables_bytes(mm) >> 10, 0, 0);
}

/* task_cpus_allowed and cpuset_task_status_allowed: one NUMA node of MAX_NUMNODES (1024). */
static int status_cpus_612(const struct task_struct *task, char *buf, int n)
{
	uint64_t mask =
		task->cpus_allowed & ((smp_cpus_online < 64 ? 1ULL << smp_cpus_online : 0) - 1);
	int first = -1, last = -1;

	n += ksnprintf(buf + n, PROC_BUF - (size_t)n, "Cpus_allowed:\t%lx\nCpus_allowed_list:\t",
		       mask);
	/* bitmap_print_to_pagebuf's list form: ranges a-b, separated by commas */
	for (int cpu = 0; cpu <= 64; cpu++) {
		bool set = cpu < 64 && ((mask >> cpu) & 1);

		if (set && first < 0)
			first = cpu;
		if (set)
			last = cpu;
		if (!set && first >= 0) {
			n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
				       first == last ? "%s%d" : "%s%d-%d",
				       buf[n - 1] == '\t' ? "" : ",", first, last);
			first = -1;
		}
	}
	n += ksnprintf(buf + n, PROC_BUF - (size_t)n, "\nMems_allowed:\t");
	for (int i = 0; i < 31; i++)
		n += ksnprintf(buf + n, PROC_BUF - (size_t)n, "00000000,");
	return n + ksnprintf(buf + n, PROC_BUF - (size_t)n, "00000001\nMems_allowed_list:\t0\n");
}

/*
 * Linux 6.12's proc_pid_status, line for line: what this kernel has no
 * counterpart of (NUMA, seccomp, memory locking, swap, context-switch
 * counts) reads as a 6.12 boot with nothing of it in use shows it.
 * SigQ counts the signals pending for the task (one per signal, as this
 * kernel queues them) against RLIMIT_SIGPENDING, unlimited here.
 */
static long status_612(struct task_struct *task, char *buf)
{
	const struct cred *c = &task->cred;
	uint64_t ign, caught;
	int n;

	n = ksnprintf(buf, PROC_BUF, "Name:\t%s\n", task->comm);
	if (task->fs)
		n += ksnprintf(buf + n, PROC_BUF - (size_t)n, "Umask:\t%04o\n", task->fs->umask);
	n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
		       "State:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
		       "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nFDSize:\t%d\nGroups:\t \n"
		       "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\nKthread:\t%c\n",
		       task_state_name(task), task->tgid, task->pid,
		       task->parent ? task->parent->tgid : 0, c->uid, c->euid, c->suid, c->fsuid,
		       c->gid, c->egid, c->sgid, c->fsgid, task->files ? NR_OPEN : 0, task->tgid,
		       task->pid, task->signal->pgid, task->signal->sid,
		       task->flags & PF_KTHREAD ? '1' : '0');
	if (task->mm)
		n += status_mem_612(task->mm, buf, n);
	sig_ign_catch(task, &ign, &caught);
	n += ksnprintf(
		buf + n, PROC_BUF - (size_t)n,
		"Threads:\t%d\nSigQ:\t%d/%lu\nSigPnd:\t%016lx\nShdPnd:\t%016lx\n"
		"SigBlk:\t%016lx\nSigIgn:\t%016lx\nSigCgt:\t%016lx\n"
		"CapInh:\t0000000000000000\nCapPrm:\t%016lx\nCapEff:\t%016lx\n"
		"CapBnd:\t%016lx\nCapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\n"
		"Seccomp_filters:\t0\nSpeculation_Store_Bypass:\tnot vulnerable\n"
		"SpeculationIndirectBranch:\talways enabled\n",
		task->signal->nr_threads,
		__builtin_popcountll(task->pending.signal | task->signal->shared_pending.signal),
		(uint64_t)RLIM_INFINITY_K, task->pending.signal,
		task->signal->shared_pending.signal, task->sigmask, ign, caught, c->cap_effective,
		c->cap_effective, (uint64_t)CAP_FULL_SET);
	n = status_cpus_612(task, buf, n);
	n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
		       "voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n"
		       "x86_Thread_features:\t\nx86_Thread_features_locked:\t\n");
	return n;
}

long proc_pid_status(struct task_struct *task, char *buf)
{
	long n = proc_abi_612() ? status_612(task, buf) : status_2629(task, buf);

	return n < PROC_BUF ? n : PROC_BUF - 1;
}
