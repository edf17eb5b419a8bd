/* Process life cycle: fork, spawn (this system's exec), exit and wait. */
#ifndef KERNEL_SCHED_PROC_H
#define KERNEL_SCHED_PROC_H

#include <stdint.h>

#include "kernel/arch/traps.h"
#include "kernel/sched/task.h"

/* wait4 status encoding, as Linux: exited (code << 8) or killed by (signal). */
#define W_EXITCODE(code) (((code)&0xff) << 8)
#define W_SIGNALED(sig)	 ((sig)&0x7f)
#define SIGTRAP		 5
#define SIGILL		 4
#define SIGABRT		 6
#define SIGBUS		 7
#define SIGFPE		 8
#define SIGKILL		 9
#define SIGSEGV		 11
#define WNOHANG		 1
#define WUNTRACED	 2
#define WCONTINUED	 8
#define __WNOTHREAD	 0x20000000
#define __WALL		 0x40000000
#define __WCLONE	 0x80000000

long do_fork(struct trap_frame *regs);
void prepare_kernel_stack(struct task_struct *p, const struct trap_frame *regs);
void copy_creds(struct task_struct *p, const struct task_struct *from);
void dup_files(struct task_struct *p, const struct task_struct *from);

#define SPAWN_MAX_ARGS 16
#define SPAWN_ARG_LEN  128
/* argv holds kernel strings; returns the child's pid or -errno. */
long do_spawn(const char *name, int argc, char *const argv[]);
/* The caller becomes `name` (same pid); 0 or -errno, the caller intact on failure. */
long do_execve(const char *name, int argc, char *const argv[]);

__attribute__((noreturn)) void do_exit(int status);
/* pid: > 0 that child, else any; status/utime/stime may be NULL. */
long do_wait(int pid, int options, int *status, uint64_t *utime, uint64_t *stime);
void proc_init(void); /* fault hooks; spawns init */

#endif
