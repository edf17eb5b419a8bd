/* Process life cycle: fork, spawn (this system's exec), exit and wait. */
#ifndef KERNEL_TASK_PROCESS_H
#define KERNEL_TASK_PROCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch/traps.h"
#include "kernel/task/task.h"
#include "kernel/uapi/aslrbench.h" /* WNOHANG */

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

long do_fork(struct trap_frame *regs);
/* The clone flags the fork family takes (glibc's and musl's fork, vfork, posix_spawn). */
/* include/uapi/linux/sched.h */
#define CSIGNAL		     0x000000ff
#define CLONE_VM	     0x00000100
#define CLONE_FS	     0x00000200
#define CLONE_FILES	     0x00000400
#define CLONE_SIGHAND	     0x00000800
#define CLONE_PIDFD	     0x00001000
#define CLONE_PTRACE	     0x00002000
#define CLONE_VFORK	     0x00004000
#define CLONE_PARENT	     0x00008000
#define CLONE_THREAD	     0x00010000
#define CLONE_SYSVSEM	     0x00040000
#define CLONE_SETTLS	     0x00080000
#define CLONE_PARENT_SETTID  0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED	     0x00400000
#define CLONE_UNTRACED	     0x00800000
#define CLONE_CHILD_SETTID   0x01000000
#define CLONE_CLEAR_SIGHAND  0x100000000ULL /* clone3 only: the child's caught signals to SIG_DFL  \
					     */
#define SIGCHLD 17
/* kernel_clone_args, reduced to what this kernel acts on. */
struct clone_req {
	struct trap_frame *regs; /* the caller's user registers, the child's but rax and rsp */
	uint64_t flags;		 /* CLONE_*, and the exit signal in CSIGNAL */
	uint64_t newsp;		 /* 0: the caller's rsp */
	uint64_t ptid, ctid, tls;
	/* an IA-32 clone: tls is a struct user_desc pointer (set_new_tls, in_ia32_syscall) */
	bool tls_desc;
};
long do_clone(const struct clone_req *c);
int copy_shared_structs(struct task_struct *p, const struct task_struct *from, uint64_t flags);
void vfork_release(struct task_struct *t);
/* Set by the fork benchmark: receives the cycles of each fork's get_random_int(). */
extern void (*fork_rng_sample_hook)(uint32_t cycles);
void prepare_kernel_stack(struct task_struct *p, const struct trap_frame *regs);
void copy_creds(struct task_struct *p, const struct task_struct *from);

/*
 * One exec, as the layers above resolved it (Linux's linux_binprm before
 * search_binary_handler): the image that runs, its interpreter, the strings.
 */
struct exec_file {
	const uint8_t *image;
	uint64_t size;
	void *file; /* a referenced file-system inode (becomes exe_file), NULL: no file (a test
		       image) */
	/* The same file open (a referenced struct file) and its ops, for file-backed regions. */
	const struct vm_operations_struct *vm_ops;
	void *vm_file;
};
struct exec_request {
	const char *filename;	 /* as given to execve: AT_EXECFN, comm's last component */
	struct exec_file prog;	 /* the ELF that runs (a #! script's interpreter) */
	struct exec_file interp; /* prog's PT_INTERP file; image NULL when it has none */
	int argc, envc;
	char *const *argv, *const *envp;
};
/* spawn and execve of a resolved request (kernel/syscall/exec_file.c resolves paths). */
long do_spawn_req(const struct exec_request *r);
long do_execve_req(const struct exec_request *r);
/*
 * exec's mapping step (exec.c), once arch_pick_mmap_layout has set mm's
 * layout: the exe at mm->exe_base, the [stack], the interpreter, the vDSO
 * and the initial stack; *entry and *sp for the first user registers.  The
 * tests call it with a layout they chose.  0 or -errno; the caller owns mm.
 */
struct linux_binprm;
struct elf_info;
struct mm_struct;
int exec_map_program(struct mm_struct *mm, const struct exec_request *r,
		     const struct linux_binprm *bprm, struct elf_info *ei, uint64_t *entry,
		     uint64_t *sp);

#define SPAWN_MAX_ARGS 16
#define SPAWN_ARG_LEN  128

__attribute__((noreturn)) void do_exit(int status);
/* exit_group and fatal signals: every thread of the group ends (zap_other_threads). */
__attribute__((noreturn)) void do_group_exit(int exit_code);
/* The wait status of a zombie: the group's exit code after exit_group or a fatal signal. */
int task_exit_status(const struct task_struct *t);
/* do_wait's rules (exit.c): is c a child of the caller's group these __W* options select? */
bool wait_eligible_child(const struct task_struct *c, int options);
/* c is a zombie whose group has no live thread left: it can be reaped. */
bool wait_zombie_ready(const struct task_struct *c);
/* Set by init=PATH (kernel/init/init_path.c): pid 1 exited with this wait status. */
extern void (*init_exit_hook)(int status);
/* pid: > 0 that child, else any; status/utime/stime may be NULL. */
long do_wait(int pid, int options, int *status, uint64_t *utime, uint64_t *stime);
void task_fault_init(void); /* installs the fault hooks arch and mm call up through */

/* waitid (kernel/task/wait.c): Linux's struct wait_opts, reduced. */
#define WSTOPPED 2 /* WUNTRACED */
#define WEXITED	 4
#define WNOWAIT	 0x01000000
enum wait_type { WAIT_ALL, WAIT_PID, WAIT_PGID };
struct wait_opts {
	enum wait_type type;
	int id;	     /* the pid or pgid */
	int options; /* WEXITED, WSTOPPED, WCONTINUED, WNOHANG, WNOWAIT, __W* */
	/* The child found: */
	int pid;
	int exit_code; /* as wait4 stores it: exited, killed, (sig << 8) | 0x7f, 0xffff */
	int why;       /* waitid's si_code: CLD_EXITED, KILLED, DUMPED, STOPPED, CONTINUED */
	int status;    /* waitid's si_status: the exit code or the signal */
	uint32_t uid;
	uint64_t utime, stime; /* RUSAGE_BOTH's: the child's threads and its reaped children */
};
/* The child's pid, 0 (WNOHANG, none ready), -ECHILD, -EINTR. */
long do_waitid(struct wait_opts *wo);
/* A signal is pending: sleeps that Linux interrupts return EINTR (see wait.c). */
bool sleep_interrupted(void);

#endif
