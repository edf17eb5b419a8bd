/*
 * System-call entry: MSR setup and the dispatch table.  The assembly entry
 * (arch/switch.asm) saves the user registers as a struct trap_frame at the
 * top of the task's kernel stack; the return value goes back in rax.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/printk.h"
#include "kernel/lib/string.h"
#include "kernel/task/sched.h"
#include "kernel/task/signal.h"
#include "kernel/syscall/syscall.h"

void syscall_entry(void);

static const struct {
	unsigned nr;
	syscall_fn fn;
} table[] = {
	{__NR_read, sys_read},
	{__NR_write, sys_write},
	{__NR_open, sys_open},
	{__NR_close, sys_close},
	{__NR_lseek, sys_lseek},
	{__NR_stat, sys_stat},
	{__NR_fstat, sys_fstat},
	{__NR_lstat, sys_lstat},
	{__NR_ioctl, sys_ioctl},
	{__NR_pread64, sys_pread64},
	{__NR_pwrite64, sys_pwrite64},
	{__NR_readv, sys_readv},
	{__NR_writev, sys_writev},
	{__NR_access, sys_access},
	{__NR_pipe, sys_pipe},
	{__NR_dup, sys_dup},
	{__NR_dup2, sys_dup2},
	{__NR_fcntl, sys_fcntl},
	{__NR_getcwd, sys_getcwd},
	{__NR_chdir, sys_chdir},
	{__NR_fchdir, sys_fchdir},
	{__NR_rename, sys_rename},
	{__NR_mkdir, sys_mkdir},
	{__NR_rmdir, sys_rmdir},
	{__NR_creat, sys_creat},
	{__NR_unlink, sys_unlink},
	{__NR_symlink, sys_symlink},
	{__NR_readlink, sys_readlink},
	{__NR_chmod, sys_chmod},
	{__NR_fchmod, sys_fchmod},
	{__NR_umask, sys_umask},
	{__NR_getdents64, sys_getdents64},
	{__NR_openat, sys_openat},
	{__NR_mkdirat, sys_mkdirat},
	{__NR_newfstatat, sys_newfstatat},
	{__NR_unlinkat, sys_unlinkat},
	{__NR_renameat, sys_renameat},
	{__NR_symlinkat, sys_symlinkat},
	{__NR_readlinkat, sys_readlinkat},
	{__NR_fchmodat, sys_fchmodat},
	{__NR_faccessat, sys_faccessat},
	{__NR_dup3, sys_dup3},
	{__NR_pipe2, sys_pipe2},
	{__NR_renameat2, sys_renameat2},
	{__NR_faccessat2, sys_faccessat2},
	{__NR_fsync, sys_fsync},
	{__NR_truncate, sys_truncate},
	{__NR_ftruncate, sys_ftruncate},
	{__NR_link, sys_link},
	{__NR_chown, sys_chown},
	{__NR_fchown, sys_fchown},
	{__NR_lchown, sys_lchown},
	{__NR_fchownat, sys_fchownat},
	{__NR_linkat, sys_linkat},
	{__NR_fdatasync, sys_fsync},
	{__NR_mmap, sys_mmap},
	{__NR_munmap, sys_munmap},
	{__NR_brk, sys_brk},
	{__NR_sched_yield, sys_sched_yield},
	{__NR_nanosleep, sys_nanosleep},
	{__NR_getpid, sys_getpid},
	{__NR_fork, sys_fork},
	{__NR_execve, sys_execve},
	{__NR_aslrbench_lab, sys_aslrbench_lab},
	{__NR_exit, sys_exit},
	{__NR_wait4, sys_wait4},
	{__NR_getuid, sys_getuid},
	{__NR_syslog, sys_syslog},
	{__NR_getgid, sys_getgid},
	{__NR_setuid, sys_setuid},
	{__NR_geteuid, sys_geteuid},
	{__NR_getegid, sys_getegid},
	{__NR_getppid, sys_getppid},
	{__NR_setresuid, sys_setresuid},
	{__NR_getresuid, sys_getresuid},
	{__NR_setresgid, sys_setresgid},
	{__NR_getresgid, sys_getresgid},
	{__NR_prctl, sys_prctl},
	{__NR_reboot, sys_reboot},
	{__NR_clock_gettime, sys_clock_gettime},
	{__NR_exit_group, sys_exit},
	{__NR_getrandom, sys_getrandom},
	{__NR_spawn, sys_spawn},
	{__NR_aslrbench_job, sys_aslrbench_job},
	{__NR_aslrbench_test, sys_aslrbench_test},
	{__NR_getdents_pids, sys_getdents_pids},
	/* The Linux process ABI. */
	{__NR_mprotect, sys_mprotect},
	{__NR_rt_sigaction, sys_rt_sigaction},
	{__NR_rt_sigprocmask, sys_rt_sigprocmask},
	{__NR_clone, sys_clone},
	{__NR_vfork, sys_vfork},
	{__NR_uname, sys_uname},
	{__NR_getrlimit, sys_getrlimit},
	{__NR_sysinfo, sys_sysinfo},
	{__NR_setpgid, sys_setpgid},
	{__NR_getpgrp, sys_getpgrp},
	{__NR_setsid, sys_setsid},
	{__NR_getpgid, sys_getpgid},
	{__NR_getsid, sys_getsid},
	{__NR_arch_prctl, sys_arch_prctl},
	{__NR_setrlimit, sys_setrlimit},
	{__NR_gettid, sys_gettid},
	{__NR_sched_getaffinity, sys_sched_getaffinity},
	{__NR_set_tid_address, sys_set_tid_address},
	{__NR_clock_nanosleep, sys_clock_nanosleep},
	{__NR_set_robust_list, sys_set_robust_list},
	{__NR_prlimit64, sys_prlimit64},
	{__NR_getcpu, sys_getcpu},
	{__NR_setgid, sys_setgid},
	{__NR_getgroups, sys_getgroups},
	{__NR_bench_submit, sys_bench_submit},
	{__NR_fuzz_note, sys_fuzz_note},
	/* filemap: file-backed mmap */
	{__NR_mremap, sys_mremap},
	/* The time calls the vDSO also answers. */
	{__NR_gettimeofday, sys_gettimeofday},
	{__NR_time, sys_time},
	/* poll/select and waitid. */
	{__NR_poll, sys_poll},
	{__NR_select, sys_select},
	{__NR_waitid, sys_waitid},
	{__NR_pselect6, sys_pselect6},
	{__NR_ppoll, sys_ppoll},
	/* Signals. */
	{__NR_rt_sigreturn, sys_rt_sigreturn},
	{__NR_sigaltstack, sys_sigaltstack},
	{__NR_kill, sys_kill},
	{__NR_tkill, sys_tkill},
	{__NR_tgkill, sys_tgkill},
	{__NR_pause, sys_pause},
	{__NR_rt_sigsuspend, sys_rt_sigsuspend},
	{__NR_rt_sigpending, sys_rt_sigpending},
	{__NR_rt_sigtimedwait, sys_rt_sigtimedwait},
	/* What busybox's cat and poweroff call. */
	{__NR_sendfile, sys_sendfile},
	{__NR_sync, sys_sync},
	/* paxtest. */
	{__NR_utimensat, sys_utimensat},
};

#define X86_EFLAGS_CF	0x000001
#define X86_EFLAGS_PF	0x000004
#define X86_EFLAGS_AF	0x000010
#define X86_EFLAGS_ZF	0x000040
#define X86_EFLAGS_SF	0x000080
#define X86_EFLAGS_TF	0x000100
#define X86_EFLAGS_IF	0x000200
#define X86_EFLAGS_DF	0x000400
#define X86_EFLAGS_OF	0x000800
#define X86_EFLAGS_IOPL 0x003000
#define X86_EFLAGS_NT	0x004000
#define X86_EFLAGS_RF	0x010000
#define X86_EFLAGS_AC	0x040000
#define X86_EFLAGS_ID	0x200000
#define SYSCALL_MASK                                                                               \
	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | X86_EFLAGS_SF |           \
	 X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_DF | X86_EFLAGS_OF | X86_EFLAGS_IOPL |         \
	 X86_EFLAGS_NT | X86_EFLAGS_RF | X86_EFLAGS_AC | X86_EFLAGS_ID)

void syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* sysret loads CS = STAR[63:48] + 16, SS = + 8; syscall CS = STAR[47:32]. */
	wrmsr(MSR_STAR, ((uint64_t)(USER_DS - 3 - 8) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/*
	 * Flags cleared on entry: Linux 6.6's syscall_init (arch/x86/kernel/cpu/
	 * common.c) clears "as much as possible".  NT above all: left set, the
	 * kernel's next iretq raises #GP, and a context switch carries it into
	 * another task.
	 */
	wrmsr(MSR_SFMASK, SYSCALL_MASK);
}

/*
 * An unknown call returns ENOSYS, as Linux's, and says so once per
 * (program, number) so a user sees what a program wanted; past SEEN_MAX
 * pairs, one line says the rest are suppressed.  rseq is deliberately
 * ENOSYS (glibc then does without) and stays quiet.
 *
 * nseen never passes SEEN_MAX: the search below reads seen[0 .. nseen),
 * and with a count that kept growing after the suppression line (as it
 * once did) that read ran past the array, undefined behaviour from which
 * GCC concluded nseen <= SEEN_MAX, dropped the bound check and stored
 * each further (comm, nr) past the array, over idle_task and the hooks
 * after it (the fuzzer's unknown numbers reached it; reliab_unknown_nr).
 */
#define SEEN_MAX 64
static void warn_unknown(uint64_t nr)
{
	static struct {
		char comm[TASK_COMM_LEN];
		uint64_t nr;
	} seen[SEEN_MAX];
	static unsigned nseen;
	static bool suppressed;
	const char *name = syscall_name(nr);

	if (nr == __NR_rseq)
		return;
	for (unsigned i = 0; i < nseen && i < SEEN_MAX; i++)
		if (seen[i].nr == nr && !strcmp(seen[i].comm, current->comm))
			return;
	if (nseen >= SEEN_MAX) {
		if (!suppressed)
			printk(KERN_DEBUG "unknown syscall: further warnings suppressed\n");
		suppressed = true;
		return;
	}
	strlcpy(seen[nseen].comm, current->comm, TASK_COMM_LEN);
	seen[nseen++].nr = nr;
	/* Debug level: in the log (dmesg), on the console only with loglevel=8. */
	printk(KERN_DEBUG "unknown syscall %lu (%s?) from %s[%d]\n", (unsigned long)nr, name,
	       current->comm, current->pid);
}

void syscall_dispatch(struct trap_frame *f)
{
	struct syscall_args a = {f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9};
	/*
	 * The number is an int, as in Linux 6.6 (entry_64.S: movslq %eax, %rsi;
	 * do_syscall_x64: unsigned int unr = nr): the upper 32 bits of rax are
	 * ignored.
	 */
	unsigned nr = (uint32_t)f->rax;
	long ret = -ENOSYS;
	bool found = false;

	current->regs = f;
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].nr == nr) {
			ret = table[i].fn(&a);
			found = true;
			break;
		}
	}
	if (!found)
		warn_unknown(nr);
	f->rax = (uint64_t)ret;
	/*
	 * Signals and the restart of interrupted calls.  rt_sigreturn's rax is
	 * the restored one: as Linux's restore_sigcontext (orig_ax = -1), it is
	 * no longer a system call's result to restart.
	 */
	exit_to_user_mode(f, nr == __NR_rt_sigreturn ? -1 : (long)nr);
}
