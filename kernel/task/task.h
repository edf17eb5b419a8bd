/*
 * struct task_struct: one process (or the idle/boot context).  Names follow
 * Linux so the /proc code reads like fs/proc/array.c.
 */
#ifndef KERNEL_TASK_TASK_H
#define KERNEL_TASK_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/arch/traps.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/xstate.h"
#include "kernel/task/cred.h"
#include "kernel/task/fdtable.h"
#include "kernel/task/sched_signal.h"
#include "kernel/lib/list.h"
#include "kernel/lib/threads.h"
#include "kernel/uapi/aslrbench.h" /* CAP_* */
#include "kernel/uapi/signal.h"	   /* struct kernel_sigaction */

#define TASK_COMM_LEN 16
#define TASK_CMDLINE  256
#define KSTACK_PAGES  4

enum task_state {
	TASK_UNUSED = 0,
	TASK_RUNNING,	    /* runnable or on the CPU ("R") */
	TASK_INTERRUPTIBLE, /* sleeping ("S") */
	TASK_ZOMBIE,	    /* exited, waiting for its parent ("Z") */
	TASK_STOPPED,	    /* group stop: only SIGCONT or SIGKILL wakes it ("T") */
};

struct mm_struct;
struct file;
struct inode;

/*
 * Linux's task->flags bits (include/linux/sched.h, the same values in 2.6.29
 * and 6.12) that this kernel sets, for /proc/<pid>/stat's flags field.
 */
#define PF_EXITING    0x00000004 /* do_exit has begun */
#define PF_FORKNOEXEC 0x00000040 /* forked, not yet exec'd */
#define PF_SUPERPRIV  0x00000100 /* capable() granted a capability */
#define PF_KTHREAD    0x00200000 /* no user address space */
#define PF_RANDOMIZE  0x00400000 /* exec randomised its layout (randomize_va_space) */

#define SIGCHLD_NR	   17 /* the exit signal of a fork child */
#define SIG_DFL_HANDLER	   0
#define SIG_IGN_HANDLER	   1
#define RLIM_STACK_DEFAULT (8ULL << 20) /* _STK_LIM */
#define RLIM_INFINITY_K	   (~0ULL)

/*
 * One thread.  A process is a thread group: the tasks sharing one
 * signal_struct, named by the leader's pid (tgid).  What threads share sits
 * behind the pointers files, fs, sighand and signal (fdtable.h,
 * sched_signal.h).
 *
 * The locking contract (kernel/arch/kernel_lock.h's tags) is given per
 * group below; a field without its own tag has its group's.  The table
 * slots themselves (tasks[], a slot's state TASK_UNUSED) are [BKL]:
 * alloc_task, free_task and find_task_by_pid assert it.
 */
struct task_struct {
	/* [BKL] Identity and family: set at fork, changed by exec (de_thread) and reparenting. */
	int pid;	 /* the thread id (gettid) */
	uint64_t serial; /* the task's number since boot: a /proc file names its task by it */
	int tgid;	 /* the group leader's pid (getpid) */
	struct task_struct *group_leader;
	struct task_struct *parent; /* real_parent: for a thread, its leader's */
	/*
	 * Linux 6.6's children and sibling: the group leaders whose parent
	 * this task is, in the order they came (forked, spawned or
	 * reparented), and this task's link in its parent's list (a thread
	 * is on none).  Exit and wait walk these, not the task table.
	 */
	struct list_head children;
	struct list_head sibling;
	int exit_signal; /* sent to the parent at exit; -1 for a thread (never waited) */
	char comm[TASK_COMM_LEN];
	enum task_state state;
	bool kthread; /* no user address space (the idle task) */

	/* [BKL] Credentials and flags: /proc and ptrace_may_access read them from other tasks. */
	struct cred cred;
	unsigned int flags;    /* PF_* below: the bits of Linux's task->flags this kernel keeps */
	int dumpable;	       /* 1 normally; 0 after a set-id change or prctl */
	unsigned int fail_nth; /* /proc/<pid>/fail-nth: this many allocations on, one fails */

	uint64_t start_time;   /* [BKL] jiffies at fork/spawn */
	uint64_t utime, stime; /* [self] ticks in user / kernel mode: its CPU's tick, lockless */
	uint64_t min_flt, maj_flt; /* [self] its own faults (an unlocked fault counts too) */

	/* [self] Kernel stack; the user registers sit at its top while in the kernel. */
	uint64_t kstack;	 /* lowest address */
	uint64_t kernel_rsp;	 /* saved by switch_to */
	struct trap_frame *regs; /* user registers: KSTK_EIP/KSTK_ESP read them */

	/* [BKL] Sleeping: set by the task as it sleeps, read and cleared by its wakers. */
	const void *wchan;	/* where it sleeps: a kernel function's address */
	const void *sleep_chan; /* what wakes it */
	uint64_t sleep_until;	/* jiffies, for nanosleep; 0 = not timed */

	struct mm_struct *mm;  /* [BKL] to change; its own CPU reads it lockless (faults) */
	uint64_t stack_canary; /* [BKL] drawn at fork, read at every switch to it */
	int exit_code;	       /* [BKL] wait4 status encoding */
	/*
	 * [BKL] to set, with WRITE_ONCE (set_need_resched, from any CPU); the
	 * task reads it with READ_ONCE on its way to ring 3, maybe lockless.
	 */
	bool need_resched;
	uint64_t resched_since; /* jiffies when need_resched was last set while clear */
	unsigned syscall_nr;	/* the system call it entered last (the latency report) */
	/*
	 * [BKL] Scheduling (rq.c, with interrupts off too: its enqueue and
	 * dequeue assert both).  on_cpu and cpu are read lockless by
	 * kick_process's IPI choice, which a stale value only delays.
	 */
	bool woken;  /* woken from a sleep since it last ran: runs first */
	bool on_cpu; /* a CPU runs it now (Linux's p->on_cpu) */
	bool on_rq;  /* on run queue rq_cpu, waiting for its turn (rq.c) */
	unsigned int rq_cpu;
	struct task_struct *rq_next;
	unsigned int cpu;	  /* the CPU it runs or ran last (task_cpu) */
	uint64_t cpus_allowed;	  /* the CPUs it may run on, a bit each (cpus_mask) */
	int nice;		  /* -20 .. 19 (nice.c): its weight in rq.c */
	unsigned int rq_weight;	  /* its weight in its queue's load while queued */
	int64_t sched_credit;	  /* weighted ticks it may still run (rq.c), nice != 0 */
	uint64_t slice_start;	  /* jiffies when its turn began */
	unsigned int slice_ticks; /* how long its turn lasts (rq.c's turn_ticks) */
	uint64_t runnable_since;  /* jiffies when it last became runnable, 0 while it runs */
	bool sig_wakeable;	  /* in sleep_on_interruptible: a signal ends the sleep */
	bool kill_wakeable;	  /* in sleep_on_killable: a fatal signal ends the sleep */
	unsigned long jobctl;	  /* JOBCTL_* (sched_signal.h): its part in a group stop */

	/*
	 * [BKL] The Linux process ABI (kernel/syscall/sys_linux.c, sys_clone.c):
	 * the task's own, but switched, and read by /proc from other tasks.
	 */
	uint64_t fs_base, gs_base; /* arch_prctl: loaded at every switch to this task */
	/*
	 * IA-32 compatibility (kernel/task/tls.c).  ia32: an ELFCLASS32 program
	 * runs (Linux's TIF_ADDR32 with TS_COMPAT: 32-bit layout and ABI).  The
	 * user's segment selectors (thread.ds/es/fsindex/gsindex) and its three
	 * GDT TLS descriptors (thread.tls_array, set_thread_area): saved and
	 * loaded at every switch, as Linux 6.6's __switch_to.
	 */
	bool ia32;
	uint16_t ds, es, fsindex, gsindex;
	uint64_t tls_array[3];
	uint64_t clear_child_tid; /* set_tid_address, CLONE_CHILD_CLEARTID: zeroed at exit */
	uint64_t robust_list, robust_len;
	uint64_t compat_robust_list; /* an IA-32 set_robust_list's head (32-bit words) */
	uint64_t sigmask;	     /* blocked signals (rt_sigprocmask), per thread */
	/* [BKL] Signals (kernel/task/signal.c): the thread-directed pending set. */
	struct sigpending pending;
	struct signal_struct *signal;	 /* the thread group's */
	struct sighand_struct *sighand;	 /* the actions, shared with CLONE_SIGHAND */
	uint64_t saved_sigmask;		 /* rt_sigsuspend's: back in force after its handler */
	bool restore_sigmask;		 /* saved_sigmask is to be restored (TIF_RESTORE_SIGMASK) */
	bool autoreap;			 /* exited with its parent ignoring SIGCHLD: nobody waits */
	uint64_t sas_ss_sp, sas_ss_size; /* sigaltstack */
	uint64_t trap_nr, error_code, cr2; /* the last fault, for the sigcontext (thread.trap_nr) */
	struct task_struct *vfork_parent;  /* sleeping in vfork until this task execs or exits */

	/* [BKL] Files, cwd and the command line, read by /proc from other tasks. */
	struct files_struct *files; /* NULL once exited */
	struct fs_struct *fs;	    /* NULL once exited */
	char cmdline[TASK_CMDLINE]; /* argv, NUL-separated, as /proc/pid/cmdline */
	uint32_t cmdline_len;

	/*
	 * [self] XSAVE's area (kernel/arch/xstate.h), last: a slot is cleared up
	 * to it (task.c), since fork, spawn and exec always fill it first.
	 */
	uint8_t fpu[FPU_STATE_MAX] __attribute__((aligned(64)));
};

extern struct task_struct tasks[NR_TASKS]; /* [BKL] the slots; each task's fields as above */
extern uint64_t total_forks;  /* [BKL] tasks created since boot: /proc/stat's processes */
int last_pid_allocated(void); /* /proc/loadavg's last field */

static inline struct task_struct *get_current(void)
{
	struct task_struct *t;

	__asm__ volatile("mov %%gs:48, %0" : "=r"(t));
	return t;
}
#define current get_current()

/*
 * Capabilities follow the effective uid, as Linux's default for root: all of
 * them at euid 0, none otherwise.  Call after changing euid.
 */
#define CAP_FULL_SET 0x1ffffffffffULL
static inline void task_fixup_caps(struct task_struct *t)
{
	t->cred.cap_effective = t->cred.euid == 0 ? CAP_FULL_SET : 0;
}

/* The task with this pid (a thread id too); a thread or process already released is not found. */
struct task_struct *find_task_by_pid(int pid);
static inline bool thread_group_leader(const struct task_struct *t)
{
	return t->group_leader == t;
}

/* The task whose sibling link l is. */
static inline struct task_struct *task_of_sibling(struct list_head *l)
{
	return (struct task_struct *)((char *)l - offsetof(struct task_struct, sibling));
}

static inline bool same_thread_group(const struct task_struct *a, const struct task_struct *b)
{
	return a->signal == b->signal;
}
/*
 * A leader alone in its group: no other thread has been counted in
 * nr_threads, or each has left the count at its exit_notify, after it
 * became a zombie.  The common case, known without a walk of the table.
 */
static inline bool thread_group_alone(const struct task_struct *t)
{
	return thread_group_leader(t) && t->signal->nr_threads == 1;
}
/*
 * The other threads of t's group, one per call from table slot *i on
 * (start at 0), exited ones (zombies) included; NULL at the end.  A leader
 * alone in its group gets NULL at once: any zombie thread it has left
 * is released without a report and has nothing (no children, no parent
 * anyone reads) a caller looks for.
 */
struct task_struct *next_other_thread(const struct task_struct *t, int *i);
/* find_alive_thread (Linux 6.6): another thread of t's group that has not exited, or NULL. */
struct task_struct *find_alive_thread(const struct task_struct *t);
/* No thread of t's group is left but t itself and exited ones (zombies). */
static inline bool thread_group_empty(const struct task_struct *t)
{
	return thread_group_alone(t) || !find_alive_thread(t);
}
/* pid assigned, kernel stack allocated; -EAGAIN when the table is full, -ENOMEM */
int alloc_task(struct task_struct **out);
void free_task(struct task_struct *t);
/* A new task's or a reparented one's parent, and a leader's place on its children list. */
void task_set_parent(struct task_struct *p, struct task_struct *parent);
/* An idle task's lists (the tasks of the table get theirs from alloc_task). */
void task_init_lists(struct task_struct *t);
/* Frees the slots of released zombies (exited threads, auto-reaped children); alloc_task and wait
 * call it. */
void release_dead_tasks(void);
/* exit_notify's verdict: with autoreap set, nobody waits and release_dead_tasks frees t. */
void task_set_autoreap(struct task_struct *t, bool autoreap);
int nr_tasks_in_use(void);
/*
 * Whether fork would find no slot (released zombies freed first): fork's
 * -EAGAIN before it copies anything, as Linux 6.6's copy_process checks
 * nr_threads >= max_threads before copy_mm.  Another CPU may take the last
 * slot after the check; alloc_task then fails with -EAGAIN all the same.
 */
bool task_table_full(void);
void task_set_comm(struct task_struct *t, const char *name);

/*
 * Open files belong to fs/, a layer above: fork takes a reference on each of
 * the parent's files and exit drops the task's through these, which
 * fs/file.c installs (files_init) before the first task starts.
 */
extern void (*task_file_get)(struct file *f);
extern void (*task_file_put)(struct file *f);
/* The same for the cwd's inode (fs/vfs.c installs them). */
extern void (*task_inode_get)(struct inode *ino);
extern void (*task_inode_put)(struct inode *ino);

#endif
