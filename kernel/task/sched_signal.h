/*
 * What the threads of one process share, with Linux's names (6.6,
 * include/linux/sched/signal.h): sighand_struct holds the signal actions
 * (CLONE_SIGHAND), signal_struct the per-process state (CLONE_THREAD):
 * the shared pending set, the group exit, the limits, the process group and
 * session, the thread count.  task_struct stays per thread.
 */
#ifndef KERNEL_TASK_SCHED_SIGNAL_H
#define KERNEL_TASK_SCHED_SIGNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/string.h"
#include "kernel/uapi/signal.h" /* struct kernel_sigaction */

#define NSIG_LINUX 64
/* The fields of siginfo_t a signal here carries (kernel_siginfo, flattened; signal.h). */
struct ksiginfo {
	int signo, code;
	int pid;
	uint32_t uid;
	int status;	      /* SIGCHLD */
	int64_t utime, stime; /* SIGCHLD, clock ticks */
	uint64_t addr;	      /* the fault signals */
};

/*
 * The signals pending and their siginfo, one per signal (a standard signal
 * is not queued twice).  info[n] means something only while bit n is set
 * in signal: __send_sig_info writes both, dequeue reads info under the
 * bit.  So an empty set is the mask cleared, as Linux's is an empty
 * sigqueue list (copy_process's init_sigpending): its 3,072 bytes of
 * siginfo are not cleared.
 */
struct sigpending {
	uint64_t signal;
	struct ksiginfo info[NSIG_LINUX];
};

/*
 * Zeroes the size bytes at obj, the pending set inside them made empty,
 * but not that set's siginfo (above): a new task slot, a new signal struct.
 */
static inline void clear_but_siginfo(void *obj, size_t size, struct sigpending *pending)
{
	char *start = obj, *set = (char *)pending, *after = set + sizeof(*pending);

	memset(start, 0, (size_t)(set - start));
	pending->signal = 0;
	memset(after, 0, (size_t)(start + size - after));
}

struct sighand_struct {
	int count; /* tasks sharing it; 0: free */
	struct kernel_sigaction action[NSIG_LINUX];
};

/* signal_struct.flags, Linux 6.6's values (include/linux/sched/signal.h). */
#define SIGNAL_STOP_STOPPED   0x00000001 /* the group stop is complete */
#define SIGNAL_STOP_CONTINUED 0x00000002 /* SIGCONT since the stop: WCONTINUED reports it */
#define SIGNAL_GROUP_EXIT     0x00000004 /* exit_group or a fatal signal: every thread goes */
#define SIGNAL_CLD_STOPPED    0x00000010 /* the parent is still to get CLD_STOPPED */
#define SIGNAL_CLD_CONTINUED  0x00000020 /* the parent is still to get CLD_CONTINUED */
#define SIGNAL_CLD_MASK	      (SIGNAL_CLD_STOPPED | SIGNAL_CLD_CONTINUED)
#define SIGNAL_STOP_MASK      (SIGNAL_CLD_MASK | SIGNAL_STOP_STOPPED | SIGNAL_STOP_CONTINUED)

/* task_struct.jobctl (include/linux/sched/jobctl.h, 6.6): the stop signal in the low bits. */
#define JOBCTL_STOP_SIGMASK 0xffffUL
#define JOBCTL_STOP_PENDING (1UL << 17) /* this thread is to take part in a group stop */
#define JOBCTL_STOP_CONSUME (1UL << 18) /* and counts in group_stop_count */

struct task_struct;

/* A resource limit (struct rlimit, 64-bit): the soft and the hard value. */
struct rlimit_k {
	uint64_t cur, max;
};

struct signal_struct {
	int sigcnt;	/* tasks (running or zombie) pointing here; 0: free */
	int live;	/* threads that have not called do_exit */
	int nr_threads; /* threads in the group, zombies of the group leader included */
	struct sigpending shared_pending; /* process-directed signals (kill) */
	int group_exit_code;  /* wait status with SIGNAL_GROUP_EXIT; the stop signal in a stop */
	int group_stop_count; /* threads still to stop */
	unsigned int flags;   /* SIGNAL_* */
	struct task_struct *group_exit_task; /* de_thread's caller, woken as threads die */
	int curr_target;		     /* the table slot complete_signal tries first */
	struct rlimit_k rlim_stack;	     /* RLIMIT_STACK (rlim[]) */
	struct rlimit_k rlim_nice;	     /* RLIMIT_NICE: 0, 0 as Linux's INIT_RLIMITS */
	int pgid, sid;			     /* pids[PIDTYPE_PGID], pids[PIDTYPE_SID] */
	bool is_child_subreaper; /* prctl(PR_SET_CHILD_SUBREAPER): orphans below come here */
	uint64_t utime, stime;	 /* ticks of the group's threads already gone (__exit_signal) */
	uint64_t cutime, cstime; /* of the children reaped, and of theirs (wait_task_zombie) */
};

extern struct sighand_struct init_sighand;
extern struct signal_struct init_signals;

struct sighand_struct *copy_sighand(const struct sighand_struct *from);
void put_sighand(struct sighand_struct *sh);
/* A fresh group (fork without CLONE_THREAD): limits, pgid, sid from `from`, nothing pending. */
struct signal_struct *copy_signal(const struct signal_struct *from);
void put_signal_struct(struct signal_struct *sig);
/* thread_group_cputime (Linux 6.6): the ticks of every thread of t's group, gone ones too. */
void thread_group_cputime(const struct task_struct *t, uint64_t *utime, uint64_t *stime);

#endif
