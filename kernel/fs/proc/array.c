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
#include "kernel/lib/string.h"
#include "kernel/lib/vsprintf.h"
#include "kernel/mm/mm.h"
#include "kernel/security/ptrace.h"
#include "kernel/task/nice.h"

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

long proc_pid_stat(struct task_struct *task, char *buf)
{
	struct task_stat_fields f;
	struct mm_struct *mm = task->mm;
	bool permitted = !proc_leak_fix || ptrace_may_access(task, PTRACE_MODE_READ);
	uint64_t ut, st;
	int n;

	memset(&f, 0, sizeof(f));
	f.pid = task->pid;
	memcpy(f.comm, task->comm, sizeof(f.comm));
	f.state = task_state_char(task);
	f.ppid = task->parent ? task->parent->tgid : 0;
	f.pgid = f.sid = 1; /* one session, led by init */
	f.tty_pgrp = -1;
	f.min_flt = task->min_flt;
	f.maj_flt = task->maj_flt;
	/*
	 * do_task_stat: the process's file (whole) sums its threads, gone ones
	 * too; a thread's its own.  /proc/<tid> of a thread is its
	 * task/<tid> directory here (task.c), so the leader's file is the
	 * whole one and every other thread's its own.  cutime and cstime are
	 * the process's in both, as Linux's.
	 */
	if (thread_group_leader(task)) {
		thread_group_cputime(task, &ut, &st);
	} else {
		ut = task->utime;
		st = task->stime;
	}
	f.utime = jiffies_to_clock_t(ut);
	f.stime = jiffies_to_clock_t(st);
	f.cutime = jiffies_to_clock_t(task->signal->cutime);
	f.cstime = jiffies_to_clock_t(task->signal->cstime);
	/* task_prio: prio - MAX_RT_PRIO, 120 + nice - 100 for a normal task */
	f.priority = 20 + task_nice(task);
	f.nice = task_nice(task);
	f.num_threads = task->signal->nr_threads;
	/* since boot, as Linux's nsec_to_clock_t(start_time) */
	f.start_time = jiffies_to_clock_t(task->start_time - initial_jiffies);
	f.rsslim = ~0UL;
	f.exit_signal = task->exit_signal;
	f.processor = (int)task->cpu; /* task_cpu(task) */
	if (mm) {
		f.vsize = task_vsize(mm);
		f.rss = mm->rss_pages;
		f.start_code = mm->start_code;
		f.end_code = mm->end_code;
		if (permitted) {
			f.start_stack = mm->start_stack;
			f.kstkeip = task->regs ? task->regs->rip : 0;
			f.kstkesp = task->regs ? task->regs->rsp : 0;
		}
	}
	if (permitted)
		f.wchan = task->state == TASK_INTERRUPTIBLE || task->state == TASK_STOPPED
				  ? (uint64_t)task->wchan
				  : 0;
	n = format_task_stat(buf, PROC_BUF, &f);
	return n < PROC_BUF ? n : PROC_BUF - 1;
}

long proc_pid_status(struct task_struct *task, char *buf)
{
	/* enum task_state's order; Linux's task_state_array names */
	static const char *const states[] = {"X (dead)", "R (running)", "S (sleeping)",
					     "Z (zombie)", "T (stopped)"};
	struct mm_struct *mm = task->mm;
	uint64_t vm = mm ? task_vsize(mm) / 1024 : 0, rss = mm ? mm->rss_pages * 4 : 0;
	int n;

	n = ksnprintf(buf, PROC_BUF,
		      "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
		      "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nFDSize:\t%d\nGroups:\t\n",
		      task->comm, states[(unsigned)task->state < 5 ? task->state : 0], task->tgid,
		      task->pid, task->parent ? task->parent->tgid : 0, task->cred.uid,
		      task->cred.euid, task->cred.suid, task->cred.fsuid, task->cred.gid,
		      task->cred.egid, task->cred.sgid, task->cred.fsgid, NR_OPEN);
	if (mm)
		n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
			       "VmPeak:\t%8lu kB\nVmSize:\t%8lu kB\nVmRSS:\t%8lu kB\n", vm, vm,
			       rss);
	n += ksnprintf(buf + n, PROC_BUF - (size_t)n,
		       "Threads:\t%d\nCapInh:\t0000000000000000\nCapPrm:\t%016lx\n"
		       "CapEff:\t%016lx\nCapBnd:\tffffffffffffffff\n",
		       task->signal->nr_threads, task->cred.cap_effective,
		       task->cred.cap_effective);
	return n < PROC_BUF ? n : PROC_BUF - 1;
}
