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
#include <stdint.h>

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

/* A pending set: one bit and one siginfo per signal (standard signals are not queued twice). */
struct sigpending {
	uint64_t signal;
	struct ksiginfo info[NSIG_LINUX];
};

struct sighand_struct {
	int count; /* tasks sharing it; 0: free */
	struct kernel_sigaction action[NSIG_LINUX];
};

#define SIGNAL_GROUP_EXIT 0x00000004 /* exit_group or a fatal signal: every thread goes */

struct task_struct;

struct signal_struct {
	int sigcnt;	/* tasks (running or zombie) pointing here; 0: free */
	int live;	/* threads that have not called do_exit */
	int nr_threads; /* threads in the group, zombies of the group leader included */
	struct sigpending shared_pending;	 /* process-directed signals (kill) */
	int group_exit_code;			 /* wait status, valid with SIGNAL_GROUP_EXIT */
	unsigned int flags;			 /* SIGNAL_GROUP_EXIT */
	struct task_struct *group_exit_task;	 /* de_thread's caller, woken as threads die */
	int curr_target;			 /* the table slot complete_signal tries first */
	uint64_t rlim_stack_cur, rlim_stack_max; /* RLIMIT_STACK (rlim[]) */
	int pgid, sid;				 /* pids[PIDTYPE_PGID], pids[PIDTYPE_SID] */
	bool is_child_subreaper; /* prctl(PR_SET_CHILD_SUBREAPER): orphans below come here */
	uint64_t utime, stime;	 /* ticks of the group's threads already gone (__exit_signal) */
};

extern struct sighand_struct init_sighand;
extern struct signal_struct init_signals;

struct sighand_struct *copy_sighand(const struct sighand_struct *from);
void put_sighand(struct sighand_struct *sh);
/* A fresh group (fork without CLONE_THREAD): limits, pgid, sid from `from`, nothing pending. */
struct signal_struct *copy_signal(const struct signal_struct *from);
void put_signal_struct(struct signal_struct *sig);

#endif
