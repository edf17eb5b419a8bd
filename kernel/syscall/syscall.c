/*
 * System-call entry: MSR setup and the dispatch table.  The assembly entry
 * (arch/switch.asm) saves the user registers as a struct trap_frame at the
 * top of the task's kernel stack; the return value goes back in rax.
 */
#include "kernel/arch/cpu.h"
#include "kernel/arch/gdt.h"
#include "kernel/lib/errno.h"
#include "kernel/task/sched.h"
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
	{__NR_bench_submit, sys_bench_submit},
};

void syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* sysret loads CS = STAR[63:48] + 16, SS = + 8; syscall CS = STAR[47:32]. */
	wrmsr(MSR_STAR, ((uint64_t)(USER_DS - 3 - 8) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	wrmsr(MSR_SFMASK, 0x40700); /* IF, DF, TF, AC cleared on entry */
}

void syscall_dispatch(struct trap_frame *f)
{
	struct syscall_args a = {f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9};
	long ret = -ENOSYS;

	current->regs = f;
	for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].nr == f->rax) {
			ret = table[i].fn(&a);
			break;
		}
	}
	f->rax = (uint64_t)ret;
	preempt_from_user();
}
